import type { TraceEvent } from '../trace/trace-event.js';
import { assertNever } from '../util/assert-never.js';
import { html, type SafeHtml } from './safe-html.js';

const compactLimit = 400;

function verdictBadge(outcome: string): SafeHtml {
  const known = outcome === 'pass' || outcome === 'fail' || outcome === 'inconclusive' ? outcome : 'error';
  return html`<span class="${`badge ${known}`}">${outcome}</span>`;
}

/** One trace event as a line: its kind and what matters about it. */
export function renderEvent(event: TraceEvent): SafeHtml {
  const line = (body: SafeHtml): SafeHtml => html`<li><b>${event.type}</b> ${body}</li>`;
  switch (event.type) {
    case 'run-start':
      return line(html`suite ${event.suite}, task ${event.task}, mode ${event.mode}, started ${event.startedAt}`);
    case 'task-start':
      return line(html`<strong>${event.instruction}</strong>${event.stepBudget === undefined ? '' : html` (budget ${event.stepBudget} steps)`}`);
    case 'start-step-end':
      return line(html`start step ${event.index + 1}: ${event.description} ${event.outcome === 'done' ? html`<span class="badge pass">done</span>` : event.outcome === 'manual' ? html`<span class="badge inconclusive">manual</span>` : html`<span class="badge fail">failed</span>`}${event.output === undefined || event.output === '' ? '' : html` <code>${compact(event.output)}</code>`}`);
    case 'step-start':
      return line(html`at ${milliseconds(event.t)}`);
    case 'observe-end':
      return line(html`${event.packageName}/${event.activity} in ${milliseconds(event.latencyMs)}${event.settled === false ? ' (not settled)' : ''}`);
    case 'perceive-end':
      return line(html`${event.keptNodes ?? '?'} of ${event.nodes ?? '?'} nodes kept, ${event.units ?? '?'} units, ${event.blocks ?? '?'} blocks`);
    case 'plan-end':
      return line(html`intent <strong>${event.intent}</strong>${event.finish === true ? ' (FINISH)' : ''}${event.expectation === undefined ? '' : html`<br>expects <code>${compact(event.expectation)}</code>`}`);
    case 'commitment-end':
      return line(html`${event.admissible ? 'admissible' : html`<span class="badge fail">rejected</span>`} ${event.reason ?? ''}<br><code>${compact(event.units)}</code>`);
    case 'act-end':
      return line(html`<code>${compact(event.action)}</code>${event.unitId === undefined ? '' : html` on ${event.unitId}`} in ${milliseconds(event.latencyMs)}`);
    case 'verify-end':
      return line(html`${verdictBadge(event.outcome)} ${event.reason ?? ''}${event.label === undefined ? '' : html` · delta ${event.label}`}${event.by === undefined || event.by === 'none' ? '' : html` · by ${event.by}`}${event.strength === undefined ? '' : html` · ${event.strength} evidence`}${event.tie === undefined ? '' : html` (${event.tie})`}`);
    case 'gate-end':
      return line(html`${event.opened ? html`<span class="badge open">VLM gate open</span>` : html`<span class="badge closed">gate closed</span>`} ${event.reason ?? ''}${event.score === undefined ? '' : html` (score ${event.score})`}`);
    case 'screenshot-end':
      return line(html`screenshot of the ${event.of} screen, ${event.width}×${event.height}, ${event.bytes} B in ${milliseconds(event.latencyMs)}`);
    case 'guard-end':
      return line(html`<span class="badge fail">${event.action === 'left' ? 'left' : 'refused on'} ${event.packageName}</span> ${event.detail ?? ''}`);
    case 'device-fault':
      return line(html`<span class="badge fault">device fault injected</span> ${event.kind}: ${event.detail}`);
    case 'model-fault-injected':
      return line(html`<span class="badge fault">model fault injected</span> ${event.kind} in the ${event.role}'s reply: ${event.detail}`);
    case 'reply-repaired':
      return line(html`the ${event.role}'s reply was read after a repair: ${event.repairs.join(', ')}`);
    case 'vlm-call-end':
    case 'model-call-end':
      return line(html`${event.role} · ${event.model} · ${event.promptTokens}+${event.completionTokens} tokens · ${event.images} images (${event.imageBytes} B${event.imageTokens === undefined || event.images === 0 ? '' : `, ${event.imageTokens} tokens`}) · ${milliseconds(event.latencyMs)}${event.error === undefined ? '' : html` · <span class="problems">${event.error}</span>`}`);
    case 'certificate-end':
      return line(html`${event.confidence ?? ''}<pre>${event.text}</pre>`);
    case 'surface-end':
      return line(html`${event.decision.toUpperCase()} by rule ${event.rule}${event.flags === undefined || event.flags.length === 0 ? '' : html` [${event.flags.join(', ')}]`}`);
    case 'step-end':
      return line(html`${event.latencyMs === undefined ? '' : milliseconds(event.latencyMs)}${event.latency === undefined ? '' : html` (${Object.entries(event.latency).map(([part, value]) => `${part} ${milliseconds(value)}`).join(', ')})`}`);
    case 'task-end':
      return line(html`${event.success === null ? verdictBadge('inconclusive') : event.success ? html`<span class="badge success">success</span>` : html`<span class="badge failure">failed</span>`} ${event.reason} · ${event.steps} steps${event.answer === undefined ? '' : html` · answer “${event.answer}”`}`);
    case 'run-end':
      return line(html`${event.status} after ${milliseconds(event.durationMs)}`);
    case 'meta-plan-end':
      return line(html`<strong>meta-plan</strong> (${event.reason})<ol>${event.subtasks.map((subtask, index) => html`<li>${progressMark(event.progress[index])} ${subtask.name}${subtask.done === undefined || subtask.done === '' ? '' : html` <code>${compact(subtask.done)}</code>`}</li>`)}</ol>`);
    case 'progress-end':
      return line(html`${event.checked === undefined ? '' : html`checked ${event.checked.join(', ')} `}${event.claimed === undefined ? '' : html`claimed ${event.claimed.join(', ')} `}· ${event.progress.map(progressMark).join(' ')}`);
    case 'finish-refused':
      return line(html`<span class="badge fail">FINISH refused</span> ${event.reason}`);
    case 'vote-end':
      return line(html`${event.samples} samples → <code>${compact(event.chosen)}</code>${event.tieBroken ? ' (tie broken by expectation specificity)' : ''} · ${event.candidates.map((candidate) => `${candidate.votes}× ${compact(candidate.key)}`).join('; ')} · +${event.extraCalls} calls, +${event.extraTokens} tokens`);
    case 'memory-hints-end':
      return line(html`app memory of ${event.app}: ${event.lines} hint lines, ${event.tokens} tokens`);
    case 'memory-summary-end':
      return line(html`app map of ${event.app} (${event.mapTokens} tokens) ${event.kept ? `summarised by the certifier in ${event.tokens ?? 0} tokens` : `kept as it is: ${event.reason ?? ''}`}`);
    case 'skill-step-end':
      return line(html`<span class="badge skill">skill</span> ${event.skill} step ${event.index + 1}: <strong>${event.intent}</strong> ${verdictBadge(event.outcome)} ${event.reason}`);
    case 'skill-end':
      return line(html`<span class="badge skill">skill</span> ${event.skill ?? '(none)'} ${event.outcome} after ${event.steps} verified steps: ${event.reason}`);
    case 'error':
      return line(html`<span class="problems">${event.infrastructure === true ? 'infrastructure: ' : ''}${event.where === undefined ? '' : `${event.where}: `}${event.message}</span>`);
    default:
      return assertNever(event, 'trace event');
  }
}

function milliseconds(value: number): string {
  return value >= 1000 ? `${(value / 1000).toFixed(2)} s` : `${Math.round(value)} ms`;
}

function progressMark(status: 'checked' | 'claimed' | 'pending' | undefined): string {
  return status === 'checked' ? '✓' : status === 'claimed' ? '?' : '·';
}

function compact(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value) ?? String(value);
  return text.length > compactLimit ? `${text.slice(0, compactLimit - 1)}…` : text;
}

