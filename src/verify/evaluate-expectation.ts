import type { NodeIndex, UiNode, UiTree } from '../ui/ui-tree.js';
import { assertNever } from '../util/assert-never.js';
import type { Delta } from './compute-delta.js';
import { evaluatePredicate } from './evaluate-predicate.js';
import { findNodes, subtreeEnd } from './find-nodes.js';
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

/**
 * The code of an expectation whose only evidence is that something is gone, on a new page
 * that never showed where it was (`absent(text="Eggs")` after leaving the list): the
 * absence says nothing about the thing, so it fails.
 */
export const goneWithPageCode = 'gone-with-page';

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
 * Where a node was, by resource id: its own, else that of the list it sits in (the nearest
 * scrollable ancestor); '' when it has neither. A page-wide container id (`android:id/content`)
 * would say nothing about where the node was, so it is not taken.
 */
function slotId(node: UiNode, tree: UiTree): string {
  if (node.resourceId !== '') return node.resourceId;
  for (let current = tree.nodes[node.parent]; current; current = tree.nodes[current.parent]) {
    if (current.scrollable) return current.resourceId;
  }
  return '';
}

/**
 * True when a removal atom (`absent(q)`, `not exists(q)`) is newly true only because the
 * page it was on is gone: the delta is a new page, and of the nodes the query matched
 * before, none sat in a surface that was dismissed (a dialog closing is its content's
 * removal) and none has its slot (`slotId`) on the after screen. A thing deleted from a
 * list that stays, or from a list shown again on the new page without it, keeps its evidence.
 */
function goneWithPage(atom: Atom, context: ExpectationContext): boolean {
  if (context.delta.label !== 'new-page' || (atom.kind !== 'absent' && atom.kind !== 'exists')) return false;
  const { before, after, delta } = context;
  const matched = findNodes(atom.query, before).matches;
  const inDismissed = (index: NodeIndex): boolean => delta.surfacesRemoved.some((surface) => index >= surface.root && index < subtreeEnd(before, surface.root));
  if (matched.some(inDismissed)) return false;
  const slots = new Set(matched.map((index) => slotId(before.nodes[index]!, before)));
  slots.delete('');
  return !after.nodes.some((node) => slots.has(node.resourceId));
}

/**
 * Why an atom, read with its polarity, is evidence of change: it is true after and was
 * not true before (newly true), or, for a positive node atom, it matches a node the delta
 * changed. Undefined when it is no such evidence.
 */
function freshness(atom: Atom, positive: boolean, context: ExpectationContext, changed: ReadonlySet<NodeIndex>, vacuous: string[]): string | undefined {
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
      if (!trueBefore) {
        const removal = (atom.kind === 'absent') === positive;
        if (removal && goneWithPage(atom, context)) {
          vacuous.push(text);
          return undefined;
        }
        return `${text} is newly true`;
      }
      if (positive && after.evidence.some((ref) => ref.screen === 'after' && changed.has(ref.index))) return `${text} matches a node the action changed`;
      return undefined;
    }
    default:
      return assertNever(atom, 'predicate atom');
  }
}

function findFresh(predicate: Predicate, positive: boolean, context: ExpectationContext, changed: ReadonlySet<NodeIndex>, vacuous: string[]): string | undefined {
  switch (predicate.kind) {
    case 'not':
      return findFresh(predicate.operand, !positive, context, changed, vacuous);
    case 'and':
    case 'or':
      for (const operand of predicate.operands) {
        const found = findFresh(operand, positive, context, changed, vacuous);
        if (found !== undefined) return found;
      }
      return undefined;
    default:
      return freshness(predicate, positive, context, changed, vacuous);
  }
}

/**
 * Evaluates an intent's expectation as evidence of an action (docs/architecture.md §2.4): it must
 * hold after the action, and at least one of its atoms must be newly true (false or
 * absent before, true after) or match nodes the delta changed. A failing or
 * inconclusive expectation is returned as `evaluatePredicate` gives it; one that holds
 * with fresh evidence passes with `strength: 'strong'`; one that held before the action
 * already verifies nothing: it comes back `inconclusive` with `code: 'stale-expectation'`,
 * and callers let the unit's contract decide instead (so a tap that changed nothing still
 * fails). One whose only fresh atoms are removals made true by leaving their page
 * (`goneWithPage`) fails with `code: 'gone-with-page'`.
 */
export function evaluateExpectation(predicate: Predicate, context: ExpectationContext): VerifyOutcome {
  const result = evaluatePredicate(predicate, { after: context.after, before: context.before, delta: context.delta });
  if (result.outcome !== 'pass') return result;
  const vacuous: string[] = [];
  const fresh = findFresh(predicate, true, context, changedAfterNodes(context.delta), vacuous);
  if (fresh !== undefined) return { ...result, reason: `${result.reason} (new evidence: ${fresh})`, strength: 'strong' };
  if (vacuous.length > 0) {
    return {
      outcome: 'fail',
      reason: `${vacuous.join(', ')} holds only because the page it was on is gone (new page, ρ=${context.delta.rho.toFixed(2)}), and this page does not show where it was: no evidence that it was removed`,
      evidence: result.evidence,
      code: goneWithPageCode,
    };
  }
  return {
    outcome: 'inconclusive',
    reason: `the expectation ${printPredicate(predicate)} already held before the action, so it is no evidence of it (${result.reason})`,
    evidence: result.evidence,
    code: staleExpectationCode,
  };
}
