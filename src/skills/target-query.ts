import type { ControlUnit } from '../perception/control-unit.js';
import type { Perception } from '../perception/perceive.js';
import type { UiNode } from '../ui/ui-tree.js';
import { subtreeEnd } from '../verify/find-nodes.js';
import type { Query } from '../verify/predicate.js';
import { resolveUnit } from '../verify/resolve-unit.js';

/** The short form of a resource-id (`com.x:id/fab` → `fab`): `id="fab"` matches either. */
function shortId(resourceId: string): string {
  const slash = resourceId.indexOf(':id/');
  return slash >= 0 ? resourceId.slice(slash + 4) : resourceId;
}

/** Selector sets to try on one node, most readable first. An edit field's text is its value, so it never names the field. */
function candidatesOf(node: UiNode): Query[] {
  const equals = (value: string) => ({ op: 'equals' as const, value });
  const role = node.className.split('.').at(-1) ?? node.className;
  const text = node.editable || node.password ? '' : node.text.trim();
  const desc = node.contentDesc.trim();
  const hint = node.hint.trim();
  const id = node.resourceId === '' ? '' : shortId(node.resourceId);
  const candidates: Query[] = [];
  if (desc !== '') candidates.push({ desc: equals(desc) });
  if (text !== '') candidates.push({ text: equals(text) });
  if (hint !== '') candidates.push({ hint: equals(hint) });
  if (id !== '') candidates.push({ id: equals(id) });
  if (id !== '' && text !== '') candidates.push({ text: equals(text), id: equals(id) });
  if (id !== '' && desc !== '') candidates.push({ desc: equals(desc), id: equals(id) });
  if (text !== '' && role !== '') candidates.push({ is: role, text: equals(text) });
  if (desc !== '' && role !== '') candidates.push({ is: role, desc: equals(desc) });
  return candidates;
}

/** How many units a query resolves to, and whether the first is `unit`. */
function namesAlone(query: Query, unit: ControlUnit, perception: Perception): boolean {
  const resolved = resolveUnit(query, perception);
  return resolved.units.length === 1 && resolved.units[0]?.id === unit.id;
}

/** `query` with the rank (`nth`) that picks `unit` among what it matches, when it matches the unit at all. */
function ranked(query: Query, unit: ControlUnit, perception: Perception): Query | undefined {
  const units = resolveUnit(query, perception).units;
  const rank = units.findIndex((candidate) => candidate.id === unit.id);
  if (rank < 0 || units.length > 9) return undefined;
  const withRank: Query = { ...query, nth: rank + 1 };
  return namesAlone(withRank, unit, perception) ? withRank : undefined;
}

/** The nodes of a unit (its members and what they hold), in order. */
function nodesOf(unit: ControlUnit, perception: Perception): UiNode[] {
  const tree = perception.tree;
  const nodes: UiNode[] = [];
  for (const member of unit.members) {
    const end = subtreeEnd(tree, member.node);
    for (let index = member.node; index < end; index++) {
      const node = tree.nodes[index];
      if (node) nodes.push(node);
    }
  }
  return nodes;
}

/** True when no node of the unit shows a label (text or content-desc): an icon whose label is missing. */
export function unitShowsNoLabel(unit: ControlUnit, perception: Perception): boolean {
  return nodesOf(unit, perception).every((node) => node.text.trim() === '' && node.contentDesc.trim() === '');
}

/** A unit's target: the query that names it, and a label-free one to fall back on when its label is gone. */
export interface UnitTarget {
  readonly query: Query;
  /** By a resource-id that names the unit alone; used when `query` finds nothing and the unit it names shows no label at all. */
  readonly fallback?: Query;
}

/**
 * A robust target query for `unit` on the screen it was perceived on: selectors on the
 * unit's own nodes (its members and what they hold: content-desc, text, hint,
 * resource-id, role), the first that resolves (`resolveUnit`) to this unit and no other;
 * failing that, the first with a rank (`nth`, top-to-bottom) that does. Never a node id
 * or coordinates, so it can find the unit again on a new screen. When the query names
 * the unit by a label, a label-free fallback by resource-id is kept for a screen where
 * the label is missing. Returns undefined when nothing names the unit alone: a skill
 * must not guess at such a target.
 */
export function targetQueryFor(unit: ControlUnit, perception: Perception): UnitTarget | undefined {
  const nodes = nodesOf(unit, perception);
  const all = nodes.flatMap(candidatesOf);
  const query = all.find((candidate) => namesAlone(candidate, unit, perception))
    ?? all.map((candidate) => ranked(candidate, unit, perception)).find((candidate) => candidate !== undefined);
  if (!query) return undefined;
  const labelled = query.text !== undefined || query.desc !== undefined || query.hint !== undefined;
  if (!labelled) return { query };
  const ids = nodes.filter((node) => node.resourceId !== '').map((node) => ({ id: { op: 'equals' as const, value: shortId(node.resourceId) } }));
  // Only an id that names the unit alone: a rank among look-alikes (rows of a list) would pick by position, which a missing label cannot justify.
  const fallback = ids.find((candidate) => namesAlone(candidate, unit, perception));
  return fallback ? { query, fallback } : { query };
}
