import type { ControlUnit } from '../perception/control-unit.js';
import type { Perception } from '../perception/perceive.js';
import type { SolutionAction, SolutionStep, Task } from '../tasks/task-schema.js';
import { boundsIou } from '../ui/bounds.js';
import type { UiTree } from '../ui/ui-tree.js';
import { assertNever } from '../util/assert-never.js';
import { evaluatePredicate } from '../verify/evaluate-predicate.js';
import { findNodes } from '../verify/find-nodes.js';
import { parsePredicate, parseQuery } from '../verify/parse-predicate.js';
import { resolveUnit } from '../verify/resolve-unit.js';
import type { CommitmentItem, PlanReply, ReactReply, VerifierReply, VisionReply } from './plan-reply.js';

/** Labels of buttons that dismiss an unexpected dialog (rate this app, update available, ...). */
const dismissLabel = /^(not now|later|no,? thanks|no thanks|cancel|dismiss|close|skip|maybe later|remind me later|don['’]?t allow|deny)$/i;

/** What the oracle commits for one plan, and how much of its reference step that covers. */
export interface OraclePlan {
  readonly reply: PlanReply;
  /** Set when the next target cannot be resolved in the text view: what vision should look for. */
  readonly lookFor?: { readonly query: string; readonly action: SolutionAction };
  readonly kind: 'solution' | 'recovery' | 'finish' | 'unresolved';
  /** Number of reference actions this plan covers. */
  readonly covers: number;
}

function targetOf(action: SolutionAction): string | undefined {
  return 'target' in action ? action.target : undefined;
}

function itemFor(action: SolutionAction, unit: ControlUnit): CommitmentItem {
  switch (action.unit) {
    case 'fill': return { unit: unit.id, value: action.value };
    case 'toggle': return action.value === undefined ? { unit: unit.id } : { unit: unit.id, checked: action.value };
    case 'scroll': return { unit: unit.id, direction: action.direction };
    case 'click':
    case 'select':
      // Choosing a radio-like option (AM/PM) that perception typed as a toggle means: checked.
      return unit.type === 'toggle' ? { unit: unit.id, checked: true } : { unit: unit.id };
    case 'long-press': return { unit: unit.id, longPress: true };
    case 'commit': return { unit: unit.id };
    case 'navigate':
    case 'finish': return { unit: unit.id };
    default: return assertNever(action, 'solution action');
  }
}

/**
 * The `oracle` policy's brain: plays a task's reference solution through the whole
 * loop. It resolves each reference action's target query on the screen the loop
 * observed, commits as much of the current reference step as the screen shows, advances
 * only when the loop reports the intent verified (or when feedback is off), dismisses
 * unexpected dialogs generically, and asks vision for targets the text view cannot name.
 * It never reads the device itself; `locate` may use a ground-truth tree the simulator
 * provides. Results it produces are oracle results and are labelled so.
 */
export class OracleGuide {
  private step = 0;
  private offset = 0;
  private pending: OraclePlan | undefined;
  private reactPrevious: { step: number; offset: number } | undefined;
  private screen: Perception | undefined;

  constructor(private readonly task: Task) {
    if (!task.solution || task.solution.length === 0) {
      throw new Error(`task "${task.id}" has no reference solution; the oracle policy needs one (add solution: to the task).`);
    }
  }

  private get solution(): readonly SolutionStep[] {
    return this.task.solution ?? [];
  }

  /** The loop tells the guide what it sees before each model call. */
  setScreen(perception: Perception): void {
    this.screen = perception;
  }

  private current(): Perception {
    if (!this.screen) throw new Error('OracleGuide: setScreen must be called before a plan');
    return this.screen;
  }

  /** Reports the verified outcome of the last plan (`unknown` when feedback is off). */
  report(outcome: 'pass' | 'fail' | 'inconclusive' | 'unknown' | 'rejected', executed?: number, unitsPassed = false): void {
    const plan = this.pending;
    this.pending = undefined;
    if (!plan || plan.kind !== 'solution') return;
    const count = Math.min(plan.covers, executed ?? plan.covers);
    // Every reference action ran and had its own effect; only the step's expectation did
    // not show (e.g. its label was stripped): the step is done, unconfirmed.
    const doneUnconfirmed = outcome === 'fail' && unitsPassed && count === plan.covers;
    if (outcome === 'pass' || outcome === 'unknown' || doneUnconfirmed) this.advance(count);
  }

  private advance(count: number): void {
    this.offset += count;
    const step = this.solution[this.step];
    if (step && this.offset >= step.actions.length) {
      this.step += 1;
      this.offset = 0;
    }
  }

  private resolve(action: SolutionAction, perception: Perception): ControlUnit | undefined {
    if (action.unit === 'navigate') {
      const id = action.key === 'back' ? 'nav-back' : action.key === 'home' ? 'nav-home' : 'nav-launch';
      return perception.units.find((unit) => unit.id === id);
    }
    if (action.unit === 'finish') return perception.units.find((unit) => unit.id === 'finish');
    const target = targetOf(action);
    if (target === undefined) {
      return action.unit === 'scroll' ? perception.units.find((unit) => unit.type === 'scroll') : undefined;
    }
    const resolved = resolveUnit(parseQuery(target), perception);
    const wanted = action.unit === 'scroll' ? resolved.units.find((unit) => unit.type === 'scroll') : undefined;
    return wanted ?? resolved.units[0];
  }

  private dismissUnit(perception: Perception): ControlUnit | undefined {
    const surfaces = new Set(perception.blocks.filter((block) => block.surface).flatMap((block) => block.units));
    return perception.units.find((unit) => surfaces.has(unit.id) && dismissLabel.test(unit.label.trim()));
  }

  /** The next plan for the screen set by `setScreen`. */
  plan(): OraclePlan {
    const perception = this.current();
    const plan = this.buildPlan(perception);
    this.pending = plan;
    return plan;
  }

  private buildPlan(perception: Perception): OraclePlan {
    const step = this.solution[this.step];
    if (!step) return { reply: { intent: 'The task is complete', expectation: '', commitment: [], finish: true }, kind: 'finish', covers: 0 };
    const remaining = step.actions.slice(this.offset);
    const first = remaining[0];
    if (first?.unit === 'finish') {
      const reply: PlanReply = { intent: step.intent, expectation: '', commitment: [], finish: true };
      return { reply: first.answer === undefined ? reply : { ...reply, answer: first.answer }, kind: 'finish', covers: 1 };
    }
    const items: CommitmentItem[] = [];
    for (const action of remaining) {
      if (action.unit === 'finish') break;
      if (action.unit === 'scroll' && action.until !== undefined && findNodes(parseQuery(action.until), perception.tree).matches.length > 0) {
        if (items.length === 0) { this.advance(1); return this.buildPlan(perception); }
        break;
      }
      const unit = this.resolve(action, perception);
      if (!unit) break;
      items.push(itemFor(action, unit));
      if (action.unit === 'navigate' && action.launch !== undefined) items[items.length - 1] = { unit: unit.id, value: action.launch };
      // A scroll that must repeat, or an action that opens another screen, ends what this screen can commit.
      if (action.unit === 'scroll' || action.unit === 'navigate' || action.unit === 'commit') break;
    }
    const covers = items.length;
    const last = covers === remaining.length || (covers > 0 && remaining[covers]?.unit === 'finish');
    const expectation = last && step.expect !== undefined ? step.expect : '';
    if (covers > 0) {
      return { reply: { intent: step.intent, expectation, commitment: items, finish: false }, kind: 'solution', covers };
    }
    const dismiss = this.dismissUnit(perception);
    if (dismiss) {
      return { reply: { intent: `Dismiss the unexpected dialog ("${dismiss.label}")`, expectation: 'dismissedSurface', commitment: [{ unit: dismiss.id }], finish: false }, kind: 'recovery', covers: 0 };
    }
    // A step whose effect already shows (e.g. "open the Alarm tab" on the Alarm tab) is done.
    if (this.offset === 0 && step.expect !== undefined && evaluatePredicate(parsePredicate(step.expect), { after: perception.tree }).outcome === 'pass') {
      this.step += 1;
      return this.buildPlan(perception);
    }
    const query = first ? targetOf(first) ?? '' : '';
    const reply: PlanReply = { intent: step.intent, expectation, commitment: [], finish: false, lookFor: query || step.intent };
    const unresolved: OraclePlan = { reply, kind: 'unresolved', covers: 0 };
    return first ? { ...unresolved, lookFor: { query, action: first } } : unresolved;
  }

  /** After vision located the target of an unresolved plan: the commitment on that unit. */
  commitmentFor(unitId: string): CommitmentItem[] {
    const step = this.solution[this.step];
    const action = step?.actions[this.offset];
    const unit = this.current().units.find((candidate) => candidate.id === unitId);
    if (!action || !unit) return [];
    this.pending = { reply: { intent: step.intent, expectation: '', commitment: [], finish: false }, kind: 'solution', covers: 1 };
    return [itemFor(action, unit)];
  }

  /**
   * Answers the gate's localized question from a ground-truth tree (the simulator's
   * screen without label-stripping faults): the candidate whose bounds best overlap the
   * node the reference query names there. Null without ground truth or without a match.
   */
  locate(query: string, candidates: readonly ControlUnit[], groundTruth: UiTree | undefined): VisionReply {
    if (!groundTruth || query === '') return { unit: null, reason: 'oracle: no ground truth to look at', alreadyDone: false };
    const matches = findNodes(parseQuery(query), groundTruth).matches;
    const node = matches[0] === undefined ? undefined : groundTruth.nodes[matches[0]];
    if (!node) return { unit: null, reason: `oracle: "${query}" is not on the ground-truth screen either`, alreadyDone: false };
    let best: { unit: ControlUnit; iou: number } | undefined;
    for (const unit of candidates) {
      const iou = boundsIou(unit.bounds, node.bounds);
      if (iou > (best?.iou ?? 0)) best = { unit, iou };
    }
    return best && best.iou >= 0.5 ? { unit: best.unit.id, reason: `oracle: ground truth shows "${query}" there`, alreadyDone: false } : { unit: null, reason: 'oracle: no candidate covers the target', alreadyDone: false };
  }

  /**
   * The gate's question for the oracle: where is the target of the reference action in
   * progress (the unresolved one, or the one that kept failing)? Candidates are the
   * current screen's on-screen units.
   */
  locateCurrent(groundTruth: UiTree | undefined): VisionReply {
    const perception = this.current();
    const step = this.solution[this.step];
    const action = step?.actions[this.offset];
    const query = this.pending?.lookFor?.query ?? (action ? targetOf(action) ?? '' : '');
    const located = this.locate(query, perception.units.filter((unit) => unit.tap !== null), groundTruth);
    // What the text view could not show, the ground truth can: the step's effect may already be there.
    if (located.unit === null && groundTruth && this.offset === 0 && step?.expect !== undefined
      && evaluatePredicate(parsePredicate(step.expect), { after: groundTruth }).outcome === 'pass') {
      this.pending = { reply: { intent: step.intent, expectation: '', commitment: [], finish: false }, kind: 'solution', covers: step.actions.length };
      return { unit: null, reason: 'oracle: the ground truth already shows this step done', alreadyDone: true };
    }
    return located;
  }

  /** The LLM verifier's role: the reference step's expectation decides, else pass. */
  verify(): VerifierReply {
    const perception = this.current();
    const step = this.solution[Math.min(this.step, this.solution.length - 1)];
    if (!step?.expect) return { verdict: 'pass', reason: 'oracle: the reference step names no expectation' };
    const outcome = evaluatePredicate(parsePredicate(step.expect), { after: perception.tree });
    return { verdict: outcome.outcome === 'pass' ? 'pass' : 'fail', reason: `oracle: ${outcome.reason}` };
  }

  /**
   * One action for the ReAct baselines. After the last action of a reference step, its
   * expectation is checked on the new screen (the baseline sees the screen every step):
   * held → the next step, not held → the step again.
   */
  react(canSee: boolean, groundTruth: UiTree | undefined): ReactReply {
    const perception = this.current();
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
      return this.react(canSee, groundTruth);
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
        return this.react(canSee, groundTruth);
      }
    }
    if (!unit) {
      const dismiss = this.dismissUnit(perception);
      if (dismiss) return { thought: 'oracle: dismiss the unexpected dialog', action: { unit: dismiss.id }, finish: false };
      return { thought: `oracle: cannot find the target of "${step.intent}"; going back`, action: { unit: 'nav-back' }, finish: false };
    }
    const item = action.unit === 'navigate' && action.launch !== undefined ? { unit: unit.id, value: action.launch } : itemFor(action, unit);
    const repeatScroll = action.unit === 'scroll' && action.until !== undefined;
    if (!repeatScroll) this.advance(1);
    this.reactPrevious = { step: this.step, offset: this.offset };
    return { thought: step.intent, action: item, finish: false };
  }
}
