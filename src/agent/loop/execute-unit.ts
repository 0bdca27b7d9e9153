import type { ControlUnit } from '../../perception/control-unit.js';
import { computeDelta } from '../../verify/compute-delta.js';
import type { Predicate } from '../../verify/predicate.js';
import { verifyUnitStep } from '../../verify/verify-unit-step.js';
import type { VerifyOutcome } from '../../verify/verify-outcome.js';
import type { Screen } from '../agent-session.js';
import type { CommitmentItem } from '../planning/plan-reply.js';
import { contractArgs, type ExecutedUnit, type SenseActContext } from './senseact-state.js';
import { unitActions } from './unit-actions.js';

/** Extra observations after an action that seemed to change nothing, for effects that arrive late. */
export const graceObservations = 2;

/** The code of a unit whose command the device refused (typing with no field focused: the focusing tap did not reach the field). */
export const refusedCode = 'refused';

/**
 * The execute phase for one unit (docs/architecture.md §2.5): acts it, observes the settled result
 * (looking again up to {@link graceObservations} times when nothing seems to have
 * changed: a slow app is not a failed tap) and, with execution feedback, verifies it
 * with `verifyUnitStep` — its type's contract, with `expectation` in place of "something
 * changed" when the unit is the whole commitment, the run's transition memory (a
 * pass is learned into it) and its place on the session's `PageTrail` (for a dialog
 * dumped alone, the page it was opened from; the page Back leads to; a Back that passed
 * takes its page off the trail). A command the device refuses fails the unit; a unit
 * already in the wanted state needs no action and passes.
 */
export async function executeUnit(context: SenseActContext, unit: ControlUnit, item: CommitmentItem, before: Screen, expectation: Predicate | undefined): Promise<ExecutedUnit> {
  const { session, feedback } = context;
  const place = session.pages.note(before.perception.tree);
  const actions = unitActions(unit, item);
  if ('problem' in actions) throw new Error(`unit ${unit.id}: ${actions.problem} (an admissible commitment maps onto actions: this is a bug)`);
  const refused = await session.act(actions, unit.id);
  let after = actions.length === 0 ? before : await session.observe('after.xml');
  let delta = session.timeVerification(() => computeDelta(before.perception.tree, after.perception.tree));
  for (let grace = 0; feedback && refused === undefined && actions.length > 0 && delta.label === 'no-change' && grace < graceObservations; grace++) {
    after = await session.observe('after.xml');
    delta = session.timeVerification(() => computeDelta(before.perception.tree, after.perception.tree));
  }
  const executed = (outcome: VerifyOutcome): ExecutedUnit => ({ unit, item, outcome, before, after, delta });
  if (!feedback) return executed({ outcome: 'inconclusive', reason: 'feedback off', evidence: [] });
  if (actions.length === 0) return executed({ outcome: 'pass', reason: `${unit.type} "${unit.label}" already in the wanted state`, evidence: [] });
  const outcome: VerifyOutcome = refused !== undefined
    ? { outcome: 'fail', reason: `${unit.type} "${unit.label}": the device refused the action (${refused})`, evidence: [], code: refusedCode }
    : session.timeVerification(() => verifyUnitStep({ unit, args: contractArgs(item, unit), ...(expectation ? { expectation } : {}), before: before.perception.tree, after: after.perception.tree, delta, memory: session.transitions, ...place }));
  if (outcome.outcome === 'pass') session.transitions.learn(unit, before.perception.tree, after.perception.tree);
  if (outcome.outcome === 'pass' && unit.navigation === 'back') session.pages.back();
  session.trace.emit({ type: 'verify-end', step: session.step, outcome: outcome.outcome, reason: outcome.reason, label: delta.label, by: 'contract', ...(outcome.strength ? { strength: outcome.strength } : {}), ...(outcome.tie ? { tie: outcome.tie } : {}) });
  return executed(outcome);
}
