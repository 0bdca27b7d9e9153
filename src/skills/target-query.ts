import type { ControlUnit } from '../perception/control-unit.js';
import type { Perception } from '../perception/perceive.js';
import type { UiNode, UiTree } from '../ui/ui-tree.js';
import { findNodes, subtreeEnd } from '../verify/find-nodes.js';
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

/**
 * Labels of a node's row: texts and descriptions in the subtrees of its ancestors (one to
 * three levels up) other than its own, nearest level first; with `nearestOnly`, only the
 * first level that holds any.
 */
export function rowLabels(node: UiNode, tree: UiTree, nearestOnly = false): UiNode[] {
  const labels: UiNode[] = [];
  const seen = new Set<number>([node.index]);
  let top = node;
  for (let level = 0; level < 3; level++) {
    const parent = tree.nodes[top.parent];
    if (!parent) break;
    top = parent;
    const stack = [...top.children];
    while (stack.length > 0) {
      const other = tree.nodes[stack.pop() as number];
      if (!other) continue;
      stack.push(...other.children);
      if (seen.has(other.index)) continue;
      seen.add(other.index);
      if (other.text.trim() !== '' || other.contentDesc.trim() !== '') labels.push(other);
    }
    if (nearestOnly && labels.length > 0) return labels;
  }
  return labels;
}

/**
 * Label-free queries for a node whose label may go missing: its resource-id alone, or its
 * id (else its class) near a label of its row that is shown once on the screen (a text
 * before a description: icons lose descriptions, rows keep their texts). Each must find
 * the node and no other.
 */
function labelFreeQueries(node: UiNode, tree: UiTree): Query[] {
  const equals = (value: string) => ({ op: 'equals' as const, value });
  const kind: Query = node.resourceId === '' ? { is: node.className.split('.').at(-1) ?? node.className } : { id: equals(shortId(node.resourceId)) };
  const queries: Query[] = node.resourceId === '' ? [] : [kind];
  const anchors: Query[] = [];
  for (const label of rowLabels(node, tree)) if (label.text.trim() !== '') anchors.push({ text: equals(label.text.trim()) });
  for (const label of rowLabels(node, tree)) if (label.contentDesc.trim() !== '') anchors.push({ desc: equals(label.contentDesc.trim()) });
  // `near` measures from the first node its anchor finds: an anchor shown twice could measure from either.
  for (const anchor of anchors) if (findNodes(anchor, tree).matches.length === 1) queries.push({ ...kind, near: anchor });
  return queries.filter((query) => {
    const found = findNodes(query, tree).matches;
    return found.length === 1 && found[0] === node.index;
  });
}

/**
 * Its id (or class) near a label of its own row shown once on the screen: the smallest
 * subtree holding both the node and the label holds no other node of that id (or class).
 * A section header or a neighbour row's label would name it only by where it sits.
 */
function ownRowQueries(node: UiNode, tree: UiTree): Query[] {
  const equals = (value: string) => ({ op: 'equals' as const, value });
  const kind: Query = node.resourceId === '' ? { is: node.className.split('.').at(-1) ?? node.className } : { id: equals(shortId(node.resourceId)) };
  const alike = findNodes(kind, tree).matches;
  const queries: Query[] = [];
  for (const label of rowLabels(node, tree)) {
    let shared = tree.nodes[node.parent];
    while (shared && !(label.index > shared.index && label.index < subtreeEnd(tree, shared.index))) shared = tree.nodes[shared.parent];
    if (!shared) continue;
    const end = subtreeEnd(tree, shared.index);
    if (alike.some((other) => other !== node.index && other > shared.index && other < end)) continue;
    for (const anchor of [{ text: equals(label.text.trim()) }, { desc: equals(label.contentDesc.trim()) }]) {
      const value = (anchor as { text?: { value: string }; desc?: { value: string } }).text?.value ?? (anchor as { desc?: { value: string } }).desc?.value ?? '';
      if (value !== '' && findNodes(anchor, tree).matches.length === 1) queries.push({ ...kind, near: anchor });
    }
  }
  return queries;
}

/** A unit's target: the query that names it, and a label-free one to fall back on when its label is gone. */
export interface UnitTarget {
  readonly query: Query;
  /** By a resource-id that names the unit alone; used when `query` finds nothing and the unit it names shows no label at all. */
  readonly fallback?: Query;
  /**
   * The class (short name) of the node `query` names: a target whose label becomes a
   * parameter keeps it, so another value cannot name another kind of node (a time
   * picker's "30 minutes" is both a dial number and, when 30 is picked, the minute chip).
   */
  readonly role?: string;
}

/**
 * A robust target query for `unit` on the screen it was perceived on: selectors on the
 * unit's own nodes (its members and what they hold: content-desc, text, hint,
 * resource-id, role), the first that resolves (`resolveUnit`) to this unit and no other;
 * failing that, its id (or class) near a label of its row shown once on the screen. Never
 * a rank, a node id or coordinates, so it can find the unit again on a new screen. When the query names
 * the unit by a label, a label-free fallback (its resource-id, or its id or class near a
 * label of its row shown once) is kept for a screen where the label is missing. Returns undefined when nothing names the unit alone: a skill
 * must not guess at such a target.
 */
export function targetQueryFor(unit: ControlUnit, perception: Perception): UnitTarget | undefined {
  const nodes = nodesOf(unit, perception);
  const all = nodes.flatMap(candidatesOf);
  // Failing its own selectors, its id (or class) near a label of its own row shown once (`id="photo", near(text="Maria Garcia")`); never a rank, which a reordered list would point at another row.
  const query = all.find((candidate) => namesAlone(candidate, unit, perception))
    ?? nodes.flatMap((node) => ownRowQueries(node, perception.tree)).find((candidate) => namesAlone(candidate, unit, perception));
  if (!query) return undefined;
  const named = perception.tree.nodes[findNodes(query, perception.tree).matches[0] ?? -1];
  const role = named === undefined ? undefined : (named.className.split('.').at(-1) ?? named.className);
  const labelled = query.text !== undefined || query.desc !== undefined || query.hint !== undefined;
  if (!labelled) return { query, ...(role ? { role } : {}) };
  // Only a query that names the unit alone, never a bare rank among look-alikes; tried first on the node the label was on, and used by the replay only on a node that shows no label at all.
  const carriers = findNodes(query, perception.tree).matches.map((index) => perception.tree.nodes[index]).filter((node): node is UiNode => node !== undefined);
  const fallback = [...carriers, ...nodes].flatMap((node) => labelFreeQueries(node, perception.tree)).find((candidate) => namesAlone(candidate, unit, perception));
  return { query, ...(fallback ? { fallback } : {}), ...(role ? { role } : {}) };
}
