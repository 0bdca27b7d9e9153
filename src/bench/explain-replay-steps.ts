import { describeChanges } from '../report/describe-changes.js';
import type { ReplayAction, ReplaySource, ReplayStep } from '../tasks/replay/replay-task.js';
import { formatBounds } from '../ui/bounds.js';
import { computeDelta } from '../verify/compute-delta.js';
import { isTieKind, tieMeanings } from '../verify/tie-kinds.js';
import type { VerifyOutcome } from '../verify/verify-outcome.js';
import { globToRegex } from './select-tasks.js';
import type { StepReplay, VerifyReplayReport } from './verify-replay.js';

/** Changes listed per step before "… and N more": enough to see what the verifier saw, short enough to read. */
const shownChanges = 12;

/** The steps `explainReplaySteps` matched, and the patterns that matched none. */
export interface StepExplanations {
  readonly text: string;
  readonly matched: number;
  readonly unmatched: readonly string[];
}

/**
 * The steps of a replay whose ids match one of `patterns` (globs over the whole id: `*` any
 * part, `?` one character), each as a block a person can follow: the recorded action, the
 * unit it was mapped to (or why it was not replayed), what changed between its screens, and
 * each verdict with its kind of evidence — what really happened, the no-op control and the
 * wrong-effect control with the step whose after screen it borrowed. A step the loader
 * skipped is named with why. Pure: `report` is the replay of `source`.
 */
export function explainReplaySteps(source: ReplaySource, report: VerifyReplayReport, patterns: readonly string[]): StepExplanations {
  const matchers = patterns.map((pattern) => ({ pattern, regex: globToRegex(pattern), hits: 0 }));
  const matches = (id: string): boolean => {
    let hit = false;
    for (const matcher of matchers) {
      if (!matcher.regex.test(id)) continue;
      matcher.hits += 1;
      hit = true;
    }
    return hit;
  };
  const steps = new Map<string, ReplayStep>();
  for (const task of source.tasks) for (const step of task.steps) steps.set(step.id, step);
  const blocks: string[] = [];
  for (const replayed of report.perStep) {
    if (matches(replayed.id)) blocks.push(explainStep(replayed, steps));
  }
  for (const skipped of source.skipped) {
    if (matches(skipped.id)) blocks.push(`step ${skipped.id}\n  skipped while loading: ${skipped.reason}\n`);
  }
  return { text: blocks.join('\n'), matched: blocks.length, unmatched: matchers.filter((matcher) => matcher.hits === 0).map((matcher) => matcher.pattern) };
}

function explainStep(replayed: StepReplay, steps: ReadonlyMap<string, ReplayStep>): string {
  const step = steps.get(replayed.id);
  const lines = [`step ${replayed.id}`, `  app ${replayed.app}, task ${replayed.task}${replayed.visit ? `, ${replayed.visit === 'repeat' ? 'a repeat (this control was verified on a page like this before)' : 'a first visit'}` : ''}`];
  if (step) lines.push(`  action: ${describeAction(step.action)}${step.noVisibleEffect ? ' (recorded as changing nothing)' : ''}`);
  if (replayed.unitType) lines.push(`  unit: ${replayed.unitType} "${replayed.unitLabel ?? ''}"`);
  if (replayed.category !== 'replayed') lines.push(`  ${replayed.category}${replayed.note ? `: ${replayed.note}` : ''}`);
  if (step && replayed.category === 'replayed') lines.push(...describeSeen(step));
  if (replayed.trail) lines.push(`  trail: ${describeTrail(replayed.trail)}`);
  if (replayed.verdict) lines.push(`  verdict: ${describeVerdict(replayed.verdict)}`);
  if (replayed.noOp) lines.push(`  no-op control (after = before): ${describeVerdict(replayed.noOp)}`);
  if (replayed.wrongEffect) {
    const donor = steps.get(replayed.wrongEffect.donor);
    const what = donor ? ` (${describeAction(donor.action)})` : '';
    lines.push(`  wrong-effect control (the after screen of ${replayed.wrongEffect.donor}${what}): ${describeVerdict(replayed.wrongEffect.verdict)}`);
  }
  return `${lines.join('\n')}\n`;
}

/** The change between the step's screens, as the verifier computes it, in readable lines. */
function describeSeen(step: ReplayStep): string[] {
  const delta = computeDelta(step.before, step.after);
  const changes = describeChanges(delta.changes, step.before, step.after);
  const screens = `${step.beforeFile} → ${step.afterFile}`;
  if (changes.length === 0) return [`  seen: ${delta.label}, no node changed (${screens})`];
  const more = changes.length > shownChanges ? [`    … and ${changes.length - shownChanges} more`] : [];
  return [`  seen: ${delta.label}, ${changes.length} change(s) (${screens})`, ...changes.slice(0, shownChanges).map((line) => `    ${line.text}`), ...more];
}

/** Where the run came from, and where a dialog dumped alone was opened from: the pages Back, Cancel and a dialog's commit are judged against. */
function describeTrail(trail: NonNullable<StepReplay['trail']>): string {
  const parts = [trail.cameFrom === undefined ? 'no page under this one' : `came from ${trail.cameFrom}`];
  if (trail.openedFrom !== undefined) parts.push(`the dialog was opened from ${trail.openedFrom}`);
  return parts.join('; ');
}

function describeVerdict(verdict: VerifyOutcome): string {
  const strength = verdict.outcome === 'pass' && verdict.strength ? `, ${verdict.strength}` : '';
  const tie = verdict.tie === undefined ? '' : isTieKind(verdict.tie) ? ` — ${verdict.tie} (${tieMeanings[verdict.tie]})` : ` — ${verdict.tie}`;
  const code = verdict.code === undefined ? '' : ` [${verdict.code}]`;
  return `${verdict.outcome}${strength}${tie}${code}\n    ${verdict.reason}`;
}

function describeAction(action: ReplayAction): string {
  if (action.kind === 'key') return `key ${action.key}`;
  const element = action.element;
  const on = element ? ` on ${element.className.slice(element.className.lastIndexOf('.') + 1) || 'element'}${elementName(element)} ${formatBounds(element.bounds)}` : ' (no element)';
  if (action.kind === 'set-text') return `type "${action.text}"${on}`;
  if (action.kind === 'scroll') return `scroll${action.direction ? ` ${action.direction}` : ''}${on}`;
  return `${action.kind}${on}`;
}

function elementName(element: { readonly text: string; readonly contentDesc: string; readonly resourceId: string }): string {
  const name = element.text || element.contentDesc;
  if (name !== '') return ` "${name.length > 60 ? `${name.slice(0, 59)}…` : name}"`;
  return element.resourceId === '' ? '' : ` #${element.resourceId.slice(element.resourceId.indexOf('/') + 1)}`;
}
