import type { TraceEvent } from '../trace/trace-event.js';
import type { RunArtifacts, StepArtifacts } from './read-run-artifacts.js';

/** Lines of the reduced view shown per step; the rest is summarized with a count. */
const maxViewLines = 40;

/**
 * The header of a replay: run, task, instruction, outcome, and trace problems, as plain
 * text (for `senseact debug`). Ends with a newline.
 */
export function formatTraceHeader(artifacts: RunArtifacts): string {
  const lines: string[] = [`run folder ${artifacts.traceDir}`];
  for (const event of artifacts.events) {
    if (event.type === 'run-start') lines.push(`run ${event.runId}: suite ${event.suite}, task ${event.task}, mode ${event.mode}, started ${event.startedAt}`);
    if (event.type === 'task-start') lines.push(`task ${event.taskId}: ${event.instruction}`);
    if (event.type === 'task-end') lines.push(`result: ${event.success === null ? 'not evaluated' : event.success ? 'SUCCESS' : 'FAILED'} (${event.reason}) after ${event.steps} steps${event.answer === undefined ? '' : `, answer "${event.answer}"`}`);
    if (event.type === 'run-end') lines.push(`run ${event.status} after ${Math.round(event.durationMs)} ms`);
    if (event.type === 'error' && event.step === null) lines.push(`error${event.where === undefined ? '' : ` in ${event.where}`}: ${event.message}`);
  }
  lines.push(`${artifacts.steps.length} steps`);
  for (const problem of artifacts.problems) lines.push(`warning: ${problem}`);
  return terminalSafe(`${lines.join('\n')}\n`);
}

/**
 * One step of a recorded run as plain text: what the agent saw (screen and reduced
 * view), what it planned and expected, what it committed to and did, and what it got
 * (verification, gate, surface decision, model calls). Pure. Control characters from
 * app text are shown as `\xNN`, so a recorded screen cannot drive the terminal. Ends
 * with a newline.
 */
export function formatTraceStep(artifacts: RunArtifacts, step: StepArtifacts): string {
  const events = artifacts.events.filter((event) => event.step === step.step);
  const lines: string[] = [`── step ${step.step} (${step.folder}) ──`];
  const saw = events.filter((event) => event.type === 'observe-end' || event.type === 'perceive-end');
  lines.push('SAW');
  for (const event of saw) lines.push(`  ${describe(event)}`);
  if (step.view !== undefined) {
    const viewLines = step.view.text.trimEnd().split('\n');
    lines.push(...viewLines.slice(0, maxViewLines).map((line) => `  | ${line}`));
    if (viewLines.length > maxViewLines || step.view.truncated) lines.push(`  | … (${step.view.name} has more)`);
  } else if (saw.length === 0) {
    lines.push('  (no observation recorded)');
  }
  section(lines, 'PLANNED / EXPECTED', events.filter((event) => ['meta-plan-end', 'memory-hints-end', 'vote-end', 'model-fault-injected', 'plan-end', 'finish-refused'].includes(event.type)));
  section(lines, 'COMMITTED / DID', events.filter((event) => event.type === 'commitment-end' || event.type === 'act-end'));
  section(lines, 'GOT', events.filter((event) => ['guard-end', 'verify-end', 'gate-end', 'vlm-call-end', 'surface-end', 'progress-end', 'certificate-end', 'error'].includes(event.type)));
  if (step.delta?.json !== undefined) lines.push(`  delta: ${oneLine(step.delta.json)}`);
  if (step.predicates?.json !== undefined) lines.push(`  predicates: ${oneLine(step.predicates.json)}`);
  const calls = events.filter((event) => event.type === 'model-call-end');
  if (calls.length > 0) section(lines, 'MODEL CALLS', calls);
  return terminalSafe(`${lines.join('\n')}\n`);
}

function section(lines: string[], title: string, events: readonly TraceEvent[]): void {
  lines.push(title);
  if (events.length === 0) lines.push('  (none recorded)');
  for (const event of events) lines.push(`  ${describe(event)}`);
}

function describe(event: TraceEvent): string {
  switch (event.type) {
    case 'observe-end':
      return `screen ${event.packageName}/${event.activity} (${Math.round(event.latencyMs)} ms${event.settled === false ? ', not settled' : ''})`;
    case 'perceive-end':
      return `${event.keptNodes ?? '?'} of ${event.nodes ?? '?'} nodes kept, ${event.units ?? '?'} units in ${event.blocks ?? '?'} blocks`;
    case 'plan-end':
      return `intent: ${event.intent}${event.finish === true ? ' (FINISH)' : ''}\n  expect: ${event.expectation === undefined || event.expectation === '' ? '(nothing stated)' : oneLine(event.expectation)}`;
    case 'commitment-end':
      return `${event.admissible ? 'commitment' : 'REJECTED commitment'}: ${oneLine(event.units)}${event.reason === undefined ? '' : ` (${event.reason})`}`;
    case 'act-end':
      return `act: ${oneLine(event.action)}${event.unitId === undefined ? '' : ` on ${event.unitId}`}`;
    case 'verify-end':
      return `verify: ${event.outcome.toUpperCase()}${event.reason === undefined ? '' : ` — ${event.reason}`}${event.label === undefined ? '' : ` [delta ${event.label}]`}${event.by === undefined ? '' : ` by ${event.by}`}${event.strength === undefined ? '' : ` (${event.strength} evidence)`}`;
    case 'model-fault-injected':
      return `MODEL FAULT injected: ${event.kind} in the ${event.role}'s reply — ${event.detail}`;
    case 'guard-end':
      return `guard: ${event.action === 'left' ? 'LEFT' : 'REFUSED on'} ${event.packageName}${event.detail === undefined ? '' : ` — ${event.detail}`}`;
    case 'gate-end':
      return `vlm gate: ${event.opened ? 'OPEN' : 'closed'}${event.reason === undefined ? '' : ` — ${event.reason}`}`;
    case 'vlm-call-end':
    case 'model-call-end':
      return `${event.type === 'vlm-call-end' ? 'vlm' : 'model'} ${event.role} (${event.model}): ${event.promptTokens}+${event.completionTokens} tokens, ${event.images} images, ${Math.round(event.latencyMs)} ms${event.error === undefined ? '' : `, error: ${event.error}`}${event.artifact === undefined ? '' : ` → ${event.artifact}`}`;
    case 'surface-end':
      return `surface: ${event.decision.toUpperCase()} (${event.rule})`;
    case 'certificate-end':
      return `certificate: ${event.text.replace(/\n/g, ' ')}`;
    case 'error':
      return `error${event.where === undefined ? '' : ` in ${event.where}`}: ${event.message}`;
    default:
      return `${event.type}: ${oneLine(event)}`;
  }
}

function oneLine(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value) ?? String(value);
  return text.length > 300 ? `${text.slice(0, 299)}…` : text;
}

/** Replaces control characters (ANSI escapes and the like, not newlines) with `\xNN`. */
export function terminalSafe(text: string): string {
  return text.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, (character) => `\\x${character.charCodeAt(0).toString(16).padStart(2, '0')}`);
}
