import type { UiTree } from '../ui/ui-tree.js';
import type { Delta } from './compute-delta.js';
import { evaluateExpectation, staleExpectationCode } from './evaluate-expectation.js';
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
 * Verifies an executed intent (docs/architecture.md §2.6): the expectation over the whole
 * commitment's change, judged as evidence of change (`evaluateExpectation`), combined
 * with the unit verdicts (any fail → fail, else any inconclusive → inconclusive, else
 * pass). An expectation that already held before the commitment verifies nothing: the
 * units decide, and the reason says so. Pure; the loop and verify-replay share it.
 */
export function verifyIntent(input: IntentInput): IntentVerdict {
  if (input.expectation === undefined) return { combined: verifyCommitment(input.unitOutcomes) };
  const expectationOutcome = evaluateExpectation(input.expectation, { before: input.before, after: input.after, delta: input.delta });
  if (expectationOutcome.code === staleExpectationCode) {
    const combined = verifyCommitment(input.unitOutcomes);
    return { combined: { ...combined, reason: `${combined.reason}; ${expectationOutcome.reason}` }, expectationOutcome };
  }
  return { combined: verifyCommitment(input.unitOutcomes, expectationOutcome), expectationOutcome };
}
