import type { ControlUnit } from '../perception/control-unit.js';
import type { Perception } from '../perception/perceive.js';
import type { NodeIndex } from '../ui/ui-tree.js';
import { findNodes } from './find-nodes.js';
import type { Query } from './predicate.js';

/** The units a targeting query points at, ranked like the nodes that matched. */
export interface ResolvedUnits {
  readonly units: readonly ControlUnit[];
  /** Why the list is empty (no node matched, or no unit holds the matched nodes). */
  readonly problem?: string;
}

/**
 * Resolves a targeting query to control units: the query runs over the full tree, and
 * each matched node maps to the unit that has it as a member, or else to the unit whose
 * member is its nearest ancestor (a label inside a clickable row targets the row).
 * Duplicates are dropped; more than one unit means the target is ambiguous.
 */
export function resolveUnit(query: Query, perception: Perception): ResolvedUnits {
  const found = findNodes(query, perception.tree);
  if (found.matches.length === 0) return { units: [], problem: found.problem ?? 'no node matches the query' };
  const unitOfNode = new Map<NodeIndex, ControlUnit>();
  for (const unit of perception.units) {
    for (const member of unit.members) if (!unitOfNode.has(member.node)) unitOfNode.set(member.node, unit);
  }
  const units: ControlUnit[] = [];
  const seen = new Set<string>();
  for (const match of found.matches) {
    let index: NodeIndex = match;
    let unit = unitOfNode.get(index);
    while (!unit && index >= 0) {
      index = perception.tree.nodes[index]?.parent ?? -1;
      unit = unitOfNode.get(index);
    }
    if (unit && !seen.has(unit.id)) {
      seen.add(unit.id);
      units.push(unit);
    }
  }
  return units.length > 0 ? { units } : { units, problem: `${found.matches.length} node(s) match but none belongs to a control unit` };
}
