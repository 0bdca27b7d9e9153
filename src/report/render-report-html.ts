import type { TraceEvent } from '../trace/trace-event.js';
import { assertNever } from '../util/assert-never.js';
import { escapeHtml } from './escape-html.js';
import type { RunArtifacts, StepArtifacts, TextArtifact } from './read-run-artifacts.js';
import type { ReportInput, ReportRun, ReportSummary } from './report-input.js';
import { reportContentSecurityPolicy, reportStyle } from './report-style.js';
import { renderWireframeSvg } from './render-wireframe-svg.js';
import { html, joinHtml, type SafeHtml } from './safe-html.js';

/** One run as the page shows it: its summary, what its folder holds, and where its files are. */
export interface RenderedRun {
  readonly run: ReportRun;
  readonly artifacts: RunArtifacts;
  /** Relative URL from the page to the run folder (for links to raw files), `/`-separated, percent-encoded. */
  readonly folderHref: string;
  /** Relative URL of each step's copied screenshot, by step number. */
  readonly screenshotHrefs: ReadonlyMap<number, string>;
}

const compactLimit = 400;

/**
 * The whole report page. Pure: all data goes through `html` (escaped), the page carries
 * a Content-Security-Policy without any script source, and it has no script of its own
 * (collapsing uses `<details>`).
 */
export function renderReportHtml(input: ReportInput, runs: readonly RenderedRun[]): string {
  const page = html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${reportContentSecurityPolicy()}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${input.title}</title>
<style>${styleSheet()}</style>
</head>
<body>
<h1>${input.title}</h1>
${renderTable(input.summary)}
${(input.tables ?? []).map(renderTable)}
<nav><h3>Runs</h3><ol>${runs.map((rendered, index) => html`<li><a href="${`#run-${index}`}">${rendered.run.taskId} · ${rendered.run.mode} · r${rendered.run.repeat}</a> ${outcomeBadge(rendered.run)}</li>`)}</ol></nav>
${runs.map((rendered, index) => renderRun(rendered, index))}
<footer class="notes">Generated ${input.generatedAt} from the run folder alone (results.json and the trace folders).</footer>
</body>
</html>
`;
  return page.markup;
}

/**
 * The style sheet goes through `html` like everything else. `<style>` content is raw
 * text (no entity decoding), so it must not contain characters that escaping changes,
 * or the page would get different CSS than the one its CSP hash allows.
 */
function styleSheet(): SafeHtml {
  if (escapeHtml(reportStyle) !== reportStyle) throw new Error('report-style.ts: the style sheet must not contain & < > " \' or ` (they would be escaped inside <style>)');
  return html`${reportStyle}`;
}

function renderTable(summary: ReportSummary): SafeHtml {
  return html`<h2>${summary.title}</h2>
<table class="summary"><thead><tr>${summary.headers.map((header) => html`<th>${header}</th>`)}</tr></thead>
<tbody>${summary.rows.map((row) => html`<tr>${row.map((cell) => html`<td>${cell}</td>`)}</tr>`)}</tbody></table>
<div class="notes">${summary.notes.map((note) => html`<div>${note}</div>`)}</div>`;
}

function outcomeBadge(run: ReportRun): SafeHtml {
  if (run.error !== null) return html`<span class="badge error">error</span>`;
  return run.success ? html`<span class="badge success">success</span>` : html`<span class="badge failure">failed</span>`;
}

function renderRun(rendered: RenderedRun, index: number): SafeHtml {
  const { run, artifacts } = rendered;
  const outside = artifacts.events.filter((event) => event.step === null);
  return html`<section class="run" id="${`run-${index}`}">
<h2>${run.taskId} · ${run.mode} · r${run.repeat} ${outcomeBadge(run)}</h2>
<div>${run.reason}</div>
${run.error === null ? '' : html`<div class="problems">infrastructure error: ${run.error}</div>`}
<dl class="facts"><dt>app</dt><dd>${run.app}</dd>${run.facts.map(([label, value]) => html`<dt>${label}</dt><dd>${value}</dd>`)}</dl>
<div class="notes">trace folder: <a href="${`${rendered.folderHref}/`}">${rendered.folderHref}</a></div>
${artifacts.refused !== undefined ? html`<div class="problems">${artifacts.refused}</div>` : artifacts.hasTrace ? '' : html`<div class="problems">no trace.jsonl in this run folder: the run produced no trace (see the error above).</div>`}
${artifacts.problems.length === 0 ? '' : html`<ul class="problems">${artifacts.problems.map((problem) => html`<li>${problem}</li>`)}</ul>`}
${outside.length === 0 ? '' : html`<ul class="events">${outside.map(renderEvent)}</ul>`}
${artifacts.steps.map((step) => renderStep(rendered, step))}
</section>`;
}

function renderStep(rendered: RenderedRun, step: StepArtifacts): SafeHtml {
  const events = rendered.artifacts.events.filter((event) => event.step === step.step);
  const screenshot = rendered.screenshotHrefs.get(step.step);
  const link = (name: string): SafeHtml => html`<a href="${`${rendered.folderHref}/${step.folder}/${encodeURIComponent(name)}`}">${name}</a>`;
  return html`<article class="step">
<div class="shot">${screenshot === undefined ? wireframe(step) : html`<img src="${screenshot}" alt="${`screenshot of step ${step.step}`}">`}</div>
<div>
<h3>step ${step.step}</h3>
<ul class="events">${events.map(renderEvent)}</ul>
${step.view === undefined ? '' : html`<details open><summary>reduced view (what the planner saw)</summary>${preformatted(step.view, embedLimits.view, fileHref(rendered, step.view))}</details>`}
${step.predicates === undefined ? '' : html`<details><summary>predicate outcomes</summary>${predicateOutcomes(step.predicates, fileHref(rendered, step.predicates))}</details>`}
${step.delta === undefined ? '' : html`<details><summary>delta</summary>${preformatted(step.delta, embedLimits.delta, fileHref(rendered, step.delta))}</details>`}
${step.scg === undefined ? '' : html`<details><summary>structured control graph</summary>${preformatted(step.scg, embedLimits.scg, fileHref(rendered, step.scg))}</details>`}
${step.modelCalls.map((call) => renderModelCall(rendered, call))}
${step.files.length === 0 ? '' : html`<div class="notes">files: ${joinHtml(step.files.map(link), ' · ')}</div>`}
</div>
</article>`;
}

function wireframe(step: StepArtifacts): SafeHtml {
  if (step.hierarchy === undefined) return html`<div class="missing">no screenshot or hierarchy for this step</div>`;
  if (step.hierarchy.truncated) return html`<div class="missing">hierarchy too large to draw here; see ${step.hierarchy.name}</div>`;
  const drawn = renderWireframeSvg(step.hierarchy.text, step.hierarchy.name);
  return 'svg' in drawn ? drawn.svg : html`<div class="missing">no wireframe: ${drawn.problem}</div>`;
}

/**
 * How many characters of each artifact kind the page embeds; the rest is one click away
 * in the run folder. Keeps a page of hundreds of runs in the tens of megabytes: the full
 * prompts of model calls and the SCG dominate a run folder but rarely matter at a glance.
 */
export const embedLimits = { view: 16_000, delta: 8_000, predicates: 8_000, scg: 1_000, modelReply: 2_000 } as const;

function fileHref(rendered: RenderedRun, artifact: TextArtifact): string {
  return `${rendered.folderHref}/${artifact.name.split('/').map(encodeURIComponent).join('/')}`;
}

function preformatted(artifact: TextArtifact, limit: number, href: string): SafeHtml {
  const text = artifact.json === undefined ? artifact.text : JSON.stringify(artifact.json, null, 2);
  const cut = artifact.truncated || text.length > limit;
  return html`<pre>${cut ? `${text.slice(0, limit)}…` : text}</pre>${cut ? html`<div class="notes">cut at ${limit} characters; the full file: <a href="${href}">${artifact.name}</a></div>` : ''}`;
}

/** A model call: who was asked and what it replied; the full prompt stays in the linked file. */
function renderModelCall(rendered: RenderedRun, call: TextArtifact): SafeHtml {
  const href = fileHref(rendered, call);
  const name = call.name.split('/').at(-1) ?? call.name;
  const record = isRecord(call.json) ? call.json : undefined;
  const reply = record !== undefined && isRecord(record['reply']) && typeof record['reply']['text'] === 'string' ? record['reply']['text'] : undefined;
  const failure = record !== undefined && isRecord(record['error']) && typeof record['error']['message'] === 'string' ? record['error']['message'] : undefined;
  if (record === undefined || (reply === undefined && failure === undefined)) {
    return html`<details><summary>model call ${name}</summary>${preformatted(call, embedLimits.modelReply, href)}</details>`;
  }
  const role = typeof record['role'] === 'string' ? record['role'] : 'model';
  const model = typeof record['requestedModel'] === 'string' ? record['requestedModel'] : isRecord(record['reply']) && typeof record['reply']['model'] === 'string' ? record['reply']['model'] : '';
  const tokens = typeof record['promptTokens'] === 'number' && typeof record['completionTokens'] === 'number' ? `${record['promptTokens']}+${record['completionTokens']} tokens` : '';
  const shown = reply ?? '';
  const cut = shown.length > embedLimits.modelReply;
  return html`<details><summary>model call ${name} (${role})</summary><div class="notes">${joinHtml([model, tokens].filter((part) => part !== ''), ' · ')} · full prompt and reply: <a href="${href}">${call.name}</a></div>${failure === undefined ? '' : html`<div class="problems">failed: ${failure}</div>`}${reply === undefined ? '' : html`<pre>${cut ? `${shown.slice(0, embedLimits.modelReply)}…` : shown}</pre>`}</details>`;
}

/**
 * predicates.json as outcome lines. Two shapes are understood: a list of
 * `{ predicate?, outcome, reason? }`, and the agent's `{ expectation, units: [{ unit,
 * outcome: { outcome, reason } }], combined }`; anything else is shown as JSON.
 */
function predicateOutcomes(artifact: TextArtifact, href: string): SafeHtml {
  const json = artifact.json;
  const line = (label: unknown, verdict: unknown): SafeHtml | undefined => {
    if (!isRecord(verdict) || typeof verdict['outcome'] !== 'string') return undefined;
    return html`<li>${verdictBadge(verdict['outcome'])} <code>${compact(label ?? '')}</code> ${typeof verdict['reason'] === 'string' ? verdict['reason'] : ''}</li>`;
  };
  let lines: (SafeHtml | undefined)[] = [];
  if (Array.isArray(json)) {
    lines = json.map((entry) => (isRecord(entry) ? line(entry['predicate'] ?? entry['expression'] ?? entry['name'] ?? '', entry) : undefined));
  } else if (isRecord(json) && Array.isArray(json['units'])) {
    lines = [
      ...json['units'].map((entry) => (isRecord(entry) ? line(`unit ${String(entry['unit'] ?? '?')}`, entry['outcome']) : undefined)),
      line(typeof json['expectation'] === 'string' && json['expectation'] !== '' ? `expectation ${json['expectation']}` : 'combined', json['combined']),
    ];
  }
  const shown = lines.filter((entry): entry is SafeHtml => entry !== undefined);
  if (shown.length === 0) return preformatted(artifact, embedLimits.predicates, href);
  return html`<ul class="events">${shown}</ul>`;
}

function verdictBadge(outcome: string): SafeHtml {
  const known = outcome === 'pass' || outcome === 'fail' || outcome === 'inconclusive' ? outcome : 'error';
  return html`<span class="${`badge ${known}`}">${outcome}</span>`;
}

/** One trace event as a line: its kind and what matters about it. */
export function renderEvent(event: TraceEvent): SafeHtml {
  const line = (body: SafeHtml): SafeHtml => html`<li><span class="kind">${event.type}</span> ${body}</li>`;
  switch (event.type) {
    case 'run-start':
      return line(html`suite ${event.suite}, task ${event.task}, mode ${event.mode}, started ${event.startedAt}`);
    case 'task-start':
      return line(html`<strong>${event.instruction}</strong>${event.stepBudget === undefined ? '' : html` (budget ${event.stepBudget} steps)`}`);
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
      return line(html`${verdictBadge(event.outcome)} ${event.reason ?? ''}${event.label === undefined ? '' : html` · delta ${event.label}`}${event.by === undefined ? '' : html` · by ${event.by}`}${event.strength === undefined ? '' : html` · ${event.strength} evidence`}`);
    case 'gate-end':
      return line(html`${event.opened ? html`<span class="badge open">VLM gate open</span>` : html`<span class="badge closed">gate closed</span>`} ${event.reason ?? ''}${event.score === undefined ? '' : html` (score ${event.score})`}`);
    case 'guard-end':
      return line(html`<span class="badge fail">${event.action === 'left' ? 'left' : 'refused on'} ${event.packageName}</span> ${event.detail ?? ''}`);
    case 'vlm-call-end':
    case 'model-call-end':
      return line(html`${event.role} · ${event.model} · ${event.promptTokens}+${event.completionTokens} tokens · ${event.images} images (${event.imageBytes} B${event.imageTokens === undefined || event.images === 0 ? '' : `, ${event.imageTokens} tokens`}) · ${milliseconds(event.latencyMs)}${event.error === undefined ? '' : html` · <span class="problems">${event.error}</span>`}`);
    case 'certificate-end':
      return line(html`${event.confidence ?? ''}<pre>${event.text}</pre>`);
    case 'surface-end':
      return line(html`${event.decision.toUpperCase()} by rule ${event.rule}${event.flags === undefined || event.flags.length === 0 ? '' : html` [${event.flags.join(', ')}]`}`);
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
    case 'step-end':
      return line(html`${event.latencyMs === undefined ? '' : milliseconds(event.latencyMs)}${event.latency === undefined ? '' : html` (${Object.entries(event.latency).map(([part, value]) => `${part} ${milliseconds(value)}`).join(', ')})`}`);
    case 'task-end':
      return line(html`${event.success === null ? verdictBadge('inconclusive') : event.success ? html`<span class="badge success">success</span>` : html`<span class="badge failure">failed</span>`} ${event.reason} · ${event.steps} steps${event.answer === undefined ? '' : html` · answer “${event.answer}”`}`);
    case 'run-end':
      return line(html`${event.status} after ${milliseconds(event.durationMs)}`);
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

function progressMark(status: 'checked' | 'claimed' | 'pending' | undefined): string {
  return status === 'checked' ? '✓' : status === 'claimed' ? '?' : '·';
}

function milliseconds(value: number): string {
  return value >= 1000 ? `${(value / 1000).toFixed(2)} s` : `${Math.round(value)} ms`;
}

function compact(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value) ?? String(value);
  return text.length > compactLimit ? `${text.slice(0, compactLimit - 1)}…` : text;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
