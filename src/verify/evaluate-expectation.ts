import type { NodeIndex, UiTree } from '../ui/ui-tree.js';
import { assertNever } from '../util/assert-never.js';
import type { Delta } from './compute-delta.js';
import { evaluatePredicate } from './evaluate-predicate.js';
import type { Predicate } from './predicate.js';
import { printPredicate } from './print-predicate.js';
import type { VerifyOutcome } from './verify-outcome.js';

/** The screens and delta an expectation is judged on. */
export interface ExpectationContext {
  readonly before: UiTree;
  readonly after: UiTree;
  readonly delta: Delta;
}

/** The code of an expectation that held before the action already: it is no evidence of the action. */
export const staleExpectationCode = 'stale-expectation';

/** After-tree nodes the delta changed: added, or matched with a text or flag edit. */
function changedAfterNodes(delta: Delta): Set<NodeIndex> {
  const changed = new Set<NodeIndex>();
  for (const change of delta.changes) {
    if (change.kind !== 'removed') changed.add(change.after);
  }
  return changed;
}

type Atom = Exclude<Predicate, { kind: 'not' | 'and' | 'or' }>;

/**
 * Why an atom, read with its polarity, is evidence of change: it is true after and was
 * not true before (newly true), or, for a positive node atom, it matches a node the delta
 * changed. Undefined when it is no such evidence.
 */
function freshness(atom: Atom, positive: boolean, context: ExpectationContext, changed: ReadonlySet<NodeIndex>): string | undefined {
  const after = evaluatePredicate(atom, { after: context.after, before: context.before, delta: context.delta });
  const trueAfter = positive ? after.outcome === 'pass' : after.outcome === 'fail';
  if (!trueAfter) return undefined;
  const text = `${positive ? '' : 'not '}${printPredicate(atom)}`;
  switch (atom.kind) {
    case 'screenChanged':
    case 'newSurface':
    case 'dismissedSurface':
      // These atoms are about the change itself; only their positive form says something happened.
      return positive ? `${text} holds` : undefined;
    case 'package':
    case 'activity':
    case 'exists':
    case 'absent':
    case 'unique':
    case 'count':
    case 'text':
    case 'checked':
    case 'selected':
    case 'enabled':
    case 'focused':
    case 'filled': {
      const before = evaluatePredicate(atom, { after: context.before });
      const trueBefore = positive ? before.outcome === 'pass' : before.outcome === 'fail';
      if (!trueBefore) return `${text} is newly true`;
      if (positive && after.evidence.some((ref) => ref.screen === 'after' && changed.has(ref.index))) return `${text} matches a node the action changed`;
      return undefined;
    }
    default:
      return assertNever(atom, 'predicate atom');
  }
}

function findFresh(predicate: Predicate, positive: boolean, context: ExpectationContext, changed: ReadonlySet<NodeIndex>): string | undefined {
  switch (predicate.kind) {
    case 'not':
      return findFresh(predicate.operand, !positive, context, changed);
    case 'and':
    case 'or':
      for (const operand of predicate.operands) {
        const found = findFresh(operand, positive, context, changed);
        if (found !== undefined) return found;
      }
      return undefined;
    default:
      return freshness(predicate, positive, context, changed);
  }
}

/**
 * Evaluates an intent's expectation as evidence of an action (DESIGN.md §1.5): it must
 * hold after the action, and at least one of its atoms must be newly true (false or
 * absent before, true after) or match nodes the delta changed. A failing or
 * inconclusive expectation is returned as `evaluatePredicate` gives it; one that holds
 * with fresh evidence passes with `strength: 'strong'`; one that held before the action
 * already verifies nothing: it comes back `inconclusive` with `code: 'stale-expectation'`,
 * and callers let the unit's contract decide instead (so a tap that changed nothing still
 * fails).
 */
export function evaluateExpectation(predicate: Predicate, context: ExpectationContext): VerifyOutcome {
  const result = evaluatePredicate(predicate, { after: context.after, before: context.before, delta: context.delta });
  if (result.outcome !== 'pass') return result;
  const fresh = findFresh(predicate, true, context, changedAfterNodes(context.delta));
  if (fresh !== undefined) return { ...result, reason: `${result.reason} (new evidence: ${fresh})`, strength: 'strong' };
  return {
    outcome: 'inconclusive',
    reason: `the expectation ${printPredicate(predicate)} already held before the action, so it is no evidence of it (${result.reason})`,
    evidence: result.evidence,
    code: staleExpectationCode,
  };
}
