import type { ControlUnit } from '../../perception/control-unit.js';
import { admissibleCommitment } from './admissible-commitment.js';
import { askVision } from './ask-vision.js';
import { commitmentOf, lookForUnit, type CommitmentItem, type PlanReply } from '../planning/plan-reply.js';
import { recordGate, type SenseActContext, type SenseActState } from './senseact-state.js';

/** What vision made of a `look-for` target. */
export type VisionResolution =
  /** Located: the commitment with the located unit in the placeholder's place, admissible. */
  | { readonly kind: 'resolved'; readonly items: readonly CommitmentItem[]; readonly units: readonly ControlUnit[] }
  /** Vision sees the intent's effect on screen already: nothing to act on. */
  | { readonly kind: 'already-done' }
  /** Not located (or no vision, or the located commitment is inadmissible): why, for the history. */
  | { readonly kind: 'unresolved'; readonly note: string };

/**
 * The resolve-by-vision phase (docs/architecture.md §2.7): a target the text view cannot name is a
 * gate reason on its own. Vision gets the planner's `lookFor` and the screen's tappable
 * units as candidates; the located unit takes the `look-for` placeholder's place, keeps
 * the plan's arguments, and the commitment is checked for admissibility like any other.
 * Without vision the reason is counted all the same.
 */
export async function resolveByVision(context: SenseActContext, state: SenseActState, plan: PlanReply): Promise<VisionResolution> {
  const { screen } = state;
  if (!context.visionAllowed) {
    state.gateReasons['unresolved-target'] = (state.gateReasons['unresolved-target'] ?? 0) + 1;
    return { kind: 'unresolved', note: 'target not identifiable without vision' };
  }
  recordGate(context, state, context.gate.unresolvedTarget(), plan.lookFor === undefined ? `the plan's target is not a unit of the screen (no lookFor given)` : `no unit of the screen matches the plan's target ${plan.lookFor}`);
  const candidates = screen.perception.units.filter((unit) => unit.tap !== null && unit.type !== 'finish');
  const answer = await askVision(context, { intent: plan.intent, failure: 'the target is not identifiable in the text view', ...(plan.lookFor === undefined ? {} : { lookFor: plan.lookFor }) }, candidates);
  const located = answer.unit;
  if (!located) {
    return answer.alreadyDone ? { kind: 'already-done' } : { kind: 'unresolved', note: 'vision could not locate the target either' };
  }
  const items = commitmentOf(plan).map((item) => (item.unit === lookForUnit ? { ...item, unit: located.id } : item));
  const check = admissibleCommitment(context, items, screen, state.verified, state.learnedEdges);
  if (!check.ok) return { kind: 'unresolved', note: `vision located the target but the commitment is inadmissible: ${check.reason}` };
  return { kind: 'resolved', items, units: check.units };
}
