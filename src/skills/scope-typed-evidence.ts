import type { UiTree } from '../ui/ui-tree.js';
import { findNodes } from '../verify/find-nodes.js';
import type { Predicate, Query } from '../verify/predicate.js';

/** True when one of the query's own labels compares a value the step typed. */
function namesTyped(query: Query, typed: readonly string[]): boolean {
  return (['text', 'label'] as const).some((field) => {
    const match = query[field];
    if (!match || match.op === 'matches') return false;
    const value = match.value.trim().toLowerCase();
    return value !== '' && typed.some((entry) => entry.trim().toLowerCase() === value);
  });
}

/** The query narrowed to the class of the nodes it found on the recorded screen, when none is an edit field and they share one class. */
function scoped(query: Query, typed: readonly string[], after: UiTree): Query {
  // An id does not keep the echo out: `id~"note_title"` also finds the rename dialog's `locked_note_title` field.
  if (query.is !== undefined || !namesTyped(query, typed)) return query;
  const nodes = findNodes(query, after).matches.map((index) => after.nodes[index]);
  if (nodes.length === 0 || nodes.some((node) => node === undefined || node.editable || node.password)) return query;
  const classes = new Set(nodes.map((node) => node?.className ?? ''));
  const only = [...classes][0];
  if (classes.size !== 1 || only === undefined || only === '') return query;
  return { is: only.split('.').at(-1) ?? only, ...query };
}

/**
 * A step's expectation with its evidence kept apart from the step's own input: an atom
 * that looks for a text the step typed (`exists(text="Butter")` after typing Butter into
 * a dialog and pressing OK) is also satisfied by the field that still holds it, so on a
 * replay where the OK was lost (a tap an interstitial took) the echo would pass the step.
 * Where the recorded after-screen shows that text on nodes of one class and none of them
 * an edit field, the atom keeps that class (`is=TextView`). Atoms under a `not` look for
 * absence and are left as they are. Pure.
 */
export function scopeTypedEvidence(predicate: Predicate, typed: readonly string[], after: UiTree): Predicate {
  if (typed.length === 0) return predicate;
  switch (predicate.kind) {
    case 'and':
    case 'or':
      return { kind: predicate.kind, operands: predicate.operands.map((operand) => scopeTypedEvidence(operand, typed, after)) };
    case 'not':
      return predicate;
    case 'exists':
    case 'unique':
    case 'count':
    case 'text':
      return { ...predicate, query: scoped(predicate.query, typed, after) };
    default:
      return predicate;
  }
}
