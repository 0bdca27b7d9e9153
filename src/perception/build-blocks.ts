import { boundsArea } from '../ui/bounds.js';
import { systemUiPackage } from '../ui/parse-hierarchy.js';
import type { Bounds, NodeIndex, UiNode, UiTree } from '../ui/ui-tree.js';
import type { Block, BlockId, ControlUnit, UnitId } from './control-unit.js';
import { assignShortIds } from './node-ids.js';
import { nodeText, resourceName, type KeptNode, type ReducedTree } from './reduce-tree.js';

/** Windows thinner than this share of the screen height along its top or bottom edge are system bars. */
const systemBarShare = 0.1;
const surfaceClass = /Dialog|PopupWindow|PopupDecorView|BottomSheet|DropDownListView|MenuPopup/;
const surfaceId = /^(parentPanel|alertTitle|design_bottom_sheet|bottom_sheet|select_dialog_listview|grant_dialog|dialog_container|action_sheet|sheet|popup|dropdown)/i;

/**
 * True for a node that starts a surface above the app: a dialog, sheet, popup menu or
 * dropdown (by class or resource-id), or a window other than the first app window
 * that does not cover the screen.
 */
export function isSurfaceRoot(tree: UiTree, node: UiNode, baseWindow: number): boolean {
  if (surfaceClass.test(node.className) || surfaceId.test(resourceName(node.resourceId))) return true;
  if (node.parent !== -1 || node.window === baseWindow || node.packageName === systemUiPackage) return false;
  // A thin window along the top or bottom edge is a status or navigation bar, not a surface.
  const height = node.bounds[3] - node.bounds[1];
  const atEdge = node.bounds[1] <= 0 || node.bounds[3] >= tree.height;
  if (atEdge && height < systemBarShare * tree.height) return false;
  return boundsArea(node.bounds) < 0.9 * tree.width * tree.height;
}

/** Where every source node belongs: the root node of its block, and whether that block is a surface. */
export interface BlockLayout {
  /** Block root (a source node index) of every source node. */
  readonly rootOf: Int32Array;
  /** Block roots that are surfaces. */
  readonly surfaces: ReadonlySet<NodeIndex>;
  /** Block id of every block root. */
  readonly idOf: ReadonlyMap<NodeIndex, BlockId>;
}

/**
 * Partitions the screen into blocks (docs/architecture.md §2.2 functional groups): each window is
 * split once, at its first node with units under two or more children, into those
 * children's subtrees that hold two or more kept nodes (toolbar, content, bottom bar;
 * single leaves stay in the window's block); scroll containers and surfaces
 * (dialogs, sheets, popups) always start a block of their own.
 */
export function layoutBlocks(tree: UiTree, reduced: ReducedTree): BlockLayout {
  const nodes = tree.nodes;
  const count = nodes.length;
  const unitCount = new Int32Array(count);
  const keptCount = new Int32Array(count);
  for (const kept of reduced.nodes) {
    const unit = isUnitNode(kept);
    for (let index: NodeIndex = kept.node; index !== -1; index = nodes[index]!.parent) {
      keptCount[index]!++;
      if (unit) unitCount[index]!++;
    }
  }
  const baseWindow = Math.max(0, tree.roots.findIndex((root) => nodes[root]!.packageName !== systemUiPackage));
  const rootOf = new Int32Array(count).fill(-1);
  const splitDone = new Uint8Array(count);
  const surfaces = new Set<NodeIndex>();
  const roots: NodeIndex[] = [];
  for (const node of nodes) {
    const index = node.index;
    const parent = node.parent;
    let startsBlock = parent === -1;
    let done = 0;
    if (!startsBlock && isSurfaceRoot(tree, node, baseWindow) && unitCount[index]! > 0) {
      startsBlock = true;
      surfaces.add(index);
      done = 1;
    } else if (parent === -1 && isSurfaceRoot(tree, node, baseWindow)) {
      surfaces.add(index);
      done = 1;
    } else if (!startsBlock && node.scrollable && unitCount[index]! > 0 && reduced.ownerOf.has(index)) {
      startsBlock = true;
      done = 1;
    } else if (!startsBlock && !splitDone[parent] && unitCount[index]! > 0 && keptCount[index]! >= 2 && branching(nodes, parent, unitCount)) {
      // A group of two or more kept nodes; single leaves stay in the enclosing block.
      startsBlock = true;
      done = 1;
    }
    // Blocks nested in a dialog or sheet are part of that surface.
    if (startsBlock && parent !== -1 && surfaces.has(rootOf[parent]!)) surfaces.add(index);
    if (startsBlock) {
      rootOf[index] = index;
      splitDone[index] = done;
      roots.push(index);
    } else {
      rootOf[index] = rootOf[parent]!;
      splitDone[index] = splitDone[parent]!;
    }
  }
  const ids = assignShortIds(roots.map((root) => nodes[root]!.fingerprint), 'b') as BlockId[];
  return { rootOf, surfaces, idOf: new Map(roots.map((root, position) => [root, ids[position]!])) };
}

function branching(nodes: readonly UiNode[], parent: NodeIndex, unitCount: Int32Array): boolean {
  let withUnits = 0;
  for (const child of nodes[parent]!.children) if (unitCount[child]! > 0 && ++withUnits >= 2) return true;
  return false;
}

/** A kept node that becomes a control unit (actionable or scrollable). */
export function isUnitNode(kept: KeptNode): boolean {
  return kept.affordances.some((affordance) => affordance === 'clickable' || affordance === 'long-clickable' || affordance === 'checkable' || affordance === 'editable' || affordance === 'scrollable');
}

/** Blocks with their units (document order), label (first text-only kept node, else the root's resource name) and surface flag. Blocks without units or text are left out. */
export function collectBlocks(tree: UiTree, reduced: ReducedTree, layout: BlockLayout, units: readonly ControlUnit[]): Block[] {
  const unitsOf = new Map<BlockId, UnitId[]>();
  for (const unit of units) (unitsOf.get(unit.block) ?? unitsOf.set(unit.block, []).get(unit.block)!).push(unit.id);
  const firstText = new Map<NodeIndex, string>();
  for (const kept of reduced.nodes) {
    if (isUnitNode(kept)) continue;
    const root = layout.rootOf[kept.node]!;
    if (!firstText.has(root)) firstText.set(root, nodeText(tree.nodes[kept.node]!));
  }
  const blocks: Block[] = [];
  for (const [root, id] of layout.idOf) {
    const blockUnits = unitsOf.get(id) ?? [];
    if (blockUnits.length === 0 && !firstText.has(root)) continue;
    const node = tree.nodes[root]!;
    const bounds: Bounds = reduced.visible[root]!;
    blocks.push({
      id,
      label: firstText.get(root) ?? (resourceName(node.resourceId) || (layout.surfaces.has(root) ? 'dialog' : '')),
      bounds,
      units: blockUnits,
      surface: layout.surfaces.has(root),
    });
  }
  return blocks;
}
