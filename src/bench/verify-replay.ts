import { defaultGateThreshold, VlmGate } from '../agent/loop/vlm-gate.js';
import { navBackId, navHomeId } from '../perception/build-units.js';
import type { ControlUnit, UnitId, UnitType } from '../perception/control-unit.js';
import { perceive, type Perception } from '../perception/perceive.js';
import type { PerceptionOptions } from '../perception/perception-options.js';
import { mapDroidTaskTarget } from '../tasks/droidtask/map-droidtask-target.js';
import type { ReplayElement, ReplaySource, ReplayStep, ReplayTask } from '../tasks/replay/replay-task.js';
import { boundsArea, boundsCentre, boundsContainsPoint } from '../ui/bounds.js';
import { isLauncherPackage } from '../ui/launcher.js';
import type { UiTree } from '../ui/ui-tree.js';
import { subtreeEnd } from '../verify/find-nodes.js';
import type { ContractArgs } from '../verify/unit-contract.js';
import type { Outcome, VerifyOutcome } from '../verify/verify-outcome.js';
import { pagePrints, samePageSimilarity, similarity, TransitionMemory } from '../verify/transition-memory.js';
import { PageTrail, type TrailPlace } from '../verify/page-trail.js';
import { alreadyInWantedState, alreadySelectedCode, verifyUnitStep, type UnitStepInput } from '../verify/verify-unit-step.js';
import { figuresByApp, figuresByTie, figuresByVisit, type AppFigures, type TieFigures, type Visit } from './replay-breakdown.js';

/**
 * What happened to one recorded step in the replay:
 * - `replayed`: mapped to a unit and verified;
 * - `settled`: the unit already showed the wanted state, so the loop would not act;
 * - `unmapped`: the element is no unit of ours (the loop could reach it only through vision);
 * - `not-replayed`: keys other than Back and Home, swipes without an element or a
 *   direction, and typed text without an element are left out.
 */
export type StepCategory = 'replayed' | 'settled' | 'unmapped' | 'not-replayed';

/** One recorded step and the verifier's verdicts on it. */
export interface StepReplay {
  readonly id: string;
  readonly task: string;
  readonly app: string;
  readonly actionKind: ReplayStep['action']['kind'];
  readonly category: StepCategory;
  /** Why a step was not replayed or not mapped; the settled reason. */
  readonly note?: string;
  readonly unitType?: UnitType;
  readonly unitLabel?: string;
  readonly noVisibleEffect: boolean;
  /** The verdict on what really happened. */
  readonly verdict?: VerifyOutcome;
  /** Negative control: the same step with the after screen replaced by the before screen. */
  readonly noOp?: VerifyOutcome;
  /** Negative control: the after screen of another step of the same app, from the most similar before screen. */
  readonly wrongEffect?: { readonly verdict: VerifyOutcome; readonly donor: string };
  /** For a replayed step: `repeat` when its control was acted on, and verified, on a page like this one earlier in the replay. */
  readonly visit?: Visit;
  /**
   * For a replayed step, the pages of the run's trail its verdicts compared with, by the
   * file they were read from: the page the run came from (where Back leads) and, for a
   * dialog dumped alone, the page it was opened from. `launched from` names the screen the
   * recorder started the app from when no file holds it.
   */
  readonly trail?: { readonly cameFrom?: string; readonly openedFrom?: string };
}

/**
 * Pass / fail / inconclusive counts, with the strong and weak passes among the passes,
 * and `settled`: passes on a tap at what was already chosen (`already-selected`), which
 * the loop settles as done — not a false pass where nothing was meant to change.
 */
export interface OutcomeCounts {
  total: number;
  pass: number;
  fail: number;
  inconclusive: number;
  strong: number;
  weak: number;
  settled: number;
}

/** A frequent reason among the verdicts of one unit type and outcome, with one example step. */
export interface ReasonCount {
  readonly unitType: string;
  readonly outcome: Outcome;
  readonly reason: string;
  readonly count: number;
  readonly example: string;
  readonly exampleReason: string;
}

/** One group of verdicts: overall, per unit type, and the top reasons of each non-pass (and pass) group. */
export interface VerdictTable {
  readonly all: OutcomeCounts;
  readonly byType: Record<string, OutcomeCounts>;
  readonly reasons: readonly ReasonCount[];
}

/** Vision calls a replay implies, next to a screenshot on every step. */
export interface ImpliedVision {
  /** Steps that act on an element (replayed, settled or unmapped): one screenshot each for a vision-every-step agent. */
  readonly screenshotPerStep: number;
  /** Unmapped elements: the target can be found only by vision (counted in every column below). */
  readonly unresolved: number;
  /** Vision on every non-pass verdict. */
  readonly everyNonPass: number;
  /** Vision on every fail. */
  readonly everyFail: number;
  /** The loop's gate (τ consecutive fails on the same target, fed the recorded steps in order). */
  readonly gate: number;
  /** Of `gate`: openings at once for a pixel-only unit that showed no change. */
  readonly gatePixelOnly: number;
  readonly threshold: number;
}

/**
 * One recorded task in the replay. It is verified only when every action it recorded was
 * replayed and passed (or settled: already in the wanted state, so the loop would not
 * act); a step left out (a key, a swipe, an element that maps to no unit, a step the
 * loader could not pair with its screens) leaves the task unverified.
 */
export interface TaskReplay {
  readonly id: string;
  readonly app: string;
  /** Actions the recording holds for the task. */
  readonly steps: number;
  /** Replayed and passed. */
  readonly passed: number;
  readonly settled: number;
  /** Replayed and failed or inconclusive. */
  readonly notPassed: number;
  /** Not replayed: keys, swipes, unmapped elements, steps skipped while loading. */
  readonly leftOut: number;
  readonly verified: boolean;
}

/** The whole replay report (what `senseact verify-replay --json` prints). */
export interface VerifyReplayReport {
  readonly source: string;
  readonly format: ReplaySource['format'];
  readonly steps: number;
  readonly categories: Record<StepCategory, number>;
  /** Reasons steps were not replayed or not mapped, with counts. */
  readonly leftOut: Record<string, number>;
  /** Settled steps (the loop would not act), split by whether the recording shows an effect. */
  readonly settled: { readonly visibleEffect: number; readonly noVisibleEffect: number };
  /** Replayed steps whose recording shows an effect: what really happened. */
  readonly visibleEffect: VerdictTable;
  /** Replayed steps the recording marks as changing nothing: a pass here is a false pass. */
  readonly noVisibleEffect: VerdictTable;
  /** Negative control: visible-effect steps with after = before. */
  readonly noOp: VerdictTable;
  /** Negative control: visible-effect steps with another step's after screen. */
  readonly wrongEffect: VerdictTable;
  /** Tasks verified (every step replayed and passed), with steps left out, and each task's counts. */
  readonly tasks: { readonly total: number; readonly verified: number; readonly withLeftOutSteps: number; readonly leftOutSteps: number; readonly perTask: readonly TaskReplay[] };
  readonly vision: ImpliedVision;
  /** Per app package: steps, passes and strong passes on what really happened, strong wrong-effect false passes. */
  readonly byApp: Record<string, AppFigures>;
  /** Per kind of evidence (`tie|strength`): real passes and false passes on the negative controls. */
  readonly byTie: Record<string, TieFigures>;
  /** The per-app figures by visit: first visits and repeats (the memory ties only repeats). */
  readonly byVisit: Partial<Record<Visit, AppFigures>>;
  readonly perStep: readonly StepReplay[];
  readonly skipped: ReplaySource['skipped'];
  readonly unreadable: ReplaySource['unreadable'];
  readonly screens: ReplaySource['screens'];
  /**
   * Steps whose before and after screens both carry the device's activity stack (DroidBot
   * records it; a uiautomator dump does not): only these can be tied by `activity-finished`
   * and `editor-finished`.
   */
  readonly stepsWithActivityStack: number;
}

/** Options of `replayVerification`. */
export interface ReplayOptions {
  readonly perception?: PerceptionOptions;
  /** Gate threshold τ for the implied vision calls (default the loop's). */
  readonly gateThreshold?: number;
  /**
   * Remember verified transitions in recorded order, as the loop does within a run, so a
   * weak pass a step before it records is strong (`known-transition`); default true.
   */
  readonly memory?: boolean;
  /** Called after each task with the steps replayed so far and the source's steps in all (progress for a long corpus). */
  readonly onProgress?: (done: number, total: number) => void;
}

function emptyCounts(): OutcomeCounts {
  return { total: 0, pass: 0, fail: 0, inconclusive: 0, strong: 0, weak: 0, settled: 0 };
}

function add(counts: OutcomeCounts, verdict: VerifyOutcome): void {
  counts.total += 1;
  counts[verdict.outcome] += 1;
  if (verdict.outcome === 'pass' && verdict.strength === 'strong') counts.strong += 1;
  if (verdict.outcome === 'pass' && verdict.strength === 'weak') counts.weak += 1;
  if (verdict.outcome === 'pass' && verdict.code === alreadySelectedCode) counts.settled += 1;
}

/** A reason with its particulars (quoted labels, numbers, node positions) blanked, so equal causes group. */
export function reasonPattern(verdict: VerifyOutcome): string {
  const text = verdict.reason
    .replace(/"(?:[^"\\]|\\.)*"/g, '"…"')
    .replace(/#\d+/g, '#N')
    .replace(/\[-?\d+,-?\d+\]\[-?\d+,-?\d+\]/g, '[…]')
    .replace(/\d+(\.\d+)?/g, 'N');
  return verdict.code ? `${verdict.code}: ${text}` : text;
}

function table(items: readonly { step: StepReplay; verdict: VerifyOutcome }[], topPerGroup = 3): VerdictTable {
  const all = emptyCounts();
  const byType: Record<string, OutcomeCounts> = {};
  const groups = new Map<string, { unitType: string; outcome: Outcome; reason: string; count: number; example: string; exampleReason: string }>();
  for (const { step, verdict } of items) {
    const type = step.unitType ?? '?';
    add(all, verdict);
    add((byType[type] ??= emptyCounts()), verdict);
    const reason = reasonPattern(verdict);
    const key = `${type}|${verdict.outcome}|${reason}`;
    const group = groups.get(key);
    if (group) group.count += 1;
    else groups.set(key, { unitType: type, outcome: verdict.outcome, reason, count: 1, example: step.id, exampleReason: verdict.reason });
  }
  const reasons: ReasonCount[] = [];
  const byGroup = new Map<string, ReasonCount[]>();
  for (const group of groups.values()) {
    const key = `${group.unitType}|${group.outcome}`;
    (byGroup.get(key) ?? byGroup.set(key, []).get(key)!).push(group);
  }
  for (const list of byGroup.values()) reasons.push(...list.sort((left, right) => right.count - left.count).slice(0, topPerGroup));
  reasons.sort((left, right) => left.unitType.localeCompare(right.unitType) || left.outcome.localeCompare(right.outcome) || right.count - left.count);
  return { all, byType, reasons };
}

function replayedElement(step: ReplayStep): ReplayElement | undefined {
  return step.action.kind === 'key' ? undefined : step.action.element;
}

/** The loop's pseudo unit a recorded key press is (Back, Home); other keys (Enter) are none. */
function keyUnitId(step: ReplayStep): UnitId | undefined {
  if (step.action.kind !== 'key') return undefined;
  const key = step.action.key.toUpperCase();
  return key === 'BACK' ? navBackId : key === 'HOME' ? navHomeId : undefined;
}

/** The pseudo unit `id` of the perceived screen (every perception has them). */
function pseudoUnit(perception: Perception, id: UnitId): { unit?: ControlUnit; note: string } {
  const unit = perception.units.find((item) => item.id === id);
  return unit ? { unit, note: `the key press is the ${unit.label} unit` } : { note: `no ${id} unit` };
}

/** The unit the recorded element stands for; a typed text goes to a field (the element itself, else the focused field). */
function chooseUnit(perception: Perception, step: ReplayStep, element: ReplayElement): { unit?: ControlUnit; note: string } {
  const match = mapDroidTaskTarget(perception, {
    bounds: [[element.bounds[0], element.bounds[1]], [element.bounds[2], element.bounds[3]]],
    class: element.className,
    resource_id: element.resourceId,
    text: element.text,
    content_description: element.contentDesc,
  });
  const units = match.unitIds.map((id) => perception.units.find((unit) => unit.id === id)).filter((unit): unit is ControlUnit => unit !== undefined);
  if (step.action.kind === 'set-text') {
    const field = units.find((unit) => unit.type === 'fill')
      ?? perception.units.find((unit) => unit.type === 'fill' && unit.state.focused === true);
    return field ? { unit: field, note: match.reason } : { note: `typed text into ${units.length > 0 ? `a ${units[0]!.type} unit` : 'an element'} that is no field, and no field has focus (${match.reason})` };
  }
  if (step.action.kind === 'scroll' && step.action.direction !== undefined) {
    const orientation = step.action.direction === 'up' || step.action.direction === 'down' ? 'vertical' : 'horizontal';
    const container = scrollHolding(perception, element, orientation);
    // Across a list's axis a swipe moves something else (a pager not marked scrollable, a drawer from the edge).
    return container ? { unit: container, note: `${match.reason}; the ${orientation} scroll container under it` } : { note: `no ${orientation} scroll container holds the swiped element (${match.reason})` };
  }
  const unit = units[0];
  if (!unit) return { note: match.reason };
  // A tap on a list or pager (a card that is not clickable itself maps to its container) is a tap: its
  // effect is what the card opens, not a scroll of the container.
  if (unit.type === 'scroll' && (step.action.kind === 'tap' || step.action.kind === 'long-press')) return { unit: tappedInContainer(unit, perception.tree, element), note: `${match.reason}; a tap on a scroll container, verified as a tap` };
  return { unit, note: match.reason };
}

/** The smallest scroll unit of that orientation whose bounds hold the element's centre: the container a swipe on the element moves. */
function scrollHolding(perception: Perception, element: ReplayElement, orientation: 'vertical' | 'horizontal'): ControlUnit | undefined {
  const [x, y] = boundsCentre(element.bounds);
  let best: ControlUnit | undefined;
  for (const unit of perception.units) {
    if (unit.type !== 'scroll' || unit.orientation !== orientation || !boundsContainsPoint(unit.bounds, [x, y])) continue;
    if (!best || boundsArea(unit.bounds) < boundsArea(best.bounds)) best = unit;
  }
  return best;
}

/**
 * A tap inside a scroll container, as a click on what was tapped: the smallest node of
 * the container holding the tapped element's centre (its own texts, not the whole list's).
 */
function tappedInContainer(container: ControlUnit, tree: UiTree, element: ReplayElement): ControlUnit {
  const x = (element.bounds[0] + element.bounds[2]) / 2;
  const y = (element.bounds[1] + element.bounds[3]) / 2;
  const area = (node: UiTree['nodes'][number]): number => (node.bounds[2] - node.bounds[0]) * (node.bounds[3] - node.bounds[1]);
  let best: UiTree['nodes'][number] | undefined;
  for (const member of container.members) {
    const end = subtreeEnd(tree, member.node);
    for (let index = member.node; index < end; index++) {
      const node = tree.nodes[index];
      if (!node || area(node) <= 0 || x < node.bounds[0] || x >= node.bounds[2] || y < node.bounds[1] || y >= node.bounds[3]) continue;
      if (!best || area(node) <= area(best)) best = node;
    }
  }
  const first = container.members[0];
  if (!best || !first) return { ...container, type: 'click' };
  const member = { ...first, node: best.index, bounds: best.bounds, className: best.className, resourceId: best.resourceId, text: best.text, contentDesc: best.contentDesc };
  let label = best.text || best.contentDesc;
  for (let index = best.index + 1; label === '' && index < subtreeEnd(tree, best.index); index++) label = tree.nodes[index]?.text || tree.nodes[index]?.contentDesc || '';
  return { ...container, type: 'click', label: label || container.label, members: [member], bounds: best.bounds };
}

function argsOf(step: ReplayStep, unit: ControlUnit): ContractArgs {
  // Demonstrations record what was done, not what was wanted: a fill wants the typed
  // text, a toggle wants a flip, a select wants the tapped option — as a planner would
  // commit them. Text typed at the cursor (recorders using `adb shell input text`) lands
  // after what the field held.
  if (step.action.kind === 'scroll') return step.action.direction === undefined ? {} : { direction: step.action.direction };
  if (step.action.kind !== 'set-text') return {};
  // Typing nothing is a tap on the field (DroidBot taps the view, then types the empty text);
  // followed by Enter / Search it is a key press, left out before this (see replayVerification).
  if (step.action.text === '') return {};
  const prior = unit.state.value ?? '';
  return {
    value: step.action.text,
    ...(step.action.append && prior !== '' ? { priorText: prior } : {}),
    ...(step.action.submitted ? { submitted: true } : {}),
  };
}

/**
 * The same control, or one that asks for the same thing: the same bounds and
 * resource-id; the same class, resource-id, text and description (another run of the
 * same step); or the same visible label ("Sign In" as a button and as a link).
 */
function sameElement(left: ReplayElement | undefined, right: ReplayElement | undefined): boolean {
  if (!left || !right) return false;
  if (left.bounds.every((value, index) => value === right.bounds[index]) && left.resourceId === right.resourceId) return true;
  const named = left.resourceId !== '' || left.text !== '' || left.contentDesc !== '';
  if (named && left.className === right.className && left.resourceId === right.resourceId && left.text === right.text && left.contentDesc === right.contentDesc) return true;
  const label = (element: ReplayElement): string => (element.text || element.contentDesc).trim().toLowerCase();
  return label(left) !== '' && label(left) === label(right);
}

/** The same action: the same control, or the same text typed into a field with the same resource-id. */
function sameAction(left: ReplayStep, right: ReplayStep): boolean {
  if (sameElement(replayedElement(left), replayedElement(right))) return true;
  if (left.action.kind !== 'set-text' || right.action.kind !== 'set-text') return false;
  const [a, b] = [replayedElement(left), replayedElement(right)];
  return a !== undefined && b !== undefined && a.resourceId !== '' && a.resourceId === b.resourceId && left.action.text.trim().toLowerCase() === right.action.text.trim().toLowerCase();
}

/** True when both steps left their app for the same other app. */
function openedSameApp(step: ReplayStep, other: ReplayStep): boolean {
  const opened = (one: ReplayStep): string | undefined =>
    one.after.packageName !== '' && one.before.packageName !== '' && one.after.packageName !== one.before.packageName ? one.after.packageName : undefined;
  const mine = opened(step);
  return mine !== undefined && mine === opened(other);
}

/** After screens this alike (Jaccard over node fingerprints) show the same effect: no wrong effect (the transition memory's same page). */
const sameEffectSimilarity = samePageSimilarity;

/** What donor selection needs besides the steps: fingerprint sets, each step's unit and whether one step follows another. */
interface DonorContext {
  readonly prints: (file: string, tree: UiTree) => Set<string>;
  readonly unitIdOf: (step: ReplayStep) => string | undefined;
  /** True when `other` comes after `step` in the same recorded run. */
  readonly isLater: (step: ReplayStep, other: ReplayStep) => boolean;
}

/**
 * The donor of a wrong effect: another replayable step of the same app whose before
 * screen is most like this step's (Jaccard over node fingerprints), that acted on
 * another control (not the same one in another run) and whose after screen is neither
 * this step's before nor alike to its after. `candidates` are the visible-effect steps
 * of the step's app, in recorded order (the first of equally similar ones wins).
 */
function findDonor(step: ReplayStep, candidates: readonly ReplayStep[], context: DonorContext): ReplayStep | undefined {
  const { prints } = context;
  const mine = prints(step.beforeFile, step.before);
  const myAfter = prints(step.afterFile, step.after);
  const myUnit = context.unitIdOf(step);
  let best: ReplayStep | undefined;
  let bestScore = -1;
  for (const other of candidates) {
    if (other === step) continue;
    if (other.afterFile === step.afterFile || other.afterFile === step.beforeFile) continue;
    // Later steps of the same run start from this step's effect (a typed query stays in the search bar of the
    // pages that follow): their after screens descend from this step's, so they are no wrong effect.
    if (other.beforeFile === step.afterFile || context.isLater(step, other)) continue;
    // Only a more similar before screen can win: the cheaper test first.
    const score = similarity(mine, prints(other.beforeFile, other.before));
    if (score <= bestScore) continue;
    if (sameAction(other, step)) continue;
    // The same unit (ids come from stable fingerprints) on a screen like this one: the same action, not a wrong one.
    if (myUnit !== undefined && context.unitIdOf(other) === myUnit) continue;
    if (similarity(myAfter, prints(other.afterFile, other.after)) >= sameEffectSimilarity) continue;
    // Both opened the same other app (a launcher icon, a share target): at the level of the tap, the same effect.
    if (openedSameApp(step, other)) continue;
    best = other;
    bestScore = score;
  }
  return best;
}

/**
 * Replays recorded transitions through the verifier the control loop uses
 * (`verifyUnitStep`), with no model and no device: each step's element is mapped to a
 * unit of the perceived before screen (a Back or Home key press to the loop's `nav-back` /
 * `nav-home`), given the arguments a planner would commit (the typed text of a fill), and
 * verified on the recorded after screen, with the run's `PageTrail` as the loop keeps it
 * (started from the home screen a skip or an intent came from). Beside what really
 * happened it runs two negative controls per visible-effect step (no-op: after = before;
 * wrong effect: another step's after screen), and counts the vision calls the verdicts
 * imply. Pure apart from CPU: the source is loaded by the caller.
 */
export function replayVerification(source: ReplaySource, options: ReplayOptions = {}): VerifyReplayReport {
  const caches = replayCaches(source, options);
  const tally: ReplayTally = {
    perStep: [],
    leftOut: {},
    categories: { replayed: 0, settled: 0, unmapped: 0, 'not-replayed': 0 },
    perTask: [],
    vision: { screenshotPerStep: 0, unresolved: 0, everyNonPass: 0, everyFail: 0, gate: 0, gatePixelOnly: 0 },
  };
  const total = source.tasks.reduce((sum, task) => sum + task.steps.length, 0);
  let done = 0;
  for (const task of source.tasks) {
    replayTask(task, caches, tally, options.gateThreshold);
    done += task.steps.length;
    options.onProgress?.(done, total);
  }
  return replayReport(source, tally, options.gateThreshold);
}

/** What the replay of a corpus counts as it goes: each step, the steps left out by reason, the categories, each task, the vision calls. */
interface ReplayTally {
  readonly perStep: StepReplay[];
  readonly leftOut: Record<string, number>;
  readonly categories: Record<StepCategory, number>;
  readonly perTask: TaskReplay[];
  readonly vision: { screenshotPerStep: number; unresolved: number; everyNonPass: number; everyFail: number; gate: number; gatePixelOnly: number };
}

/** The replay's memos: each screen perceived once, each step's unit chosen once, the donors of wrong effects by app. */
interface ReplayCaches {
  readonly perceptionOf: (file: string, tree: UiTree) => Perception;
  readonly chosenUnit: (step: ReplayStep) => { unit?: ControlUnit; note: string };
  readonly donorsByApp: ReadonlyMap<string, ReplayStep[]>;
  readonly donorContext: DonorContext;
  /** The transitions verified so far, in recorded order (absent with `memory: false`). */
  readonly memory?: TransitionMemory;
  /** The same record, kept also with `memory: false`: it tells a first visit from a repeat in the report, and judges nothing. */
  readonly visits: TransitionMemory;
  /** The file each screen of the source was read from. */
  readonly fileOf: WeakMap<UiTree, string>;
}

function replayCaches(source: ReplaySource, options: ReplayOptions): ReplayCaches {
  const perceptions = new Map<string, Perception>();
  const perceptionOf = (file: string, tree: UiTree): Perception => {
    let found = perceptions.get(file);
    if (!found) {
      found = perceive(tree, options.perception);
      perceptions.set(file, found);
    }
    return found;
  };
  const printCache = new Map<string, Set<string>>();
  const prints = (file: string, tree: UiTree): Set<string> => {
    let found = printCache.get(file);
    if (!found) {
      found = pagePrints(tree);
      printCache.set(file, found);
    }
    return found;
  };
  // Donors by app, in recorded order: a step looks only at its own app's steps (linear in the apps' sizes, not the corpus).
  const donorsByApp = new Map<string, ReplayStep[]>();
  for (const step of source.tasks.flatMap((task) => task.steps)) {
    if (replayedElement(step) === undefined || step.action.kind === 'scroll' || step.noVisibleEffect) continue;
    const list = donorsByApp.get(step.app);
    if (list) list.push(step);
    else donorsByApp.set(step.app, [step]);
  }
  const chosenUnits = new Map<ReplayStep, { unit?: ControlUnit; note: string }>();
  const chosenUnit = (step: ReplayStep): { unit?: ControlUnit; note: string } => {
    let found = chosenUnits.get(step);
    const element = replayedElement(step);
    if (!found) {
      const pressed = keyUnitId(step);
      found = element ? chooseUnit(perceptionOf(step.beforeFile, step.before), step, element)
        : pressed ? pseudoUnit(perceptionOf(step.beforeFile, step.before), pressed)
        : { note: 'no element' };
      chosenUnits.set(step, found);
    }
    return found;
  };
  const positions = new Map<ReplayStep, { readonly task: ReplayTask; readonly index: number }>();
  for (const task of source.tasks) task.steps.forEach((step, index) => positions.set(step, { task, index }));
  const isLater = (step: ReplayStep, other: ReplayStep): boolean => {
    const [mine, theirs] = [positions.get(step), positions.get(other)];
    return mine !== undefined && theirs !== undefined && mine.task === theirs.task && theirs.index > mine.index;
  };
  const visits = new TransitionMemory();
  const memory = options.memory === false ? {} : { memory: visits };
  const fileOf = new WeakMap<UiTree, string>();
  for (const step of positions.keys()) {
    fileOf.set(step.before, step.beforeFile);
    fileOf.set(step.after, step.afterFile);
  }
  return { perceptionOf, chosenUnit, donorsByApp, donorContext: { prints, unitIdOf: (step) => chosenUnit(step).unit?.id, isLater }, visits, fileOf, ...memory };
}

/** Replays one recorded task step by step (its own VLM gate) and counts whether it was verified whole. */
function replayTask(task: ReplayTask, caches: ReplayCaches, tally: ReplayTally, threshold: number | undefined): void {
  const gate = new VlmGate(threshold === undefined ? {} : { threshold });
  const counts = { passed: 0, settled: 0, notPassed: 0 };
  const pages = new PageTrail();
  let previous: ReplayStep | undefined;
  for (const step of task.steps) {
    // Where the recording skips, the pages before are not the ones under this screen; a skip
    // from the home screen or another app into this app, or an intent, started the app from
    // that screen.
    const skipped = previous !== undefined && !startsWhereEnded(step, previous, caches.donorContext.prints);
    if (skipped || step.launchedFrom) {
      pages.clear();
      const startedFrom = step.launchedFrom ?? (previous ? skippedFromElsewhere(previous, step) : undefined);
      if (startedFrom) pages.note(startedFrom);
    }
    previous = step;
    const counted = replayStep(step, task, { caches, tally, gate, place: pages.note(step.before) });
    if (keyUnitId(step) === navBackId && counted === 'passed') pages.back();
    if (counted !== undefined) counts[counted] += 1;
  }
  const recorded = task.recordedSteps ?? task.steps.length;
  const leftOutSteps = recorded - counts.passed - counts.settled - counts.notPassed;
  tally.perTask.push({ id: task.id, app: task.app, steps: recorded, ...counts, leftOut: leftOutSteps, verified: recorded > 0 && leftOutSteps === 0 && counts.notPassed === 0 });
}

/**
 * The screen `previous` ended on, when the recording skips from it (the home screen, or a
 * page of another app) into an app at `step`: the app was started from it.
 */
function skippedFromElsewhere(previous: ReplayStep, step: ReplayStep): UiTree | undefined {
  const [from, to] = [previous.after.packageName, step.before.packageName];
  return from !== '' && to !== '' && from !== to && !isLauncherPackage(to) ? previous.after : undefined;
}

/** True when `step` starts on the screen `previous` ended on (the same file, or a page as alike as the memory's same page). */
function startsWhereEnded(step: ReplayStep, previous: ReplayStep, prints: DonorContext['prints']): boolean {
  return previous.afterFile === step.beforeFile || similarity(prints(previous.afterFile, previous.after), prints(step.beforeFile, step.before)) >= samePageSimilarity;
}

/**
 * One step: left out (a key, a scroll, no element), unmapped (no unit), settled (its unit
 * already in the wanted state), or replayed through the verifier with the gate and the
 * negative controls. Returns what it counts for its task (nothing when left out or unmapped).
 */
function replayStep(step: ReplayStep, task: ReplayTask, replay: { readonly caches: ReplayCaches; readonly tally: ReplayTally; readonly gate: VlmGate; readonly place: TrailPlace }): 'passed' | 'settled' | 'notPassed' | undefined {
  const { caches, tally } = replay;
  const base = { id: step.id, task: task.id, app: step.app, actionKind: step.action.kind, noVisibleEffect: step.noVisibleEffect };
  const note = notReplayedNote(step);
  if (note !== undefined) {
    tally.leftOut[note] = (tally.leftOut[note] ?? 0) + 1;
    tally.categories['not-replayed'] += 1;
    tally.perStep.push({ ...base, category: 'not-replayed', note });
    return undefined;
  }
  const chosen = caches.chosenUnit(step);
  // A switch is judged by its state on the after screen, which another capture of the state reached may not hold.
  if (chosen.unit?.type === 'toggle' && step.afterFromOtherCapture === true) {
    tally.leftOut[toggleAfterOtherCapture] = (tally.leftOut[toggleAfterOtherCapture] ?? 0) + 1;
    tally.categories['not-replayed'] += 1;
    tally.perStep.push({ ...base, unitType: 'toggle', unitLabel: chosen.unit.label, category: 'not-replayed', note: `${toggleAfterOtherCapture}: the recorder keeps one file per state, which may show alike switches in other states` });
    return undefined;
  }
  tally.vision.screenshotPerStep += 1;
  if (!chosen.unit) {
    const leftOut = step.action.kind === 'set-text' ? 'typed text into no field' : 'element maps to no unit';
    tally.leftOut[leftOut] = (tally.leftOut[leftOut] ?? 0) + 1;
    tally.categories.unmapped += 1;
    tally.vision.unresolved += 1;
    tally.perStep.push({ ...base, category: 'unmapped', note: chosen.note });
    return undefined;
  }
  const unit = chosen.unit;
  const args = argsOf(step, unit);
  const unitBase = { ...base, unitType: unit.type, unitLabel: unit.label };
  if (alreadyInWantedState(unit, args)) {
    tally.categories.settled += 1;
    tally.perStep.push({ ...unitBase, category: 'settled', note: `${unit.type} "${unit.label}" already in the wanted state: the loop does not act` });
    return 'settled';
  }
  const context = contextOf(caches, replay.place);
  const verdict = verifyRecorded(step, { unit, args, before: step.before, after: step.after, ...context });
  tally.categories.replayed += 1;
  if (verdict.outcome !== 'pass') tally.vision.everyNonPass += 1;
  if (verdict.outcome === 'fail') tally.vision.everyFail += 1;
  countGate(step, unit, verdict, replay);
  const controls = step.noVisibleEffect ? {} : negativeControls(step, unit, args, caches, context);
  const visit: Visit = caches.visits.visits(unit, step.before) > 0 ? 'repeat' : 'first';
  // Learned after its controls: a step is judged, and its wrong effect too, only by the steps before it.
  if (verdict.outcome === 'pass') caches.visits.learn(unit, step.before, step.after);
  const trail = trailFiles(replay.place, caches.fileOf);
  tally.perStep.push({ ...unitBase, category: 'replayed', verdict, ...controls, visit, ...(trail ? { trail } : {}) });
  return verdict.outcome === 'pass' ? 'passed' : 'notPassed';
}

/** The files of the trail's pages a step was judged with, or undefined when the trail holds none. */
function trailFiles(place: TrailPlace, fileOf: WeakMap<UiTree, string>): StepReplay['trail'] {
  const name = (tree: UiTree | undefined): string | undefined => (tree === undefined ? undefined : fileOf.get(tree) ?? 'launched from (the screen the recorder started the app from)');
  const [cameFrom, openedFrom] = [name(place.cameFrom), name(place.openedFrom)];
  if (cameFrom === undefined && openedFrom === undefined) return undefined;
  return { ...(cameFrom === undefined ? {} : { cameFrom }), ...(openedFrom === undefined ? {} : { openedFrom }) };
}

/** A toggle left out: its after screen is another capture of the state reached (`ReplayStep.afterFromOtherCapture`). */
const toggleAfterOtherCapture = 'toggle whose after screen is another capture of its state';

/** Why a step is not replayed (a key press, a swipe, an action without an element), or undefined when it is. */
function notReplayedNote(step: ReplayStep): string | undefined {
  // Typing nothing and then Enter / Search is those keys pressed in the field: nothing was typed to verify.
  const keysOnly = step.action.kind === 'set-text' && step.action.text === '' && step.action.submitted;
  // Back and Home are the loop's own units; other keys are none.
  if (step.action.kind === 'key') return keyUnitId(step) === undefined ? 'key press (not replayed)' : undefined;
  if (keysOnly) return 'key press (not replayed)';
  // Without its direction a scroll's effect cannot be told from another scroll's (the list moved either way).
  if (step.action.kind === 'scroll' && step.action.direction === undefined) return 'swipe / scroll without a recorded direction (not replayed)';
  if (!replayedElement(step)) return `${step.action.kind} without an element (not replayed)`;
  return undefined;
}

/** The task's VLM gate sees the verdict as the loop's would; a gate that opens is a vision call. */
function countGate(step: ReplayStep, unit: ControlUnit, verdict: VerifyOutcome, replay: { readonly tally: ReplayTally; readonly gate: VlmGate }): void {
  // A pseudo unit (Back, Home) has no node: its id is its fingerprint, as in the loop.
  const target = { fingerprint: unit.members[0] ? (step.before.nodes[unit.members[0].node]?.fingerprint ?? '') : unit.id, bounds: unit.bounds };
  const decision = verdict.code === 'pixel-only' ? replay.gate.pixelOnly() : replay.gate.recordOutcome(target, verdict.outcome);
  if (decision.open) {
    replay.tally.vision.gate += 1;
    if (decision.reason === 'pixel-only') replay.tally.vision.gatePixelOnly += 1;
  }
}

/** What a step is verified with besides its screens: the memory of the replay and its place on the run's trail of pages; its controls get the same. */
type StepContext = Pick<UnitStepInput, 'memory' | 'openedFrom' | 'cameFrom'>;

function contextOf(caches: ReplayCaches, place: TrailPlace): StepContext {
  return { ...(caches.memory ? { memory: caches.memory } : {}), ...place };
}

/** The two negative controls of a visible-effect step: nothing happened (after = before), and another step's effect (when a donor exists). */
function negativeControls(step: ReplayStep, unit: ControlUnit, args: ContractArgs, caches: ReplayCaches, context: StepContext): Pick<StepReplay, 'noOp' | 'wrongEffect'> {
  const noOp = verifyRecorded(step, { unit, args, before: step.before, after: step.before, ...context });
  const donor = findDonor(step, caches.donorsByApp.get(step.app) ?? [], caches.donorContext);
  return donor
    ? { noOp, wrongEffect: { verdict: verifyRecorded(step, { unit, args, before: step.before, after: donor.after, ...context }), donor: donor.id } }
    : { noOp };
}

/**
 * `verifyUnitStep` for a recorded step, and for its negative controls alike: a typed text
 * that did not pass is tried once more in the form some versions of the recorder type it
 * (`typedAlso`: DroidBot's quotes kept), which names that form in the reason. The form
 * holds the typed text itself, so another step's field does not hold it either.
 */
function verifyRecorded(step: ReplayStep, input: UnitStepInput): VerifyOutcome {
  const verdict = verifyUnitStep(input);
  if (verdict.outcome === 'pass' || step.action.kind !== 'set-text' || step.action.typedAlso === undefined || input.args.value === undefined) return verdict;
  const retried = verifyUnitStep({ ...input, args: { ...input.args, value: step.action.typedAlso } });
  return retried.outcome === 'pass' ? { ...retried, reason: `${retried.reason} (as the recorder types it, with its quotes)` } : verdict;
}

/** The report: the verdict tables of what happened and of both controls, per task, app and tie, and the vision calls. */
function replayReport(source: ReplaySource, tally: ReplayTally, threshold: number | undefined): VerifyReplayReport {
  const { perStep, perTask, vision } = tally;
  const replayed = perStep.filter((item) => item.category === 'replayed');
  const pick = (filter: (item: StepReplay) => boolean, verdictOf: (item: StepReplay) => VerifyOutcome | undefined): { step: StepReplay; verdict: VerifyOutcome }[] =>
    replayed.filter(filter).flatMap((step) => {
      const verdict = verdictOf(step);
      return verdict ? [{ step, verdict }] : [];
    });
  const settled = perStep.filter((item) => item.category === 'settled');
  return {
    source: source.name,
    format: source.format,
    steps: perStep.length,
    categories: tally.categories,
    leftOut: tally.leftOut,
    settled: { visibleEffect: settled.filter((item) => !item.noVisibleEffect).length, noVisibleEffect: settled.filter((item) => item.noVisibleEffect).length },
    visibleEffect: table(pick((item) => !item.noVisibleEffect, (item) => item.verdict)),
    noVisibleEffect: table(pick((item) => item.noVisibleEffect, (item) => item.verdict)),
    noOp: table(pick((item) => !item.noVisibleEffect, (item) => item.noOp)),
    wrongEffect: table(pick((item) => !item.noVisibleEffect, (item) => item.wrongEffect?.verdict)),
    tasks: {
      total: source.tasks.length,
      verified: perTask.filter((task) => task.verified).length,
      withLeftOutSteps: perTask.filter((task) => task.leftOut > 0).length,
      leftOutSteps: perTask.reduce((sum, task) => sum + task.leftOut, 0),
      perTask,
    },
    byApp: figuresByApp(perStep),
    byTie: figuresByTie(perStep),
    byVisit: figuresByVisit(perStep),
    vision: { ...vision, everyNonPass: vision.everyNonPass + vision.unresolved, everyFail: vision.everyFail + vision.unresolved, gate: vision.gate + vision.unresolved, threshold: threshold ?? defaultGateThreshold },
    perStep,
    skipped: source.skipped,
    unreadable: source.unreadable,
    screens: source.screens,
    stepsWithActivityStack: source.tasks.reduce((sum, task) => sum + task.steps.filter((step) => step.before.activityStack.length > 0 && step.after.activityStack.length > 0).length, 0),
  };
}
