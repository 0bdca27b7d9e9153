import { describeChanges } from '../report/describe-changes.js';
import type { ReplayAction, ReplaySource, ReplayStep } from '../tasks/replay/replay-task.js';
import { formatBounds } from '../ui/bounds.js';
import type { UiTree } from '../ui/ui-tree.js';
import { computeDelta } from '../verify/compute-delta.js';
import { isTieKind, tieMeanings } from '../verify/tie-kinds.js';
import type { VerifyOutcome } from '../verify/verify-outcome.js';
import { alreadySelectedCode } from '../verify/verify-unit-step.js';
import { globToRegex } from './select-tasks.js';
import type { StepReplay, VerifyReplayReport } from './verify-replay.js';

/** Changes listed per step before "… and N more": enough to see what the verifier saw, short enough to read. */
const shownChanges = 12;
/** Changes listed against a page of the trail: how alike the screen after is to it. */
const shownTrailChanges = 6;

/** Which steps to explain: ids by glob, the false passes, or both (a step is explained when either selects it). */
export interface StepSelection {
  /** Globs over the whole id: `*` any part, `?` one character. */
  readonly ids?: readonly string[];
  /** Every step a negative control passed on (`falsePassOf`). */
  readonly falsePasses?: boolean;
}

/** One explained step: its replay, its recorded step and screens, and the text block that explains it. */
export interface ExplainedStep {
  /** The step's id (a skipped record's, when the loader left it out). */
  readonly id: string;
  readonly replayed?: StepReplay;
  /** The recorded step (absent for one the loader skipped). */
  readonly step?: ReplayStep;
  /** The step whose after screen the wrong-effect control borrowed. */
  readonly donor?: ReplayStep;
  /** The trail's pages it was judged against, read from files of the source. */
  readonly trailScreens: readonly { readonly file: string; readonly tree: UiTree }[];
  readonly falsePass?: FalsePass;
  readonly text: string;
}

/** The steps `explainReplaySteps` explained, how many were false passes of each kind, and the id patterns that matched none. */
export interface StepExplanations {
  readonly text: string;
  readonly steps: readonly ExplainedStep[];
  readonly matched: number;
  readonly falsePasses: Readonly<Record<FalsePass, number>>;
  readonly unmatched: readonly string[];
}

/**
 * How a step's verdicts passed what did not happen, as the report counts false passes: the
 * wrong-effect control passed strong (`wrong-effect`), the no-op control passed
 * (`no-op`), or a step recorded as changing nothing passed (`no-effect`); a tap on what was
 * already chosen, settled, is none of these. Undefined for a step with no false pass.
 */
export type FalsePass = 'wrong-effect' | 'no-op' | 'no-effect';

/** The kind of false pass a step's verdicts gave (the wrong effect checked last: a step counts once), or undefined. */
export function falsePassOf(step: StepReplay): FalsePass | undefined {
  const passed = (verdict: VerifyOutcome | undefined): boolean => verdict?.outcome === 'pass' && verdict.code !== alreadySelectedCode;
  if (step.category !== 'replayed') return undefined;
  if (step.noVisibleEffect) return passed(step.verdict) ? 'no-effect' : undefined;
  if (passed(step.noOp)) return 'no-op';
  const wrong = step.wrongEffect?.verdict;
  return wrong?.outcome === 'pass' && wrong.strength === 'strong' ? 'wrong-effect' : undefined;
}

/**
 * The selected steps of a replay, each as a block a person can follow: the recorded action,
 * the unit it was mapped to (or why it was not replayed), what changed between its screens,
 * the trail pages it was judged with, and each verdict with its kind of evidence — what
 * really happened, the no-op control and the wrong-effect control with the step whose after
 * screen it borrowed. A step the loader skipped is named with why (by id only). Pure:
 * `report` is the replay of `source`.
 */
export function explainReplaySteps(source: ReplaySource, report: VerifyReplayReport, selection: StepSelection): StepExplanations {
  const matchers = (selection.ids ?? []).map((pattern) => ({ pattern, regex: globToRegex(pattern), hits: 0 }));
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
  const screens = new Map<string, UiTree>();
  for (const task of source.tasks) {
    for (const step of task.steps) {
      steps.set(step.id, step);
      screens.set(step.beforeFile, step.before);
      screens.set(step.afterFile, step.after);
    }
  }
  const explained: ExplainedStep[] = [];
  const falsePasses: Record<FalsePass, number> = { 'wrong-effect': 0, 'no-op': 0, 'no-effect': 0 };
  for (const replayed of report.perStep) {
    const falsePass = selection.falsePasses === true ? falsePassOf(replayed) : undefined;
    if (falsePass !== undefined) falsePasses[falsePass] += 1;
    if (!matches(replayed.id) && falsePass === undefined) continue;
    const step = steps.get(replayed.id);
    const donor = replayed.wrongEffect === undefined ? undefined : steps.get(replayed.wrongEffect.donor);
    const trailScreens = trailPages(replayed.trail).flatMap((file) => {
      const tree = screens.get(file);
      return tree === undefined ? [] : [{ file, tree }];
    });
    const base = { id: replayed.id, replayed, ...(step ? { step } : {}), ...(donor ? { donor } : {}), trailScreens, ...(falsePass ? { falsePass } : {}) };
    explained.push({ ...base, text: explainStep(base) });
  }
  for (const skipped of source.skipped) {
    if (matches(skipped.id)) explained.push({ id: skipped.id, trailScreens: [], text: `step ${skipped.id}\n  skipped while loading: ${skipped.reason}\n` });
  }
  return {
    text: explained.map((item) => item.text).join('\n'),
    steps: explained,
    matched: explained.length,
    falsePasses,
    unmatched: matchers.filter((matcher) => matcher.hits === 0).map((matcher) => matcher.pattern),
  };
}

/** What a false pass passed, as the block's first line says it. */
const falsePassWords: Readonly<Record<FalsePass, string>> = {
  'wrong-effect': 'false pass: the wrong-effect control passed strong',
  'no-op': 'false pass: the no-op control passed',
  'no-effect': 'false pass: recorded as changing nothing, it passed',
};

function explainStep(item: Omit<ExplainedStep, 'text'> & { readonly replayed: StepReplay }): string {
  const { replayed, step, donor, falsePass } = item;
  const lines = [`step ${replayed.id}${falsePass === undefined ? '' : ` (${falsePassWords[falsePass]})`}`, `  app ${replayed.app}, task ${replayed.task}${replayed.visit ? `, ${replayed.visit === 'repeat' ? 'a repeat (this control was verified on a page like this before)' : 'a first visit'}` : ''}`];
  if (step) lines.push(`  action: ${describeAction(step.action)}${step.noVisibleEffect ? ' (recorded as changing nothing)' : ''}`);
  if (replayed.unitType) lines.push(`  unit: ${replayed.unitType} "${replayed.unitLabel ?? ''}"`);
  if (replayed.category !== 'replayed') lines.push(`  ${replayed.category}${replayed.note ? `: ${replayed.note}` : ''}`);
  if (step && replayed.category === 'replayed') lines.push(...describeDelta('seen', step.before, step.after, `${step.beforeFile} → ${step.afterFile}`, shownChanges));
  if (step && replayed.trail) lines.push(...describeTrail(replayed.trail, step, item.trailScreens));
  if (replayed.verdict) lines.push(`  verdict: ${describeVerdict(replayed.verdict)}`);
  if (replayed.noOp) lines.push(`  no-op control (after = before): ${describeVerdict(replayed.noOp)}`);
  if (replayed.wrongEffect) {
    const what = donor ? ` (${describeAction(donor.action)})` : '';
    lines.push(`  wrong-effect control (the after screen of ${replayed.wrongEffect.donor}${what}): ${describeVerdict(replayed.wrongEffect.verdict)}`);
    // A strong false pass: how the borrowed screen differs from the pages it was judged against.
    const wrong = replayed.wrongEffect.verdict;
    if (donor && step && wrong.outcome === 'pass' && wrong.strength === 'strong') {
      lines.push(...describeDelta('its screen, against the screen before', step.before, donor.after, `${step.beforeFile} → ${donor.afterFile}`, shownTrailChanges, '    '));
      for (const page of item.trailScreens) lines.push(...describeDelta(`its screen, against ${page.file}`, page.tree, donor.after, `${page.file} → ${donor.afterFile}`, shownTrailChanges, '    '));
    }
  }
  return `${lines.join('\n')}\n`;
}

/** A delta as the verifier computes it, in readable lines: a heading at `indent`, then at most `shown` changes under it. */
function describeDelta(heading: string, from: UiTree, to: UiTree, where: string, shown: number, indent = '  '): string[] {
  const delta = computeDelta(from, to);
  const changes = describeChanges(delta.changes, from, to);
  if (changes.length === 0) return [`${indent}${heading}: ${delta.label}, no node changed (${where})`];
  const more = changes.length > shown ? [`${indent}  … and ${changes.length - shown} more`] : [];
  return [`${indent}${heading}: ${delta.label}, ${changes.length} change(s) (${where})`, ...changes.slice(0, shown).map((line) => `${indent}  ${line.text}`), ...more];
}

/**
 * Where the run came from, and where a dialog dumped alone was opened from (the pages Back,
 * Cancel and a dialog's commit are judged against), each with how the screen after differs
 * from it when the page was read from a file of the source.
 */
function describeTrail(trail: NonNullable<StepReplay['trail']>, step: ReplayStep, pages: ExplainedStep['trailScreens']): string[] {
  const parts = [trail.cameFrom === undefined ? 'no page under this one' : `came from ${trail.cameFrom}`];
  if (trail.openedFrom !== undefined) parts.push(`the dialog was opened from ${trail.openedFrom}`);
  const lines = [`  trail: ${parts.join('; ')}`];
  for (const page of pages) lines.push(...describeDelta(`after, against ${page.file}`, page.tree, step.after, `${page.file} → ${step.afterFile}`, shownTrailChanges));
  return lines;
}

/** The files of the trail's pages, each once. */
function trailPages(trail: StepReplay['trail']): string[] {
  return [...new Set([trail?.cameFrom, trail?.openedFrom])].filter((file): file is string => file !== undefined);
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
