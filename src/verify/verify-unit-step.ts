import type { ControlUnit } from '../perception/control-unit.js';
import type { UiTree } from '../ui/ui-tree.js';
import { computeDelta, type Delta } from './compute-delta.js';
import type { Predicate } from './predicate.js';
import { unitContract, type ContractArgs } from './unit-contract.js';
import type { VerifyOutcome } from './verify-outcome.js';

/** What one executed unit is verified on: the unit as perceived before, its arguments, both screens. */
export interface UnitStepInput {
  /** The unit as perception typed it on `before` (its members index `before`). */
  readonly unit: ControlUnit;
  /** The commitment's arguments for the unit (value, wanted checked state, package). */
  readonly args: ContractArgs;
  /**
   * The intent's expectation, when this unit is the whole commitment (then the
   * expectation speaks about this unit's effect); omit it otherwise.
   */
  readonly expectation?: Predicate;
  readonly before: UiTree;
  readonly after: UiTree;
  /** The delta of `before` → `after`, when the caller has it already. */
  readonly delta?: Delta;
}

/** The verdict on one executed unit (a `VerifyOutcome` the loop, skills and verify-replay share). */
export type UnitStepVerdict = VerifyOutcome;

/**
 * True when the unit already shows what the commitment wants, so acting would change
 * nothing and the loop does not act: a select whose option is already chosen, a toggle
 * already in the wanted `checked` state.
 */
export function alreadyInWantedState(unit: ControlUnit, args: ContractArgs): boolean {
  if (unit.type === 'select') return unit.state.selected === true;
  if (unit.type === 'toggle') return args.checked !== undefined && unit.state.checked === args.checked;
  return false;
}

/**
 * Verifies one executed unit (DESIGN.md §1.6) from the screens before and after it:
 * the unit type's contract Δτ, with the intent's expectation in place of "something
 * changed" for a single click, and a tap on what was already selected (the current
 * tab) passing when nothing changed. Pure: the control loop, skills and
 * `senseact verify-replay` all call this one function, so they cannot drift apart.
 */
export function verifyUnitStep(input: UnitStepInput): UnitStepVerdict {
  const { unit, before, after } = input;
  const delta = input.delta ?? computeDelta(before, after);
  const args = unit.type === 'click' && input.expectation ? { ...input.args, expectation: input.expectation } : input.args;
  const outcome = unitContract(unit, args, before, after, delta);
  // Tapping what is already selected (a clock-face number, the current tab) changes nothing, and that is its effect.
  if (outcome.outcome === 'fail' && delta.label === 'no-change' && unit.state.selected === true) {
    return { outcome: 'pass', reason: `${unit.type} "${unit.label}" was already selected and still is`, evidence: outcome.evidence };
  }
  return outcome;
}
