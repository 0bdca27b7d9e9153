import { boundsArea, boundsCentre, boundsContainsPoint, intersectBounds } from '../ui/bounds.js';
import type { Bounds, NodeId, NodeIndex, UiNode, UiTree } from '../ui/ui-tree.js';
import type { BlockId, ControlUnit, UnitId, UnitMember, UnitType } from './control-unit.js';
import { isUnitNode } from './build-blocks.js';
import { isAdjustable, nodeText, resourceName, type KeptNode, type ReducedTree } from './reduce-tree.js';

/** Labels and resource-id names of buttons that seal a form (docs/architecture.md §2.2 `commit`). */
const commitWords = /^(save|done|ok|okay|apply|confirm|create|add|submit|send|post|update|allow|accept|yes|set|finish|sign in|log in|login|register|book|pay|publish)\b/i;
const commitIdWords = /^(action_|btn_|button_|menu_)?(save|done|ok|apply|confirm|create|add|submit|send|post|update|allow|accept|finish|positive)(_button|_btn|_action|_menu)?$/i;
/** A commit label is a button caption, not a sentence that happens to start with "Save". */
const maxCommitLabelWords = 3;

/** True for a unit label / resource-id that names a commit action (Save, Done, OK, Apply, …). */
export function isCommitLike(label: string, resourceId: string): boolean {
  // android:id/button1 is the positive button of framework dialogs.
  const trimmed = label.trim();
  const short = trimmed.split(/\s+/).length <= maxCommitLabelWords;
  return (short && commitWords.test(trimmed)) || commitIdWords.test(resourceName(resourceId)) || resourceId === 'android:id/button1';
}

/** The pseudo units always available (docs/architecture.md §2.2 `navigate`, `finish`): fixed ids, no tap. */
export const navBackId = 'nav-back' as UnitId;
export const navHomeId = 'nav-home' as UnitId;
export const navLaunchId = 'nav-launch' as UnitId;
export const finishId = 'finish' as UnitId;
/** Block of the pseudo units. */
export const navBlockId = 'b-nav' as BlockId;

/** Visible extent (px) under which a cut-off unit counts as off-screen: well below a touch target (48 dp ≥ 48 px). */
export const minVisibleExtent = 48;

/**
 * True when, along either axis, the visible part of a node is both under half of its
 * extent and under {@link minVisibleExtent} px: a carousel card peeking in at the screen's
 * edge, a row cut to a few pixels by its list. A node that is large but cut (a tall card
 * whose top shows) is not a sliver: its visible centre is a sound target.
 */
function isSliver(full: Bounds, visible: Bounds): boolean {
  const cut = (whole: number, shown: number): boolean => shown < whole / 2 && shown < minVisibleExtent;
  return cut(full[2] - full[0], visible[2] - visible[0]) || cut(full[3] - full[1], visible[3] - visible[1]);
}

function isTab(node: UiNode, parent: UiNode | undefined): boolean {
  return /TabView$|\$TabView|TabItem$|\$Tab$|NavigationBarItemView$|BottomNavigationItemView$/.test(node.className) || (parent !== undefined && /TabWidget$|TabLayout$/.test(parent.className));
}

function member(tree: UiTree, kept: ReadonlyMap<NodeIndex, NodeId>, index: NodeIndex, visible: readonly Bounds[]): UnitMember {
  const node = tree.nodes[index]!;
  return {
    nodeId: kept.get(index)!,
    node: index,
    bounds: visible[index]!,
    className: node.className,
    resourceId: node.resourceId,
    text: node.text,
    contentDesc: node.contentDesc,
  };
}

/** Grid used to look for a tap point that no nested unit covers. */
const tapGrid = 8;

/**
 * A tap point inside `bounds` that none of `blockers` (nested units, which would take
 * the touch) contains: the centre when it is free, else the free grid point nearest
 * to the centre, else the centre.
 */
export function freeTapPoint(bounds: Bounds, blockers: readonly Bounds[]): readonly [x: number, y: number] {
  const centre = boundsCentre(bounds);
  const free = (point: readonly [number, number]): boolean => !blockers.some((blocker) => boundsContainsPoint(blocker, point));
  if (free(centre)) return centre;
  const width = bounds[2] - bounds[0];
  const height = bounds[3] - bounds[1];
  let best: readonly [number, number] | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (let i = 0; i < tapGrid; i++) {
    for (let j = 0; j < tapGrid; j++) {
      const point = [Math.floor(bounds[0] + ((i + 0.5) * width) / tapGrid), Math.floor(bounds[1] + ((j + 0.5) * height) / tapGrid)] as const;
      const distance = (point[0] - centre[0]) ** 2 + (point[1] - centre[1]) ** 2;
      if (distance < bestDistance && free(point)) {
        best = point;
        bestDistance = distance;
      }
    }
  }
  return best ?? centre;
}

/** Visible bounds of the unit nodes nested inside each unit node (by source index). */
function nestedUnitBounds(tree: UiTree, reduced: ReducedTree): Map<NodeIndex, Bounds[]> {
  const unitNodes = new Set(reduced.nodes.filter(isUnitNode).map((kept) => kept.node));
  const nested = new Map<NodeIndex, Bounds[]>();
  for (const kept of reduced.nodes) {
    if (!unitNodes.has(kept.node)) continue;
    for (let ancestor = tree.nodes[kept.node]!.parent; ancestor !== -1; ancestor = tree.nodes[ancestor]!.parent) {
      if (unitNodes.has(ancestor)) (nested.get(ancestor) ?? nested.set(ancestor, []).get(ancestor)!).push(kept.bounds);
    }
  }
  return nested;
}

const horizontalClass = /HorizontalScrollView$|ViewPager2?$|TabLayout$|HorizontalGridView$|Carousel/;

/** Scroll direction: from the class, else horizontal when the kept children sit side by side in one row. */
function scrollOrientation(node: UiNode, kept: KeptNode, byId: ReadonlyMap<NodeId, KeptNode>): 'vertical' | 'horizontal' {
  if (horizontalClass.test(node.className)) return 'horizontal';
  const children = kept.children.map((id) => byId.get(id)!.bounds);
  if (children.length < 2) return 'vertical';
  const sameRow = children.every((bounds) => Math.abs(bounds[1] - children[0]![1]) <= 4);
  const lefts = new Set(children.map((bounds) => bounds[0]));
  return sameRow && lefts.size === children.length ? 'horizontal' : 'vertical';
}

function isAncestorOf(nodes: readonly UiNode[], ancestor: NodeIndex, node: NodeIndex): boolean {
  for (let current = nodes[node]!.parent; current !== -1; current = nodes[current]!.parent) if (current === ancestor) return true;
  return false;
}

/** What `buildUnits` needs from the block layout. */
export interface UnitContext {
  readonly blockOf: (kept: KeptNode) => BlockId;
  /** True for kept nodes inside a surface (dialog, sheet, popup). */
  readonly inSurface: (kept: KeptNode) => boolean;
  /** The surfaces on screen: their root node and visible bounds. */
  readonly surfaces: readonly { readonly root: NodeIndex; readonly bounds: Bounds }[];
}

/**
 * Builds the on-screen control units from a reduced tree: one unit per kept node that
 * is actionable or scrollable, typed fill / toggle / select / scroll / commit / click /
 * long-press, with its members (the node, what was merged into it, a label node for a
 * fill) and its tap point: the centre of the visible bounds, moved off any nested unit
 * that would take the touch (a merged clickable switch is tapped on itself). Units
 * outside a surface whose tap point lies under one are marked `occluded`; scroll units
 * get an `orientation`. The navigate/finish pseudo units are added by `pseudoUnits`.
 */
export function buildUnits(tree: UiTree, reduced: ReducedTree, context: UnitContext): ControlUnit[] {
  const nodes = tree.nodes;
  const byId = new Map<NodeId, KeptNode>(reduced.nodes.map((kept) => [kept.id, kept]));
  const nested = nestedUnitBounds(tree, reduced);
  const ownerIds = reduced.ownerOf;
  const units: ControlUnit[] = [];
  for (const [position, kept] of reduced.nodes.entries()) {
    const affordances = kept.affordances;
    const actionable = affordances.some((affordance) => affordance === 'clickable' || affordance === 'long-clickable' || affordance === 'checkable' || affordance === 'editable' || affordance === 'scrollable');
    if (!actionable) continue;
    const node = nodes[kept.node]!;
    const memberIndices = [kept.node, ...kept.merged];
    const memberNodes = memberIndices.map((index) => nodes[index]!);
    // A slider takes a value like a field does: `fill` with the value in percent.
    const editableNode = memberNodes.find((candidate) => candidate.editable || isAdjustable(candidate));
    const checkableNode = memberNodes.find((candidate) => candidate.checkable);
    const parentNode = node.parent === -1 ? undefined : nodes[node.parent];
    let label = kept.label;
    let labelMember: NodeIndex | undefined;
    let type: UnitType;
    if (editableNode) {
      type = 'fill';
      const found = findFieldLabel(kept, reduced, position, nodes);
      if (found) {
        label = found.label;
        labelMember = found.node;
      } else if (editableNode.hint || editableNode.contentDesc) {
        label = editableNode.hint.trim() || editableNode.contentDesc.trim();
      } else if (kept.description) {
        label = kept.description.split(' · ')[0]!;
      } else {
        // Never the typed value itself: that is shown as value=.
        label = resourceName(editableNode.resourceId);
      }
    } else if (/Spinner$/.test(node.className) || memberNodes.some((candidate) => /RadioButton$|CheckedTextView$/.test(candidate.className)) || isTab(node, parentNode)) {
      type = 'select';
    } else if (checkableNode) {
      type = 'toggle';
    } else if (node.scrollable) {
      type = 'scroll';
    } else if (node.clickable && isCommitLike(label, node.resourceId)) {
      type = 'commit';
    } else if (node.clickable || memberNodes.some((candidate) => candidate.clickable)) {
      type = 'click';
    } else {
      type = 'long-press';
    }
    // A clickable switch merged into its row is tapped on itself; anything else on the node's visible centre.
    const switchTarget = checkableNode && checkableNode.index !== kept.node && checkableNode.clickable ? checkableNode.index : undefined;
    // The part of the switch inside its row, so that the tap hits both.
    const tapBounds = switchTarget !== undefined ? intersectBounds(reduced.visible[switchTarget]!, kept.bounds) : kept.bounds;
    const blockers = switchTarget !== undefined || type === 'scroll' ? [] : (nested.get(kept.node) ?? []);
    const tap = freeTapPoint(boundsArea(tapBounds) > 0 ? tapBounds : intersectBounds(node.bounds, [0, 0, tree.width, tree.height]), blockers);
    const occluded = !context.inSurface(kept) && context.surfaces.some((surface) => boundsContainsPoint(surface.bounds, tap) && !isAncestorOf(nodes, kept.node, surface.root));
    const members = memberIndices.map((index) => member(tree, ownerIds, index, reduced.visible));
    if (labelMember !== undefined) members.push(member(tree, ownerIds, labelMember, reduced.visible));
    const stateNode = editableNode ?? checkableNode ?? node;
    const value = editableNode ? (editableNode.text === editableNode.hint ? '' : editableNode.text) : undefined;
    units.push({
      id: kept.id as string as UnitId,
      type,
      label,
      primary: kept.id,
      members,
      bounds: kept.bounds,
      tap,
      affordances,
      block: context.blockOf(kept),
      ...(type === 'scroll' ? { orientation: scrollOrientation(node, kept, byId) } : {}),
      ...(occluded ? { occluded: true } : {}),
      ...(type !== 'scroll' && isSliver(node.bounds, kept.bounds) ? { offScreen: true } : {}),
      state: {
        enabled: node.enabled && stateNode.enabled,
        ...(checkableNode ? { checked: checkableNode.checked } : {}),
        ...(memberNodes.some((candidate) => candidate.selected) ? { selected: true } : type === 'select' ? { selected: false } : {}),
        ...(editableNode ? { focused: editableNode.focused, value: value ?? '', hint: editableNode.hint, password: editableNode.password } : {}),
      },
    });
  }
  return units;
}

/**
 * The label of an edit field: one of the two kept nodes just before it in document
 * order, with the same kept parent, that is text only and lies above or left of it —
 * forms lay out "Name" over or beside its field.
 */
function findFieldLabel(kept: KeptNode, reduced: ReducedTree, position: number, nodes: readonly UiNode[]): { label: string; node: NodeIndex } | undefined {
  for (let i = position - 1; i >= 0 && i >= position - 2; i--) {
    const sibling = reduced.nodes[i]!;
    if (sibling.parent !== kept.parent) continue;
    if (!sibling.affordances.every((affordance) => affordance === 'text')) return undefined;
    const aboveOrLeft = sibling.bounds[3] <= kept.bounds[1] + 8 || sibling.bounds[2] <= kept.bounds[0] + 8;
    if (aboveOrLeft) return { label: nodeText(nodes[sibling.node]!), node: sibling.node };
  }
  return undefined;
}

/** `nav-back`, `nav-home`, `nav-launch` (launch/restart the app) and `finish`: always available, no tap. */
export function pseudoUnits(packageName: string): ControlUnit[] {
  const pseudo = (id: UnitId, type: UnitType, label: string, navigation?: 'back' | 'home' | 'launch'): ControlUnit => ({
    id,
    type,
    label,
    primary: null,
    members: [],
    bounds: [0, 0, 0, 0],
    tap: null,
    affordances: [],
    block: navBlockId,
    state: { enabled: true },
    ...(navigation ? { navigation } : {}),
  });
  return [
    pseudo(navBackId, 'navigate', 'back', 'back'),
    pseudo(navHomeId, 'navigate', 'home', 'home'),
    pseudo(navLaunchId, 'navigate', packageName ? `launch ${packageName}` : 'launch app', 'launch'),
    pseudo(finishId, 'finish', 'finish'),
  ];
}
