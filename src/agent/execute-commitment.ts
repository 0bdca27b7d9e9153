import type { ControlUnit } from '../perception/control-unit.js';
import { unitPrecondition } from '../perception/unit-precondition.js';
import { parsePredicate } from '../verify/parse-predicate.js';
import type { Predicate } from '../verify/predicate.js';
import { pixelOnlyCode } from '../verify/verify-unit-step.js';
import { admissibleCommitment } from './admissible-commitment.js';
import type { Screen } from './agent-session.js';
import { askVision } from './ask-vision.js';
import { executeUnit } from './execute-unit.js';
import type { CommitmentItem, PlanReply } from './plan-reply.js';
import { recordGate, unitFingerprint, type ExecutedUnit, type SenseActContext, type SenseActState } from './senseact-state.js';

/** What running a commitment left behind. */
export interface CommitmentRun {
  /** The screen before the first unit. */
  readonly start: Screen;
  readonly executed: readonly ExecutedUnit[];
  /** Set when the commitment stopped early because a later unit was gone from the screen or its typed precondition failed there. */
  readonly unfinished: string;
}

/** The key of "the same action" for the repeated-action guard. */
function actionKey(unit: ControlUnit, item: CommitmentItem): string {
  return JSON.stringify([unit.members[0]?.resourceId ?? unit.id, unit.label, unit.bounds, item.value, item.checked, item.direction]);
}

/**
 * Runs an admissible commitment unit by unit (DESIGN.md §1.6–1.7). Later units are found
 * again on the screen the earlier ones left (ids are stable); one that is gone, or whose
 * typed precondition fails there (disabled, covered, off-screen), ends the commitment. With execution feedback, a failed unit stops it, and a target that failed
 * `τ` times in a row opens the gate: vision gets the failed unit and the screen's units
 * of its type, and the located unit runs with the plan's arguments once it passes the
 * admissibility check. Leaving the allowed apps or the step budget stops it too.
 */
export async function executeCommitment(context: SenseActContext, state: SenseActState, plan: PlanReply, items: readonly CommitmentItem[], units: readonly ControlUnit[]): Promise<CommitmentRun> {
  const { task, feedback, gate, guard } = context;
  const start = state.screen;
  // A one-unit commitment's expectation speaks about this unit's effect.
  const expectation = items.length === 1 && plan.expectation.trim() !== '' ? parsePredicate(plan.expectation) : undefined;
  const executed: ExecutedUnit[] = [];
  for (const [index, item] of items.entries()) {
    const current = index === 0 ? units[0] : state.screen.perception.units.find((candidate) => candidate.id === item.unit);
    if (!current) return { start, executed, unfinished: `stopped after ${index} of ${items.length} units: ${item.unit} is not on the new screen` };
    // The first unit's preconditions were checked when the commitment was admitted; a later one's hold or not on the screen the earlier units left.
    const unmet = index === 0 ? undefined : unitPrecondition(current);
    if (unmet) return { start, executed, unfinished: `stopped after ${index} of ${items.length} units: ${unmet.reason}` };
    const key = actionKey(current, item);
    state.sameActionRepeats = key === state.lastActionKey ? state.sameActionRepeats + 1 : 1;
    state.lastActionKey = key;
    let result = await executeUnit(context, current, item, state.screen, expectation);
    state.steps += 1;
    if (feedback) {
      // No change on an icon whose effect may be pixels only (a star): tapping again may undo it, so vision looks at once.
      const pixelOnly = result.outcome.code === pixelOnlyCode;
      const decision = pixelOnly ? gate.pixelOnly() : gate.recordOutcome({ fingerprint: unitFingerprint(current, state.screen), bounds: current.bounds }, result.outcome.outcome);
      if (decision.open) recordGate(context, state, decision);
      if (decision.open && context.visionAllowed) result = await relocateByVision(context, state, plan, result, expectation, pixelOnly);
      state.verification[result.outcome.outcome] += 1;
      if (result.outcome.outcome === 'pass') state.verified.add(result.unit.id);
    }
    executed.push(result);
    state.screen = result.after;
    const stop = (feedback && result.outcome.outcome === 'fail') || !guard.allows(state.screen.perception.tree.packageName) || state.steps >= task.stepBudget;
    if (stop) break;
  }
  return { start, executed, unfinished: '' };
}

/**
 * After repeated failure on one target: asks vision where the intended unit is on the
 * screen the failure left, and runs the plan's item on the located unit when that is
 * admissible and the budget allows; otherwise the failed result stands.
 */
async function relocateByVision(context: SenseActContext, state: SenseActState, plan: PlanReply, failed: ExecutedUnit, expectation: Predicate | undefined, pixelOnly: boolean): Promise<ExecutedUnit> {
  const after = failed.after;
  state.screen = after;
  const candidates = after.perception.units.filter((candidate) => candidate.tap !== null && candidate.type === failed.unit.type);
  const { unit: located, alreadyDone } = await askVision(context, { intent: plan.intent, failure: failed.outcome.reason, target: failed.unit }, candidates);
  if (!located && pixelOnly && alreadyDone) {
    // The effect shows only in the pixels: vision saw it, so the unit passed, weakly.
    const reason = `vision: the effect of ${failed.unit.type} "${failed.unit.label}" shows in the pixels`;
    context.session.trace.emit({ type: 'verify-end', step: context.session.step, outcome: 'pass', reason, by: 'vlm' });
    return { ...failed, outcome: { outcome: 'pass', reason, evidence: [], strength: 'weak' } };
  }
  if (!located) return failed;
  const item = { ...failed.item, unit: located.id };
  const check = admissibleCommitment(context, [item], after, state.verified, state.learnedEdges);
  const unit = check.ok ? check.units[0] : undefined;
  if (!unit || state.steps >= context.task.stepBudget) return failed;
  const retried = await executeUnit(context, unit, item, after, expectation);
  state.steps += 1;
  return retried;
}
