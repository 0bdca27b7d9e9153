import type { ControlUnit, ScgEdge, UnitId } from '../../perception/control-unit.js';
import { addEdges, checkCommitment } from '../../perception/scg.js';
import { unitPrecondition } from '../../perception/unit-precondition.js';
import type { Screen } from '../agent-session.js';
import type { CommitmentItem } from '../planning/plan-reply.js';
import type { SenseActContext } from './senseact-state.js';
import { unitActions } from './unit-actions.js';

/** A commitment's verdict: its units on the screen, or why it cannot run (`guard` when it would leave the allowed apps). */
export type Admissibility = { ok: true; units: ControlUnit[] } | { ok: false; reason: string; guard?: true };

/**
 * Whether a commitment may run on `screen` (docs/architecture.md §2.4): every unit is on the screen,
 * none would leave the allowed apps, every item maps onto device actions, the first unit's
 * typed preconditions hold (enabled, not covered, not off-screen: later units may be
 * enabled, uncovered or scrolled in by the ones before them, so `executeCommitment`
 * checks each on the screen it meets), and every unit's SCG predecessors are earlier in
 * the commitment or already verified — the screen's own edges and the `learned` ones a
 * planner proposed earlier (those between units of this screen). Traces the
 * verdict (`commitment-end`, and `guard-end` for a refusal of the guard).
 */
export function admissibleCommitment(context: SenseActContext, commitment: readonly CommitmentItem[], screen: Screen, verified: ReadonlySet<UnitId>, learned: readonly ScgEdge[] = []): Admissibility {
  const check = judge(context, commitment, screen, verified, learned);
  const { session } = context;
  session.trace.emit({ type: 'commitment-end', step: session.step, admissible: check.ok, units: [...commitment], ...(check.ok ? {} : { reason: check.reason }) });
  if (!check.ok && check.guard) context.guard.traceRefusal(session, screen.perception.tree.packageName, check.reason);
  return check;
}

function judge(context: SenseActContext, commitment: readonly CommitmentItem[], screen: Screen, verified: ReadonlySet<UnitId>, learned: readonly ScgEdge[]): Admissibility {
  const units: ControlUnit[] = [];
  for (const [position, item] of commitment.entries()) {
    const unit = screen.perception.units.find((candidate) => candidate.id === item.unit);
    if (!unit) return { ok: false, reason: `unit "${item.unit}" is not on this screen; use an id from the view` };
    const unmet = position === 0 ? unitPrecondition(unit) : undefined;
    if (unmet) return { ok: false, reason: unmet.reason };
    const refusal = context.guard.refusal(unit, item, screen);
    if (refusal !== undefined) return { ok: false, reason: refusal, guard: true };
    const actions = unitActions(unit, item);
    if ('problem' in actions) return { ok: false, reason: actions.problem };
    units.push(unit);
  }
  const scg = learned.length === 0 ? screen.perception.scg : addEdges(screen.perception.scg, learned).scg;
  const check = checkCommitment(scg, units.map((unit) => unit.id), verified);
  if (!check.admissible) return { ok: false, reason: check.reason };
  return { ok: true, units };
}
