import type { TraceEvent } from '../trace/trace-event.js';
import { describeReplyRepairs, replyRepairsOf } from './describe-reply-repairs.js';
import type { ExpectationNode } from './expectation-outcomes.js';
import type { RunArtifacts, StepArtifacts } from './read-run-artifacts.js';
import type { StepModel } from './run-page-model.js';

/** Lines of the reduced view shown per step; the rest is summarized with a count. */
const maxViewLines = 40;

/** Changes listed per step; the rest is counted. */
const maxChangeLines = 12;

/**
 * The header of a replay: run, task, instruction, outcome, and trace problems, as plain
 * text (for `senseact debug`). Ends with a newline.
 */
export function formatTraceHeader(artifacts: RunArtifacts): string {
  const lines: string[] = [`run folder ${artifacts.traceDir}`];
  let executed: number | undefined;
  for (const event of artifacts.events) {
    if (event.type === 'run-start') lines.push(`run ${event.runId}: task ${event.task}, mode ${event.mode}, started ${event.startedAt}`);
    if (event.type === 'task-start') lines.push(`task ${event.taskId}: ${event.instruction}`);
    if (event.type === 'task-end') {
      executed = event.steps;
      lines.push(`result: ${event.success === null ? 'not evaluated' : event.success ? 'SUCCESS' : 'FAILED'} — ${event.reason}${event.answer === undefined ? '' : `; answer "${event.answer}"`}`);
    }
    if (event.type === 'run-end') {
      lines.push(`run ${event.status} after ${Math.round(event.durationMs)} ms`);
      const repairs = describeReplyRepairs(replyRepairsOf(event.usage) ?? {});
      if (repairs !== '') lines.push(`model replies read after a repair (repaired/read): ${repairs}`);
    }
    if (event.type === 'error' && event.step === null) lines.push(`error${event.where === undefined ? '' : ` in ${event.where}`}: ${event.message}`);
  }
  const numbers = artifacts.steps.map((step) => step.step);
  lines.push(`${artifacts.steps.length} loop steps recorded${numbers.length === 0 ? '' : ` (${numbers[0]}–${numbers.at(-1)}; --step <n> shows one)`}${executed === undefined ? '' : `, ${executed} action(s) executed`}`);
  for (const problem of artifacts.problems) lines.push(`warning: ${problem}`);
  return terminalSafe(`${lines.join('\n')}\n`);
}

/**
 * One step of a recorded run as plain text, as a stepper shows it: what the agent saw
 * (the screen once, settled, and the reduced view), its plan and expectation, what it
 * did, the change in words, the verdict with its evidence, and, when something went
 * wrong, one WHY line (an unfound target, an injected model or device fault, a rejected commitment,
 * the failing part of a check). `model` is the report's model of the same step (actions,
 * changes and the expectation evaluated atom by atom). Pure. Control characters from app
 * text are shown as `\xNN`, so a recorded screen cannot drive the terminal. Ends with a newline.
 */
export function formatTraceStep(artifacts: RunArtifacts, step: StepArtifacts, model?: StepModel): string {
  const events = artifacts.events.filter((event) => event.step === step.step);
  const total = artifacts.steps.length;
  const lines: string[] = [`── step ${step.step} of ${total === 0 ? 0 : (artifacts.steps.at(-1)?.step ?? 0)} (${step.folder}) ──`];
  lines.push(`SEEN     ${seen(events)}`);
  if (step.view !== undefined) {
    const viewLines = step.view.text.trimEnd().split('\n');
    lines.push(...viewLines.slice(0, maxViewLines).map((line) => `  | ${line}`));
    if (viewLines.length > maxViewLines || step.view.truncated) lines.push(`  | … (${step.view.name} has more)`);
  }
  const plan = events.find((event) => event.type === 'plan-end');
  if (plan?.type === 'plan-end') {
    lines.push(`PLAN     ${plan.intent}${plan.finish === true ? ' (FINISH)' : ''}`);
    lines.push(`EXPECT   ${plan.expectation === undefined || plan.expectation === '' ? '(nothing stated)' : oneLine(plan.expectation)}`);
  } else lines.push('PLAN     (no plan recorded)');
  for (const event of events) {
    if (event.type === 'model-fault-injected' || event.type === 'device-fault') lines.push(`FAULT    ${describe(event)}`);
    else if (['meta-plan-end', 'memory-hints-end', 'vote-end', 'finish-refused'].includes(event.type)) lines.push(`  ${describe(event)}`);
  }
  const commitment = events.filter((event) => event.type === 'commitment-end');
  for (const event of commitment) lines.push(`  ${describe(event)}`);
  const actions = model?.actions ?? events.flatMap((event) => (event.type === 'act-end' ? [describe(event)] : []));
  lines.push(`DONE     ${actions.length === 0 ? '(nothing executed)' : actions.join('; ')}`);
  if (model !== undefined && actions.length > 0) {
    lines.push(`CHANGE   ${model.changeLabel ?? 'delta'}${model.changes.length === 0 ? ': nothing changed' : ''}`);
    lines.push(...model.changes.slice(0, maxChangeLines).map((change) => `  ${change.text}`));
    if (model.changes.length > maxChangeLines) lines.push(`  … ${model.changes.length - maxChangeLines} more`);
  }
  const verdicts: string[] = [];
  for (const event of events) {
    if (!['verify-end', 'guard-end', 'gate-end', 'vlm-call-end', 'surface-end', 'progress-end', 'error'].includes(event.type)) continue;
    const shown = event.type === 'verify-end' && event.reason !== undefined ? { ...event, reason: sayOnce(event.reason, verdicts) } : event;
    if (event.type === 'verify-end' && event.reason !== undefined) verdicts.push(event.reason);
    lines.push(`${label(shown)}${describe(shown).replace(/^(verify|vlm gate): /, '')}`);
  }
  if (model?.expectation?.tree !== undefined) lines.push(...expectationLines(model.expectation.tree, '  '));
  for (const check of model?.unitChecks ?? []) if (check.outcome !== 'pass') lines.push(`  unit ${check.unit}: ${check.outcome} — ${check.reason}`);
  const why = whyLine(events, model, artifacts.events.filter((event) => event.type === 'device-fault' && event.step !== null && event.step <= step.step));
  if (why !== undefined) lines.push(`WHY      ${why}`);
  for (const event of events) {
    if (event.type === 'model-call-end') lines.push(`MODEL    ${describe(event).replace(/^model /, '')}`);
    if (event.type === 'reply-repaired') lines.push(`REPAIRED ${describe(event)}`);
  }
  return terminalSafe(`${lines.join('\n')}\n`);
}

/** The screen once: its last observation (the settled one) with the polls it took, and what perception kept. */
function seen(events: readonly TraceEvent[]): string {
  const observations = events.filter((event) => event.type === 'observe-end');
  const last = observations.at(-1);
  const perceived = events.find((event) => event.type === 'perceive-end');
  const parts: string[] = [];
  if (last?.type === 'observe-end') {
    const polls = last.polls ?? observations.length;
    parts.push(`${last.packageName}/${last.activity}${stackBelow(last.activityStack)}, ${last.settled === false ? 'NOT settled' : 'settled'}${polls > 1 ? ` after ${polls} polls` : ''} (${Math.round(last.latencyMs)} ms)`);
  }
  if (perceived !== undefined) parts.push(describe(perceived));
  return parts.length === 0 ? 'the screen the step before left (not observed again)' : parts.join('; ');
}

/** The activities under the top one, when the device told the stack: where Back leads. */
function stackBelow(stack: readonly string[] | undefined): string {
  return stack !== undefined && stack.length > 1 ? ` (over ${stack.slice(1).join(' < ')})` : '';
}

function label(event: TraceEvent): string {
  switch (event.type) {
    case 'verify-end': return 'VERDICT  ';
    case 'gate-end': return 'GATE     ';
    default: return '  ';
  }
}

/**
 * A commitment's verdict without the verdicts of its units shown just above it: its reason
 * lists each unit's reason and then the expectation's, which often quotes the same evidence
 * (`commitment passed: click "Cancel": E; E`). The parts already shown, a whole reason or
 * the evidence after one of its `: `, read `as above`; a part not shown stays. Any other
 * reason is returned as it is.
 */
function sayOnce(reason: string, shown: readonly string[]): string {
  const head = /^commitment (passed|failed|inconclusive): /.exec(reason);
  if (head === null || shown.length === 0) return reason;
  const said = shown.flatMap((text) => [text, ...[...text.matchAll(/: /g)].map((match) => text.slice((match.index ?? 0) + 2))]).sort((a, b) => b.length - a.length);
  let rest = reason.slice(head[0].length);
  let consumed = false;
  for (let part = saidPart(rest, said); part !== undefined; part = saidPart(rest, said)) {
    rest = rest.slice(Math.min(rest.length, part.length + 2));
    consumed = true;
  }
  if (!consumed) return reason;
  return `commitment ${head[1]}, as above${rest === '' ? '' : `; ${rest}`}`;
}

/** The longest text already said that is the whole of `rest` or its first `; `-part. */
function saidPart(rest: string, said: readonly string[]): string | undefined {
  return rest === '' ? undefined : said.find((text) => rest === text || rest.startsWith(`${text}; `));
}

/** The expectation's atoms that decided a failing whole, with their reasons. */
function expectationLines(node: ExpectationNode, indent: string): string[] {
  if (node.outcome === 'pass') return [];
  if (node.kind === 'atom') return node.culprit ? [`${indent}expectation part ${node.text}: ${node.outcome} — ${node.reason}`] : [];
  return node.parts.flatMap((part) => expectationLines(part, indent));
}

/** One line that says why the step went wrong, when it did; undefined for a step that went as planned. */
function whyLine(events: readonly TraceEvent[], model: StepModel | undefined, faultsSoFar: readonly TraceEvent[]): string | undefined {
  const error = events.find((event) => event.type === 'error');
  if (error?.type === 'error') return `error${error.where === undefined ? '' : ` in ${error.where}`}: ${error.message}`;
  const faultWords = injectedFaults(events);
  const rejected = events.find((event) => event.type === 'commitment-end' && !event.admissible);
  if (rejected?.type === 'commitment-end') return `the commitment was rejected: ${rejected.reason ?? 'not admissible'}${faultWords === undefined ? '' : `, after ${faultWords}`}`;
  const unresolved = events.find((event) => event.type === 'gate-end' && event.opened && event.reason === 'unresolved-target');
  if (unresolved?.type === 'gate-end') {
    const struck = faultOnTarget(faultsSoFar, unresolved.detail ?? '');
    return `${unresolved.detail ?? 'the plan\'s target is not on the screen'}${events.some((event) => event.type === 'act-end') ? '' : '; nothing was executed'}${struck === undefined ? '' : ` (${struck})`}`;
  }
  const verdict = events.filter((event) => event.type === 'verify-end').find((event) => event.type === 'verify-end' && event.outcome !== 'pass');
  const part = model?.expectation?.tree === undefined ? undefined : firstCulprit(model.expectation.tree);
  const unit = model?.unitChecks.find((check) => check.outcome !== 'pass');
  // An inconclusive verdict with no failing part says nothing new (open-loop never verifies).
  if (verdict?.type === 'verify-end' && (verdict.outcome === 'fail' || part !== undefined || unit !== undefined)) {
    const cause = part !== undefined ? `the expectation part ${part.text} ${part.outcome === 'fail' ? 'failed' : 'was inconclusive'}: ${part.reason}` : unit !== undefined ? `the contract of ${unit.unit} ${unit.outcome === 'fail' ? 'failed' : 'was inconclusive'}: ${unit.reason}` : verdict.reason ?? verdict.outcome;
    return `${cause}${faultWords === undefined ? '' : ` (${faultWords})`}`;
  }
  const refused = events.find((event) => event.type === 'guard-end' && event.action !== 'left');
  if (refused?.type === 'guard-end') return `the foreground guard refused ${refused.packageName}${refused.detail === undefined ? '' : `: ${refused.detail}`}`;
  // A model fault is why the step did what it did; a device fault on a step that went as planned is shown (FAULT) but is no why.
  return injectedFaults(events.filter((event) => event.type === 'model-fault-injected'));
}

/**
 * The injected device fault (in this step or before) that struck the element a target names:
 * its detail quotes a text the unresolved target's detail quotes too (an `icon-only` fault
 * took the label "5 minutes" that `text="5 minutes"` looks for). Undefined when none did.
 */
function faultOnTarget(faults: readonly TraceEvent[], target: string): string | undefined {
  for (const event of [...faults].reverse()) {
    if (event.type !== 'device-fault') continue;
    const quoted = [...event.detail.matchAll(/"([^"]+)"/g)].map((match) => match[1] ?? '');
    if (quoted.some((text) => text !== '' && target.includes(`"${text}"`))) return `an injected device fault in step ${event.step ?? '?'} struck that element: ${event.kind} — ${event.detail}`;
  }
  return undefined;
}

/** The faults injected into the step, in words (`an injected device fault (dropped-tap: tap (540,675) dropped)`), or undefined. */
function injectedFaults(events: readonly TraceEvent[]): string | undefined {
  const words = events.flatMap((event) => {
    if (event.type === 'model-fault-injected') return [`an injected model fault (${event.kind}: ${event.detail})`];
    if (event.type === 'device-fault') return [`an injected device fault (${event.kind}: ${event.detail})`];
    return [];
  });
  return words.length === 0 ? undefined : words.join(' and ');
}

function firstCulprit(node: ExpectationNode): ExpectationNode | undefined {
  if (node.outcome === 'pass') return undefined;
  if (node.kind === 'atom') return node.culprit ? node : undefined;
  for (const part of node.parts) {
    const found = firstCulprit(part);
    if (found !== undefined) return found;
  }
  return undefined;
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
      return `verify: ${event.outcome.toUpperCase()}${event.reason === undefined ? '' : ` — ${event.reason}`}${event.label === undefined ? '' : ` [delta ${event.label}]`}${event.by === undefined || event.by === 'none' ? '' : ` by ${event.by}`}${event.strength === undefined ? '' : ` (${event.strength} evidence${event.tie === undefined ? '' : `: ${event.tie}`})`}`;
    case 'model-fault-injected':
      return `MODEL FAULT injected: ${event.kind} in the ${event.role}'s reply — ${event.detail}`;
    case 'device-fault':
      return `DEVICE FAULT injected: ${event.kind} — ${event.detail}`;
    case 'guard-end':
      return `guard: ${event.action === 'left' ? 'LEFT' : 'REFUSED on'} ${event.packageName}${event.detail === undefined ? '' : ` — ${event.detail}`}`;
    case 'gate-end':
      return `vlm gate: ${event.opened ? 'OPEN' : 'closed'}${event.reason === undefined ? '' : ` — ${event.reason}`}${event.detail === undefined ? '' : `: ${event.detail}`}`;
    case 'vlm-call-end':
    case 'model-call-end':
      return `${event.type === 'vlm-call-end' ? 'vlm' : 'model'} ${event.role} (${event.model}): ${event.promptTokens}+${event.completionTokens} tokens, ${event.images} images, ${Math.round(event.latencyMs)} ms${event.error === undefined ? '' : `, error: ${event.error}`}${event.artifact === undefined ? '' : ` → ${event.artifact}`}`;
    case 'reply-repaired':
      return `the ${event.role}'s reply, read after: ${event.repairs.join(', ')}`;
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
