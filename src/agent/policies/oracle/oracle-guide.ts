import type { ControlUnit } from '../../../perception/control-unit.js';
import type { Perception } from '../../../perception/perceive.js';
import { unitPrecondition } from '../../../perception/unit-precondition.js';
import type { SolutionAction, SolutionStep, Task } from '../../../tasks/task-schema.js';
import { boundsIou } from '../../../ui/bounds.js';
import type { Bounds, UiTree } from '../../../ui/ui-tree.js';
import { assertNever } from '../../../util/assert-never.js';
import { evaluatePredicate } from '../../../verify/evaluate-predicate.js';
import { findNodes } from '../../../verify/find-nodes.js';
import { parsePredicate, parseQuery } from '../../../verify/parse-predicate.js';
import { PredicateParseError } from '../../../verify/predicate-parse-error.js';
import { resolveUnit } from '../../../verify/resolve-unit.js';
import { ranNoteHead, ranUnitsShown, unitReference, unitsTookEffectNote, type HistoryEntry } from '../../prompts/agent-prompts.js';
import { lookForUnit, type CommitmentItem, type PlanReply, type ReactReply, type VerifierReply, type VisionReply } from '../../planning/plan-reply.js';
import type { PromptReading } from '../../prompts/read-prompt.js';
import { skillNotePrefix } from '../../skill-replay/run-skill.js';
import type { MenuSkill } from '../../planning/skill-menu.js';
import { bindTemplate, holdsOn } from '../../../skills/match-skill.js';

/** Of those, the labels that would also end the flow's own dialog (a half-done step's dialog is no stranger). */
const flowDialogLabel = /^(cancel|close|dismiss)$/i;

/** Labels of buttons that dismiss an unexpected dialog (rate this app, update available, ...). */
const dismissLabel = /^(not now|later|no,? thanks|no thanks|cancel|dismiss|close|skip|maybe later|remind me later|don['’]?t allow|deny)$/i;

function targetOf(action: SolutionAction): string | undefined {
  return 'target' in action ? action.target : undefined;
}

/** True when `text` is a target query (the guide's own `lookFor`), not a prose description. */
function isQuery(text: string): boolean {
  try {
    parseQuery(text);
    return true;
  } catch (error) {
    if (PredicateParseError.isInstance(error)) return false;
    throw error;
  }
}

/** A reference action as commitment arguments; `unitType` is the located unit's type when known. */
function argumentsFor(action: SolutionAction, unitType?: ControlUnit['type']): Omit<CommitmentItem, 'unit'> {
  switch (action.unit) {
    case 'fill': return { value: action.value };
    case 'toggle': return action.value === undefined ? {} : { checked: action.value };
    case 'scroll': return { direction: action.direction };
    case 'click':
    case 'select':
      // Choosing a radio-like option (AM/PM) that perception typed as a toggle means: checked.
      return unitType === 'toggle' ? { checked: true } : {};
    case 'long-press': return { longPress: true };
    case 'navigate': return action.launch === undefined ? {} : { value: action.launch };
    case 'commit':
    case 'finish': return {};
    default: return assertNever(action, 'solution action');
  }
}

function itemFor(action: SolutionAction, unit: ControlUnit): CommitmentItem {
  return { unit: unit.id, ...argumentsFor(action, unit.type) };
}

/** The last plan the guide gave, settled by what the next prompt says became of it. */
interface PendingPlan {
  readonly intent: string;
  /** The reference actions behind the commitment's items, in order. */
  readonly actions: readonly SolutionAction[];
  /** The unit ids committed, parallel to `actions` (`look-for` for a target left to vision). */
  readonly units: readonly string[];
  /** How many reference actions the plan moves the guide on when it is done. */
  readonly covers: number;
  /** The committed units as a history note names them (`click "Save"`); empty for a plan left to vision. */
  readonly references: readonly string[];
}

/** One unit named in a history note's `ran` part, `type "label"`; the label as JSON. */
const ranReferencePattern = /^([a-z-]+) ("(?:[^"\\]|\\.)*")/;

/**
 * The units a history note says ran (`ran click "Save", fill "Title"; …`), as
 * {@link unitReference} writes them; undefined when the note names none (feedback off,
 * a rejection, a note of the guard). Read from the prompt's text, as any model reads it.
 */
export function ranReferences(note: string): string[] | undefined {
  if (!note.startsWith(ranNoteHead)) return undefined;
  const references: string[] = [];
  let rest = note.slice(ranNoteHead.length);
  for (;;) {
    const match = ranReferencePattern.exec(rest);
    if (!match) break;
    references.push(match[0]);
    rest = rest.slice(match[0].length);
    if (!rest.startsWith(', ')) break;
    rest = rest.slice(2);
  }
  return references.length > 0 ? references : undefined;
}

/** What the planner prompt told the guide about its previous plan. */
export interface OraclePlanPrompt {
  readonly history: readonly HistoryEntry[];
  readonly rejection?: string;
  /** The surface decision after the last executed intent (the prompt's surface line). */
  readonly surface?: { readonly decision: 'STOP' | 'CONTINUE'; readonly reason: string };
  /** The skills the prompt lists for calling by name. */
  readonly skills?: readonly MenuSkill[];
}

/** The history line of a skill replay: `Replay skill <name>` (a hand-over fails it; a called skill that completed passes it). */
const replayIntent = /^Replay skill (\S+)$/;

/** The reason the surface rules give when the screen changed under an action (`decideSurface`'s surface-changed rule). */
const surfaceChangedReason = /^the surface changed\b/;

/**
 * Whether the units a history entry says ran are the ones the plan committed, in order
 * (as far as the note names them). A plan left to vision, or a note naming none, says
 * nothing against it.
 */
function ranAsMeant(plan: PendingPlan, entry: HistoryEntry): boolean {
  const ran = ranReferences(entry.note);
  if (ran === undefined || plan.references.length === 0) return true;
  return ran.slice(0, ranUnitsShown).every((reference, index) => plan.references[index] === undefined || plan.references[index] === reference);
}

/** Notes the loop writes on guard entries (not the answer to a plan). */
const guardNote = 'guard';

/**
 * The `oracle` policy's brain: plays a task's reference solution. It resolves each
 * reference action's target query on the screen its prompt shows, commits as much of the
 * current reference step as that screen shows, and advances only when the next prompt's
 * intent history says the plan passed (or carries no outcome: feedback off) and that the
 * units it meant ran (the note's `ran click "Save"` part names what its ids became: a
 * reply whose id named another unit is no progress). It reads these lines from the
 * prompt's text as any model gets them (`readPrompt`), nothing more. It dismisses
 * unexpected dialogs generically and leaves targets the text view cannot name to vision
 * (`lookFor`). Its vision answers from a ground-truth tree when the device has one. It
 * never reads the device for the loop and never tells the loop anything but its replies.
 * Results it produces are oracle results and are labelled so.
 */
export class OracleGuide {
  private step = 0;
  private offset = 0;
  private pending: PendingPlan | undefined;
  private reactPrevious: { step: number; offset: number } | undefined;
  private caughtUp = false;
  /** The skill that handed over had verified part of the current reference step (a step of the same intent passed). */
  private partlyDone = false;
  /** Skills already replayed in this run (matched at the start, or called): never called again. */
  private readonly triedSkills = new Set<string>();
  /** The `lookFor` of the guide's last plan, to tell the gate's questions about its own plans from others (a skill step's). */
  private lastLookFor: string | undefined;

  constructor(private readonly task: Task) {
    if (!task.solution || task.solution.length === 0) {
      throw new Error(`task "${task.id}" has no reference solution; the oracle policy needs one (add solution: to the task).`);
    }
  }

  private get solution(): readonly SolutionStep[] {
    return this.task.solution ?? [];
  }

  /** Moves on by what the prompt says became of the last plan: passed, or no outcome shown (feedback off). */
  private settle(feedback: OraclePlanPrompt): void {
    const plan = this.pending;
    this.pending = undefined;
    if (!plan || feedback.rejection !== undefined) return;
    const entry = [...feedback.history].reverse().find((candidate) => candidate.note !== guardNote);
    if (!entry || entry.intent !== plan.intent) return;
    // Units other than the ones meant ran (an id copied wrong): nothing of the step is done.
    if (!ranAsMeant(plan, entry)) return;
    const stopped = /stopped after (\d+) of \d+ units/.exec(entry.note);
    const count = Math.min(plan.covers, stopped ? Number(stopped[1]) : plan.covers);
    // Every reference action ran and had its own effect; only the step's expectation did
    // not show (e.g. its label was stripped): the step is done, unconfirmed.
    const doneUnconfirmed = entry.outcome === 'fail' && entry.note.includes(unitsTookEffectNote);
    if (entry.outcome === 'pass' || entry.outcome === 'unknown' || doneUnconfirmed) this.advance(count);
  }

  private advance(count: number): void {
    this.offset += count;
    const step = this.solution[this.step];
    if (step && this.offset >= step.actions.length) {
      this.step += 1;
      this.offset = 0;
    }
  }

  /** The unit a reference action names on this screen; with `actionable`, only one the view does not mark disabled, covered or off-screen. */
  private resolve(action: SolutionAction, perception: Perception, actionable = false): ControlUnit | undefined {
    if (action.unit === 'navigate') {
      const id = action.key === 'back' ? 'nav-back' : action.key === 'home' ? 'nav-home' : 'nav-launch';
      return perception.units.find((unit) => unit.id === id);
    }
    if (action.unit === 'finish') return perception.units.find((unit) => unit.id === 'finish');
    const target = targetOf(action);
    if (target === undefined) {
      return action.unit === 'scroll' ? perception.units.find((unit) => unit.type === 'scroll') : undefined;
    }
    // A unit the view's row budget left out is one the planner cannot see: the oracle does not use it either.
    const hidden = new Set(perception.plannerView.hiddenUnits);
    const resolved = resolveUnit(parseQuery(target), perception).units.filter((unit) => !hidden.has(unit.id) && !(actionable && unitPrecondition(unit)));
    const wanted = action.unit === 'scroll' ? resolved.find((unit) => unit.type === 'scroll') : undefined;
    return wanted ?? resolved[0];
  }

  /** The dismiss button of a dialog on the screen; with `ownDialog`, not one that would cancel the flow's own dialog (Cancel, Close). */
  private dismissUnit(perception: Perception, ownDialog = false): ControlUnit | undefined {
    const surfaces = new Set(perception.blocks.filter((block) => block.surface).flatMap((block) => block.units));
    return perception.units.find((unit) => surfaces.has(unit.id) && dismissLabel.test(unit.label.trim()) && !(ownDialog && flowDialogLabel.test(unit.label.trim())));
  }

  /**
   * The dismiss button of a dialog or sheet the screen shows over the units `ids` (none of
   * them is on it): a modal surface takes the taps meant for what lies under it, so a
   * planner reading the screen closes it first.
   */
  private dismissOver(perception: Perception, ids: readonly string[]): ControlUnit | undefined {
    const surfaces = new Set<string>(perception.blocks.filter((block) => block.surface).flatMap((block) => block.units));
    if (ids.some((id) => surfaces.has(id) || id.startsWith('nav-'))) return undefined;
    return this.dismissUnit(perception);
  }

  private dismissReply(dismiss: ControlUnit): PlanReply {
    return { intent: `Dismiss the unexpected dialog ("${dismiss.label}")`, expectation: 'dismissedSurface', commitment: [{ unit: dismiss.id }], finish: false };
  }

  /**
   * On the first plan of a run a skill replay handed over: moves past the reference steps
   * whose intents the history shows the skill verified (last word on each intent: pass),
   * as a planner reading the history would. A step the skill's hand-over names as failed
   * is not done, whatever an earlier round of it said.
   */
  private catchUp(history: readonly HistoryEntry[]): void {
    const first = !this.caughtUp;
    this.caughtUp = true;
    const status = new Map<string, HistoryEntry['outcome']>();
    for (const entry of history) {
      if (!entry.note.startsWith(`${skillNotePrefix} `)) continue;
      status.set(entry.intent, entry.outcome);
      const named = /step \d+ "([^"]+)"/.exec(entry.note)?.[1];
      if (entry.outcome !== 'pass' && named !== undefined) status.set(named, 'fail');
    }
    let done = -1;
    this.solution.forEach((step, index) => {
      if (status.get(step.intent) === 'pass') done = index;
    });
    // Only forward: a skill called later may have done more; nothing it did undoes the guide's own steps.
    const moved = done + 1 > this.step;
    if (moved) {
      this.step = done + 1;
      this.offset = 0;
    }
    if (!first && !moved) return;
    const next = this.solution[this.step];
    this.partlyDone = next !== undefined && history.some((entry) => entry.intent === next.intent && entry.outcome === 'pass' && entry.note.startsWith(`${skillNotePrefix} `));
  }

  /**
   * After a skill verified part of the current reference step, as a planner reading the
   * screen would: the step's leading actions whose targets are gone (the hour already
   * picked, its dial replaced by the minutes) are done; go on from the first one shown.
   */
  private skipPartDoneBySkill(perception: Perception): void {
    if (!this.partlyDone) return;
    this.partlyDone = false;
    const step = this.solution[this.step];
    if (!step) return;
    const shown = step.actions.findIndex((action, index) => index >= this.offset && targetOf(action) !== undefined && this.resolve(action, perception) !== undefined);
    if (shown > this.offset) this.offset = shown;
  }

  /** The planner's reply for the screen `perception`, after reading what became of the last plan. */
  plan(perception: Perception, feedback: OraclePlanPrompt): PlanReply {
    this.lastLookFor = undefined;
    for (const entry of feedback.history) {
      const replayed = replayIntent.exec(entry.intent)?.[1] ?? (entry.note.startsWith(`${skillNotePrefix} `) ? /^\S+ (\S+)/.exec(entry.note)?.[1] : undefined);
      if (replayed !== undefined) this.triedSkills.add(replayed);
    }
    const completed = feedback.history.find((entry) => entry.outcome === 'pass' && replayIntent.test(entry.intent));
    if (completed) return this.finishAfterSkill(completed);
    const call = this.skillCall(feedback.skills ?? []);
    if (call) {
      this.pending = undefined;
      return call;
    }
    this.catchUp(feedback.history);
    this.skipPartDoneBySkill(perception);
    const failed = this.lastPlanFailed(feedback);
    this.settle(feedback);
    if (failed) this.skipIfDoneByScreen(perception);
    const strayed = failed && surfaceChangedReason.test(feedback.surface?.reason ?? '');
    const { reply, pending } = this.buildPlan(perception, strayed);
    this.pending = pending;
    this.lastLookFor = reply.lookFor;
    return reply;
  }

  /**
   * A skill to run by name, as a planner reading the prompt would choose one: the one
   * listed skill whose template fits the task's instruction word for word, not replayed
   * yet in this run. Several fits, or none: no call.
   */
  private skillCall(skills: readonly MenuSkill[]): PlanReply | undefined {
    const fits = skills.flatMap((skill) => {
      if (this.triedSkills.has(skill.name)) return [];
      const bound = bindTemplate(skill, this.task.instruction);
      return 'bindings' in bound ? [{ skill, bound: bound.bindings }] : [];
    });
    const only = fits[0];
    if (fits.length !== 1 || !only) return undefined;
    this.triedSkills.add(only.skill.name);
    const args = Object.entries(only.bound).map(([name, binding]) => ({ name, value: binding.value }));
    return { intent: `Replay skill ${only.skill.name}`, expectation: '', commitment: [], finish: false, skill: only.skill.name, arguments: args };
  }

  /** A called skill whose template is the task completed: the task is done (with the answer the skill read, else the reference's). */
  private finishAfterSkill(entry: HistoryEntry): PlanReply {
    const read = /; answer: ("(?:[^"\\]|\\.)*")/.exec(entry.note)?.[1];
    const reference = this.solution.flatMap((step) => step.actions).find((action) => action.unit === 'finish');
    const answer = read === undefined ? (reference?.unit === 'finish' ? reference.answer : undefined) : (JSON.parse(read) as string);
    return { intent: 'The task is complete', expectation: '', commitment: [], finish: true, ...(answer === undefined ? {} : { answer }) };
  }

  /**
   * True when the history says the last plan (an action on a unit of the screen, not a
   * way back or a look-for) failed without every unit having taken effect, or that other
   * units than the ones meant ran.
   */
  private lastPlanFailed(feedback: OraclePlanPrompt): boolean {
    const plan = this.pending;
    if (!plan || feedback.rejection !== undefined || plan.units.some((unit) => unit === lookForUnit || unit.startsWith('nav-'))) return false;
    const entry = [...feedback.history].reverse().find((candidate) => candidate.note !== guardNote);
    if (entry === undefined || entry.intent !== plan.intent) return false;
    return (entry.outcome === 'fail' && !entry.note.includes(unitsTookEffectNote)) || !ranAsMeant(plan, entry);
  }

  /**
   * After a failed plan, as a planner reading the screen would: when the step's next
   * target is no longer on the screen the prompt shows while the next step's first target
   * is, the step did happen (only its check did not show, e.g. its label was stripped):
   * move on. Targets are found by their queries on that screen, never by the unit ids
   * committed before (a selected tab is no unit any more, and ids move with the screen).
   */
  private skipIfDoneByScreen(perception: Perception): void {
    const step = this.solution[this.step];
    const next = this.solution[this.step + 1]?.actions[0];
    const current = step?.actions[this.offset];
    if (!step || !current || !next || targetOf(next) === undefined || targetOf(current) === undefined) return;
    if (this.resolve(current, perception) === undefined && this.resolve(next, perception) !== undefined) {
      this.step += 1;
      this.offset = 0;
    }
  }

  /**
   * `completesTask` (with the reference's answer) when the next `covers` actions are the
   * last of the solution but its FINISH: the planner says so in its reply, as a model
   * reading the task would, and the loop ends the run once they verify.
   */
  private completion(covers: number): Pick<PlanReply, 'completesTask' | 'answer'> {
    const rest = [...(this.solution[this.step]?.actions.slice(this.offset + covers) ?? []), ...this.solution.slice(this.step + 1).flatMap((step) => step.actions)];
    if (!rest.every((action) => action.unit === 'finish')) return {};
    const answer = rest.find((action) => action.unit === 'finish')?.answer;
    return { completesTask: true, ...(answer === undefined ? {} : { answer }) };
  }

  private buildPlan(perception: Perception, strayed = false): { reply: PlanReply; pending?: PendingPlan } {
    const step = this.solution[this.step];
    if (!step) return { reply: { intent: 'The task is complete', expectation: '', commitment: [], finish: true } };
    const remaining = step.actions.slice(this.offset);
    const first = remaining[0];
    if (first?.unit === 'finish') {
      const reply: PlanReply = { intent: step.intent, expectation: '', commitment: [], finish: true };
      return { reply: first.answer === undefined ? reply : { ...reply, answer: first.answer } };
    }
    const items: CommitmentItem[] = [];
    for (const action of remaining) {
      if (action.unit === 'finish') break;
      if (action.unit === 'scroll' && action.until !== undefined && findNodes(parseQuery(action.until), perception.tree).matches.length > 0) {
        if (items.length === 0) { this.advance(1); return this.buildPlan(perception, strayed); }
        break;
      }
      // What the view marks disabled, covered or off-screen is not acted on first (a model reads those marks too); later
      // in the commitment it may be, the earlier units enabling, uncovering or scrolling it in.
      const unit = this.resolve(action, perception, items.length === 0);
      if (!unit) break;
      items.push(itemFor(action, unit));
      // A scroll that must repeat, or an action that opens another screen, ends what this screen can commit.
      if (action.unit === 'scroll' || action.unit === 'navigate' || action.unit === 'commit') break;
    }
    const covers = items.length;
    const last = covers === remaining.length || (covers > 0 && remaining[covers]?.unit === 'finish');
    const expectation = last && step.expect !== undefined ? step.expect : '';
    const over = covers > 0 ? this.dismissOver(perception, items.map((item) => item.unit)) : undefined;
    if (over) return { reply: this.dismissReply(over) };
    if (covers > 0) {
      const references = items.map((item) => perception.units.find((unit) => unit.id === item.unit)).map((unit) => (unit ? unitReference(unit) : ''));
      const pending = { intent: step.intent, actions: remaining.slice(0, covers), units: items.map((item) => item.unit), covers, references };
      return { reply: { intent: step.intent, expectation, commitment: items, finish: false, ...this.completion(covers) }, pending };
    }
    // A step half done has its dialog open: its Cancel is no way on (its next target is left to vision below).
    const dismiss = this.dismissUnit(perception, this.offset > 0);
    if (dismiss) return { reply: this.dismissReply(dismiss) };
    // A step whose effect already shows (e.g. "open the Alarm tab" on the Alarm tab) is done.
    if (this.offset === 0 && step.expect !== undefined && evaluatePredicate(parsePredicate(step.expect), { after: perception.tree }).outcome === 'pass') {
      this.step += 1;
      return this.buildPlan(perception, strayed);
    }
    if (strayed) {
      return { reply: { intent: `Go back: the last action did not lead to "${step.intent}"`, expectation: 'screenChanged', commitment: [{ unit: 'nav-back' }], finish: false } };
    }
    // The text view names no target: leave it to vision, described by the reference query.
    const query = first ? targetOf(first) ?? '' : '';
    const single = remaining.length === 1 && step.expect !== undefined ? step.expect : '';
    const reply: PlanReply = { intent: step.intent, expectation: single, commitment: first ? [{ unit: lookForUnit, ...argumentsFor(first) }] : [], finish: false, lookFor: query || step.intent, ...(first ? this.completion(1) : {}) };
    return first ? { reply, pending: { intent: step.intent, actions: [first], units: [lookForUnit], covers: 1, references: [] } } : { reply };
  }

  /**
   * Answers the gate's localized question from a ground-truth tree (the simulator's
   * screen without label-stripping faults): the candidate whose bounds best overlap the
   * node the reference query names there. Null without ground truth or without a match.
   */
  locate(query: string, candidates: readonly { readonly id: string; readonly bounds: Bounds }[], groundTruth: UiTree | undefined): VisionReply {
    if (!groundTruth || query === '') return { unit: null, reason: 'oracle: no ground truth to look at', alreadyDone: false };
    const matches = findNodes(parseQuery(query), groundTruth).matches;
    const node = matches[0] === undefined ? undefined : groundTruth.nodes[matches[0]];
    if (!node) return { unit: null, reason: `oracle: "${query}" is not on the ground-truth screen either`, alreadyDone: false };
    let best: { id: string; iou: number } | undefined;
    for (const candidate of candidates) {
      const iou = boundsIou(candidate.bounds, node.bounds);
      if (iou > (best?.iou ?? 0)) best = { id: candidate.id, iou };
    }
    return best && best.iou >= 0.5 ? { unit: best.id, reason: `oracle: ground truth shows "${query}" there`, alreadyDone: false } : { unit: null, reason: 'oracle: no candidate covers the target', alreadyDone: false };
  }

  /**
   * The gate's question for the oracle's vision. About the guide's own last plan (the
   * failed target is one it committed, or the `lookFor` is the one it wrote): where is the
   * target the prompt asks for (its `lookFor`, a reference query the guide wrote; or the
   * reference action behind the unit that kept failing)? A step whose effect the ground
   * truth already shows is answered "already done". About anything else (a skill step's
   * check, with no plan of the guide behind it): answered from the prompt alone, as a
   * VLM looking at the screenshot would — {@link OracleGuide.lookAt}.
   */
  vision(reading: PromptReading, groundTruth: UiTree | undefined): VisionReply {
    if (!this.asksAboutOwnPlan(reading)) return this.lookAt(reading, groundTruth);
    const step = this.solution[this.step];
    const asked = reading.lookFor !== undefined && isQuery(reading.lookFor) ? reading.lookFor : undefined;
    const failedIndex = reading.failedTarget === undefined ? -1 : (this.pending?.units.indexOf(reading.failedTarget) ?? -1);
    const behind = failedIndex >= 0 ? this.pending?.actions[failedIndex] : step?.actions[this.offset];
    const query = asked ?? (behind ? targetOf(behind) ?? '' : '');
    const located = this.locate(query, reading.candidates, groundTruth);
    // What the text view could not show, the ground truth can: the step's effect may already be there.
    if (located.unit === null && groundTruth && step && this.offset === 0 && step.expect !== undefined
      && evaluatePredicate(parsePredicate(step.expect), { after: groundTruth }).outcome === 'pass') {
      this.pending = { intent: step.intent, actions: step.actions, units: [], covers: step.actions.length, references: [] };
      return { unit: null, reason: 'oracle: the ground truth already shows this step done', alreadyDone: true };
    }
    return located;
  }

  private asksAboutOwnPlan(reading: PromptReading): boolean {
    if (reading.failedTarget !== undefined && this.pending?.units.includes(reading.failedTarget) === true) return true;
    return reading.lookFor !== undefined && reading.lookFor === this.lastLookFor;
  }

  /**
   * A question the guide's plans did not raise, answered from what the prompt gives and
   * the screenshot shows (the ground truth stands for the pixels): the expectation it
   * states holds there → already done; else the target its `lookFor` query names there →
   * the candidate over it; else none. It reads no reference solution and moves nothing on.
   */
  private lookAt(reading: PromptReading, groundTruth: UiTree | undefined): VisionReply {
    if (groundTruth && reading.expectation !== undefined && holdsOn(reading.expectation, {}, groundTruth).holds) {
      return { unit: null, reason: `oracle: the ground truth shows ${reading.expectation}`, alreadyDone: true };
    }
    const query = reading.lookFor !== undefined && isQuery(reading.lookFor) ? reading.lookFor : '';
    return this.locate(query, reading.candidates, groundTruth);
  }

  /**
   * The LLM verifier's role: the reference step's expectation decides, else pass. The step
   * is the guide's current one, or the reference step the prompt's intent names when the
   * current one is another (a skill replay judged a step the planner never planned).
   */
  verify(perception: Perception, intent?: string): VerifierReply {
    const current = this.solution[Math.min(this.step, this.solution.length - 1)];
    const step = intent === undefined || current?.intent === intent ? current : this.solution.find((candidate) => candidate.intent === intent) ?? current;
    if (!step?.expect) return { verdict: 'pass', reason: 'oracle: the reference step names no expectation' };
    const outcome = evaluatePredicate(parsePredicate(step.expect), { after: perception.tree });
    return { verdict: outcome.outcome === 'pass' ? 'pass' : 'fail', reason: `oracle: ${outcome.reason}` };
  }

  /**
   * One action for the ReAct baselines. After the last action of a reference step, its
   * expectation is checked on the new screen (the baseline sees the screen every step):
   * held → the next step, not held → the step again.
   */
  react(perception: Perception, canSee: boolean, groundTruth: UiTree | undefined): ReactReply {
    // What the baseline can judge effects on: the screenshot (the ground truth) when it has eyes.
    const seen = canSee && groundTruth ? groundTruth : perception.tree;
    const previous = this.reactPrevious;
    if (previous && previous.offset === 0 && previous.step > 0) {
      const done = this.solution[previous.step - 1];
      if (done?.expect && evaluatePredicate(parsePredicate(done.expect), { after: seen }).outcome !== 'pass') {
        this.step = previous.step - 1;
        this.offset = 0;
      }
    }
    const step = this.solution[this.step];
    if (!step) return { thought: 'oracle: reference solution played', action: null, finish: true };
    const action = step.actions[this.offset];
    if (!action) return { thought: 'oracle: empty step', action: null, finish: true };
    if (action.unit === 'finish') {
      return action.answer === undefined ? { thought: step.intent, action: null, finish: true } : { thought: step.intent, action: null, finish: true, answer: action.answer };
    }
    if (action.unit === 'scroll' && action.until !== undefined && findNodes(parseQuery(action.until), perception.tree).matches.length > 0) {
      this.advance(1);
      this.reactPrevious = { step: this.step, offset: this.offset };
      return this.react(perception, canSee, groundTruth);
    }
    let unit = this.resolve(action, perception);
    if (!unit && canSee) {
      const located = this.locate(targetOf(action) ?? '', perception.units, groundTruth);
      unit = perception.units.find((candidate) => candidate.id === located.unit);
    }
    if (!unit && this.offset === 0 && step.expect !== undefined) {
      // A step whose effect already shows (the Alarm tab already open) is done; with eyes,
      // the ground truth shows effects whose labels the text view lost.
      if (evaluatePredicate(parsePredicate(step.expect), { after: seen }).outcome === 'pass') {
        this.step += 1;
        this.reactPrevious = { step: this.step, offset: 0 };
        return this.react(perception, canSee, groundTruth);
      }
    }
    if (!unit) {
      const dismiss = this.dismissUnit(perception);
      if (dismiss) return { thought: 'oracle: dismiss the unexpected dialog', action: { unit: dismiss.id }, finish: false };
      return { thought: `oracle: cannot find the target of "${step.intent}"; going back`, action: { unit: 'nav-back' }, finish: false };
    }
    const over = this.dismissOver(perception, [unit.id]);
    if (over) return { thought: 'oracle: dismiss the unexpected dialog first', action: { unit: over.id }, finish: false };
    const item = itemFor(action, unit);
    const repeatScroll = action.unit === 'scroll' && action.until !== undefined;
    if (!repeatScroll) this.advance(1);
    this.reactPrevious = { step: this.step, offset: this.offset };
    return { thought: step.intent, action: item, finish: false };
  }
}
