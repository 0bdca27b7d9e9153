import type { UiTree } from '../ui/ui-tree.js';
import type { Delta } from './compute-delta.js';
import { evaluatePredicate } from './evaluate-predicate.js';
import type { Predicate } from './predicate.js';
import { verifyCommitment } from './unit-contract.js';
import type { VerifyOutcome } from './verify-outcome.js';

/** What an intent is verified on once its commitment ran: the unit verdicts and the screens around the whole commitment. */
export interface IntentInput {
  /** The intent's expectation; omit when the planner wrote none. */
  readonly expectation?: Predicate;
  /** The screen before the commitment's first unit. */
  readonly before: UiTree;
  /** The screen after its last executed unit. */
  readonly after: UiTree;
  /** The delta of `before` → `after`. */
  readonly delta: Delta;
  /** The verdict of each executed unit, in order. */
  readonly unitOutcomes: readonly VerifyOutcome[];
}

/** The intent's verdict, and the expectation's own outcome for the trace. */
export interface IntentVerdict {
  readonly combined: VerifyOutcome;
  readonly expectationOutcome?: VerifyOutcome;
}

/**
 * Verifies an executed intent (DESIGN.md §1.6): the expectation over the whole
 * commitment's change, combined with the unit verdicts (any fail → fail, else any
 * inconclusive → inconclusive, else pass). Pure; the loop and verify-replay share it.
 */
export function verifyIntent(input: IntentInput): IntentVerdict {
  const expectationOutcome = input.expectation === undefined ? undefined : evaluatePredicate(input.expectation, { after: input.after, before: input.before, delta: input.delta });
  const combined = verifyCommitment(input.unitOutcomes, expectationOutcome);
  return expectationOutcome === undefined ? { combined } : { combined, expectationOutcome };
}
