import { boundsArea, boundsContainsPoint } from '../ui/bounds.js';
import { systemUiPackage } from '../ui/parse-hierarchy.js';
import type { NodeIndex, UiNode } from '../ui/ui-tree.js';
import type { UnitId } from './control-unit.js';
import type { Perception } from './perceive.js';
import { visibleBounds } from './reduce-tree.js';

/** Result of `findLostActionables`. */
export interface ActionableCoverage {
  /** Source nodes that had to be covered (actionable, displayed, with visible area). */
  readonly checked: number;
  /** SystemUI nodes left out on purpose (`removeSystemBar`). */
  readonly excludedSystemBar: number;
  /** Nodes no unit can act on, with why. */
  readonly lost: readonly { readonly node: NodeIndex; readonly reason: string }[];
  /**
   * Units whose tap point lies on another unit nested inside them (the nested one would
   * take the touch): only when the nested units cover the whole unit. Scroll units are
   * not counted (a swipe on a child still scrolls the container).
   */
  readonly hijacked: readonly { readonly unit: UnitId; readonly by: UnitId }[];
}

function isActionableNode(node: UiNode): boolean {
  return node.clickable || node.longClickable || node.checkable || node.editable || node.scrollable;
}

/**
 * Checks that reduction lost nothing a user could act on: every clickable,
 * long-clickable, checkable, editable or scrollable node that is displayed and has
 * visible area must be a member of a control unit whose tap point lies inside the
 * node's visible bounds — or, for a node without a click handler of its own (a
 * switch inside its row), inside the unit's primary node that is its ancestor.
 */
export function findLostActionables(perception: Perception): ActionableCoverage {
  const { tree } = perception;
  const visible = visibleBounds(tree);
  const unitOf = new Map<NodeIndex, { id: UnitId; tap: readonly [number, number]; primary: NodeIndex }>();
  for (const unit of perception.units) {
    if (unit.tap === null || unit.primary === null) continue;
    const primary = perception.byId.get(unit.primary)!.node.index;
    for (const member of unit.members) unitOf.set(member.node, { id: unit.id, tap: unit.tap, primary });
  }
  const removeSystem = perception.options.removeSystemBar && tree.packageName !== systemUiPackage;
  const hidden = new Uint8Array(tree.nodes.length);
  let checked = 0;
  let excludedSystemBar = 0;
  const lost: { node: NodeIndex; reason: string }[] = [];
  for (const node of tree.nodes) {
    if (!node.displayed || (node.parent !== -1 && hidden[node.parent])) {
      hidden[node.index] = 1;
      continue;
    }
    if (!isActionableNode(node) || boundsArea(visible[node.index]!) === 0) continue;
    if (removeSystem && node.packageName === systemUiPackage) {
      excludedSystemBar++;
      continue;
    }
    checked++;
    const unit = unitOf.get(node.index);
    if (!unit) {
      lost.push({ node: node.index, reason: `${node.className} ${node.resourceId || node.text || node.contentDesc} is in no unit` });
      continue;
    }
    if (boundsContainsPoint(visible[node.index]!, unit.tap)) continue;
    if (!node.clickable && isAncestor(tree.nodes, unit.primary, node.index) && boundsContainsPoint(visible[unit.primary]!, unit.tap)) continue;
    lost.push({ node: node.index, reason: `unit ${unit.id} taps (${unit.tap.join(',')}) outside ${node.className} ${node.resourceId || node.text} [${visible[node.index]!.join(',')}]` });
  }
  const hijacked: { unit: UnitId; by: UnitId }[] = [];
  const onScreen = perception.units.filter((unit) => unit.tap !== null && unit.primary !== null);
  const primaryOf = new Map(onScreen.map((unit) => [unit.id, perception.byId.get(unit.primary!)!.node.index]));
  for (const unit of onScreen) {
    // A scroll unit's point only anchors a swipe, which children pass on to their scrolling parent.
    if (unit.type === 'scroll') continue;
    const outer = primaryOf.get(unit.id)!;
    const by = onScreen.find((other) => other !== unit && isAncestor(tree.nodes, outer, primaryOf.get(other.id)!) && boundsContainsPoint(other.bounds, unit.tap!));
    if (by) hijacked.push({ unit: unit.id, by: by.id });
  }
  return { checked, excludedSystemBar, lost, hijacked };
}

function isAncestor(nodes: readonly UiNode[], ancestor: NodeIndex, node: NodeIndex): boolean {
  for (let current = nodes[node]!.parent; current !== -1; current = nodes[current]!.parent) if (current === ancestor) return true;
  return false;
}
