import type { Predicate } from '../../verify/predicate.js';
import { admissibleCommitment } from './admissible-commitment.js';
import { askVision } from './ask-vision.js';
import { executeUnit } from './execute-unit.js';
import type { PlanReply } from '../planning/plan-reply.js';
import type { ExecutedUnit, SenseActContext, SenseActState } from './senseact-state.js';

/**
 * What the failure vision is asked about was:
 * - `relocate`: the same target failed `τ` times in a row; a unit vision locates runs the item again;
 * - `pixel-only`: an icon without text or state changed nothing in the tree; vision seeing the
 *   effect passes it (weakly), a unit it locates runs the item again (nothing acted, so it is safe);
 * - `confirm`: the units acted and the screen changed, but the expected evidence is not in the
 *   tree (its label gone, say); vision seeing the effect passes it (weakly). Nothing runs again:
 *   after an effect, a second tap is not safe.
 */
export type VisionFailureKind = 'relocate' | 'pixel-only' | 'confirm';

/**
 * The gate's phase after a failed unit (docs/architecture.md §2.7): asks vision, on the screen the
 * failure left, which candidate of the failed unit's type achieves the intent — with the
 * failed unit, the plan's `lookFor` and its expectation in the question — and runs the
 * plan's item on the located unit when `kind` allows it, it is admissible and the budget
 * allows; vision seeing the intent already achieved passes a `pixel-only` or `confirm`
 * failure weakly. Otherwise the failed result stands. The control loop calls it when the
 * gate opens; a skill replay calls it the same way when a step's check fails.
 */
export async function relocateByVision(context: SenseActContext, state: SenseActState, plan: PlanReply, failed: ExecutedUnit, expectation: Predicate | undefined, kind: VisionFailureKind): Promise<ExecutedUnit> {
  const after = failed.after;
  state.screen = after;
  const candidates = after.perception.units.filter((candidate) => candidate.tap !== null && candidate.type === failed.unit.type);
  const question = {
    intent: plan.intent,
    failure: failed.outcome.reason,
    target: failed.unit,
    ...(plan.lookFor === undefined ? {} : { lookFor: plan.lookFor }),
    ...(plan.expectation.trim() === '' ? {} : { expectation: plan.expectation }),
  };
  const { unit: located, alreadyDone } = await askVision(context, question, candidates);
  if (!located && alreadyDone && kind !== 'relocate') {
    // The effect shows only in the pixels: vision saw it, so the unit passed, weakly.
    const reason = kind === 'pixel-only' ? `vision: the effect of ${failed.unit.type} "${failed.unit.label}" shows in the pixels` : `vision: the expected effect of ${failed.unit.type} "${failed.unit.label}" shows in the pixels`;
    context.session.trace.emit({ type: 'verify-end', step: context.session.step, outcome: 'pass', reason, by: 'vlm' });
    return { ...failed, outcome: { outcome: 'pass', reason, evidence: [], strength: 'weak' } };
  }
  if (!located || kind === 'confirm') return failed;
  const item = { ...failed.item, unit: located.id };
  const check = admissibleCommitment(context, [item], after, state.verified, state.learnedEdges);
  const unit = check.ok ? check.units[0] : undefined;
  if (!unit || state.steps >= context.task.stepBudget) return failed;
  const retried = await executeUnit(context, unit, item, after, expectation);
  state.steps += 1;
  return retried;
}
