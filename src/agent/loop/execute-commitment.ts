import type { ControlUnit } from '../../perception/control-unit.js';
import { unitPrecondition } from '../../perception/unit-precondition.js';
import { parsePredicate } from '../../verify/parse-predicate.js';
import { pixelOnlyCode } from '../../verify/verify-unit-step.js';
import type { Screen } from '../agent-session.js';
import { executeUnit } from './execute-unit.js';
import { irreversibleAction } from './irreversible-action.js';
import { relocateByVision } from './relocate-by-vision.js';
import type { CommitmentItem, PlanReply } from '../planning/plan-reply.js';
import { recordGate, recordUnitVerdict, unitFingerprint, type ExecutedUnit, type SenseActContext, type SenseActState } from './senseact-state.js';

/** What running a commitment left behind. */
export interface CommitmentRun {
  /** The screen before the first unit. */
  readonly start: Screen;
  readonly executed: readonly ExecutedUnit[];
  /** Set when the commitment stopped early because a later unit was gone from the screen or its typed precondition failed there. */
  readonly unfinished: string;
  /** Set when `halt` stopped it before a later unit: how many units ran. */
  readonly haltedAfter?: number;
}

/** How a caller may stop a commitment between units. */
export interface CommitmentOptions {
  /** Asked before each unit after the first, on the screen the units before it left: a reason stops the commitment there. */
  readonly halt?: (screen: Screen) => string | undefined;
}

/** The key of "the same action" for the repeated-action guard. */
function actionKey(unit: ControlUnit, item: CommitmentItem): string {
  return JSON.stringify([unit.members[0]?.resourceId ?? unit.id, unit.label, unit.bounds, item.value, item.checked, item.direction]);
}

/**
 * Runs an admissible commitment unit by unit (docs/architecture.md §2.5–2.7). Later units are found
 * again on the screen the earlier ones left (ids are stable); one that is gone, or whose
 * typed precondition fails there (disabled, covered, off-screen), ends the commitment. With execution feedback, a failed unit stops it, and a target that failed
 * `τ` times in a row opens the gate: vision gets the failed unit and the screen's units
 * of its type, and the located unit runs with the plan's arguments once it passes the
 * admissibility check. Leaving the allowed apps or the step budget stops it too.
 */
export async function executeCommitment(context: SenseActContext, state: SenseActState, plan: PlanReply, items: readonly CommitmentItem[], units: readonly ControlUnit[], options: CommitmentOptions = {}): Promise<CommitmentRun> {
  const { task, feedback, gate, guard } = context;
  const start = state.screen;
  // A one-unit commitment's expectation speaks about this unit's effect.
  const expectation = items.length === 1 && plan.expectation.trim() !== '' ? parsePredicate(plan.expectation) : undefined;
  const executed: ExecutedUnit[] = [];
  for (const [index, item] of items.entries()) {
    const halt = index === 0 ? undefined : options.halt?.(state.screen);
    if (halt !== undefined) return { start, executed, unfinished: `stopped after ${index} of ${items.length} units: ${halt}`, haltedAfter: index };
    const current = index === 0 ? units[0] : state.screen.perception.units.find((candidate) => candidate.id === item.unit);
    if (!current) return { start, executed, unfinished: `stopped after ${index} of ${items.length} units: ${item.unit} is not on the new screen` };
    // The first unit's preconditions were checked when the commitment was admitted; a later one's hold or not on the screen the earlier units left.
    const unmet = index === 0 ? undefined : unitPrecondition(current);
    if (unmet) return { start, executed, unfinished: `stopped after ${index} of ${items.length} units: ${unmet.reason}` };
    const held = await holdIrreversible(context, current, state.screen);
    if (held !== undefined) return { start, executed, unfinished: `stopped after ${index} of ${items.length} units: ${held}` };
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
      if (decision.open && context.visionAllowed) result = await relocateByVision(context, state, plan, result, expectation, pixelOnly ? 'pixel-only' : 'relocate');
      recordUnitVerdict(state, result);
    }
    executed.push(result);
    state.screen = result.after;
    const stop = (feedback && result.outcome.outcome === 'fail') || !guard.allows(state.screen.perception.tree.packageName) || state.steps >= task.stepBudget;
    if (stop) break;
  }
  return { start, executed, unfinished: '' };
}

/**
 * Why `unit` may not run under the context's irreversible policy (it cannot be undone, and
 * nothing allowed it: no `allow`, and `confirm` said no or is absent), or undefined when it may.
 */
async function holdIrreversible(context: SenseActContext, unit: ControlUnit, screen: Screen): Promise<string | undefined> {
  const policy = context.irreversible;
  if (!policy || policy.allow) return undefined;
  const action = irreversibleAction(unit, screen.perception, policy.words);
  if (!action) return undefined;
  const what = `${unit.type} "${unit.label}" cannot be undone (${action.reason})`;
  if (!policy.confirm) return `${what} and nobody can confirm it: refused`;
  return (await policy.confirm(action)) ? undefined : `${what} and the person declined it`;
}
