import { boundsArea, boundsHeight, boundsWidth, intersectBounds } from '../ui/bounds.js';
import { systemUiPackage } from '../ui/parse-hierarchy.js';
import type { Bounds, NodeId, NodeIndex, UiNode, UiTree } from '../ui/ui-tree.js';
import type { Affordance } from './control-unit.js';
import { assignShortIds } from './node-ids.js';
import { boundsMergeThreshold, type ResolvedPerceptionOptions } from './perception-options.js';

/** A node that survived reduction, with what the planner view and the units need. */
export interface KeptNode {
  readonly id: NodeId;
  /** Index of the source node in `UiTree.nodes`. */
  readonly node: NodeIndex;
  /** Nearest kept ancestor, or null for a top-level kept node. */
  readonly parent: NodeId | null;
  readonly children: readonly NodeId[];
  readonly affordances: readonly Affordance[];
  /** Text, content-desc or hint of the node itself, else the first folded text, else the resource-id name. */
  readonly label: string;
  /** Texts of the non-actionable nodes folded into this one (level 2), in document order, joined by ' · '. */
  readonly description: string;
  /** Visible bounds: the node's bounds clipped to the screen and its scrolling ancestors. */
  readonly bounds: Bounds;
  /** Source nodes merged into this one at level 2 (folded text, a row's switch, a covering child), document order. */
  readonly merged: readonly NodeIndex[];
}

/** Result of `reduceTree`. */
export interface ReducedTree {
  /** Kept nodes in document order. */
  readonly nodes: readonly KeptNode[];
  /** Visible bounds of every source node (by `NodeIndex`), clipped to the screen and scrolling ancestors. */
  readonly visible: readonly Bounds[];
  /** For every source node, the kept node it is or was merged into (undefined when dropped). */
  readonly ownerOf: ReadonlyMap<NodeIndex, NodeId>;
}

/** Sliders and rating bars: focusable, not clickable, yet set by dragging (their text is the value). */
const adjustableClass = /(SeekBar|RatingBar|\.Slider)$/;

/** True for a slider-like class name (SeekBar, RatingBar, Material Slider). */
export function isAdjustableClass(className: string): boolean {
  return adjustableClass.test(className);
}

/** A control whose value is set by dragging along it (SeekBar, RatingBar, Material Slider). */
export function isAdjustable(node: UiNode): boolean {
  return isAdjustableClass(node.className) && node.enabled;
}

/** Has an action of its own: click, long-click, check, text entry or a draggable value (scrolling is structural). */
export function isActionable(node: UiNode): boolean {
  return node.clickable || node.longClickable || node.checkable || node.editable || isAdjustable(node);
}

/** Carries text a user reads: text, content-desc or hint. */
export function isSemantic(node: UiNode): boolean {
  return node.text.trim() !== '' || node.contentDesc.trim() !== '' || node.hint.trim() !== '';
}

/** Zero-width characters and private-use glyphs (icon fonts): nothing a planner can read. */
const invisibleCharacters = /[\u200b-\u200f\u2060\ufeff\ue000-\uf8ff]/g;
/** Texts that switches show for their state, not their name. */
const stateWords = /^(on|off)$/i;

function readable(text: string): string {
  return text.replace(invisibleCharacters, '').replace(/\s+/g, ' ').trim();
}

/**
 * Text a node shows a reader: text, else content-desc, else hint, with invisible
 * characters removed ('' when none). A switch whose text is only its state ("On",
 * "Off") is named by its content-desc.
 */
export function nodeText(node: UiNode): string {
  const text = readable(node.text);
  const description = readable(node.contentDesc);
  if (node.checkable && stateWords.test(text) && description) return description.replace(/[,;:]$/, '');
  return text || description || readable(node.hint);
}

/** The name part of a resource-id (`com.app:id/save_button` → `save_button`). */
export function resourceName(resourceId: string): string {
  const slash = resourceId.lastIndexOf('/');
  return slash === -1 ? resourceId : resourceId.slice(slash + 1);
}

/** Visible bounds of every node: its bounds clipped to the screen and to every scrolling ancestor. */
export function visibleBounds(tree: UiTree): Bounds[] {
  const screen: Bounds = [0, 0, tree.width, tree.height];
  const clip: Bounds[] = new Array<Bounds>(tree.nodes.length);
  const visible: Bounds[] = new Array<Bounds>(tree.nodes.length);
  for (const node of tree.nodes) {
    const parentClip = node.parent === -1 ? screen : clip[node.parent]!;
    visible[node.index] = intersectBounds(node.bounds, parentClip);
    clip[node.index] = node.scrollable ? intersectBounds(parentClip, node.bounds) : parentClip;
  }
  return visible;
}

function ownAffordances(node: UiNode): Affordance[] {
  const affordances: Affordance[] = [];
  if (node.clickable) affordances.push('clickable');
  if (node.longClickable) affordances.push('long-clickable');
  if (node.checkable) affordances.push('checkable');
  // A slider takes a value as a field does (set by dragging rather than typing).
  if (node.editable || isAdjustable(node)) affordances.push('editable');
  if (node.scrollable) affordances.push('scrollable');
  if (node.selected || /RadioButton$|Spinner$|CheckedTextView$/.test(node.className)) affordances.push('selectable');
  if (isSemantic(node)) affordances.push('text');
  return affordances;
}

const affordanceOrder: readonly Affordance[] = ['clickable', 'long-clickable', 'checkable', 'editable', 'scrollable', 'selectable', 'text', 'container'];

/**
 * Reduces a tree to the control-relevant nodes (docs/architecture.md §2.2). Level 1 (`sparse`)
 * keeps nodes that are functional (clickable, long-clickable, checkable, editable,
 * scrollable) or carry text/desc/hint and have visible area, splicing the children of
 * dropped nodes into the nearest kept ancestor; with `removeSystemBar` it drops
 * SystemUI nodes unless SystemUI is the foreground. Level 2 (`merge`) folds
 * non-actionable nodes into their nearest actionable kept ancestor (never across a
 * scroll container), merges a row with its one switch/checkbox (`mergeSwitch`) and a
 * child covering ≥ 80 % of its parent in both dimensions into that parent (`useBounds`).
 * Ids come from `assignShortIds` over the node fingerprints (document order).
 */
export function reduceTree(tree: UiTree, options: ResolvedPerceptionOptions): ReducedTree {
  const visible = visibleBounds(tree);
  const kept = sparseKeep(tree, visible, options);
  const keptAncestor = nearestKeptAncestors(tree, kept);
  const merges = mergeIntoHosts(tree, visible, kept, keptAncestor, options);
  const links = linkSurvivors(tree, keptAncestor, merges.survivor);
  const keptNodes = links.survivors.map((index) => keptNode(tree, index, visible, merges, links));
  return { nodes: keptNodes, visible, ownerOf: links.ownerOf };
}

/** Level 1 (`sparse`): 1 for every node that is functional or semantic, visible, and not under a dropped node or SystemUI. */
function sparseKeep(tree: UiTree, visible: readonly Bounds[], options: ResolvedPerceptionOptions): Uint8Array {
  const removeSystem = options.removeSystemBar && tree.packageName !== systemUiPackage;
  const removed = new Uint8Array(tree.nodes.length);
  const kept = new Uint8Array(tree.nodes.length);
  for (const node of tree.nodes) {
    const index = node.index;
    if ((node.parent !== -1 && removed[node.parent]) || !node.displayed || (removeSystem && node.packageName === systemUiPackage)) {
      removed[index] = 1;
      continue;
    }
    if (boundsArea(visible[index]!) === 0) continue;
    if (isActionable(node) || node.scrollable || isSemantic(node)) kept[index] = 1;
  }
  return kept;
}

/** The nearest kept ancestor of every node (-1 when none), in one pre-order pass. */
function nearestKeptAncestors(tree: UiTree, kept: Uint8Array): Int32Array {
  const keptAncestor = new Int32Array(tree.nodes.length).fill(-1);
  for (const node of tree.nodes) {
    if (node.parent !== -1) keptAncestor[node.index] = kept[node.parent] ? node.parent : keptAncestor[node.parent]!;
  }
  return keptAncestor;
}

/** What level 2 folded where. */
interface Merges {
  /** survivor[i]: the kept node that i is or was merged into (-1 when not kept). */
  readonly survivor: Int32Array;
  /** The nodes merged into each survivor. */
  readonly folded: Map<NodeIndex, NodeIndex[]>;
  /** Text of merged non-actionable nodes, per survivor. */
  readonly descriptions: Map<NodeIndex, string[]>;
  /** Affordances of merged actionable nodes, per survivor. */
  readonly extraAffordances: Map<NodeIndex, Set<Affordance>>;
}

/**
 * Level 2 (`merge`): folds each kept node into its host (the survivor of its nearest kept
 * ancestor) when it is not actionable and the host is, when it is a row's one switch
 * (`mergeSwitch`), or when it covers the host (`useBounds`); never across a scroll
 * container. At level 1 every kept node survives as itself.
 */
function mergeIntoHosts(tree: UiTree, visible: readonly Bounds[], kept: Uint8Array, keptAncestor: Int32Array, options: ResolvedPerceptionOptions): Merges {
  const nodes = tree.nodes;
  const merges: Merges = { survivor: new Int32Array(nodes.length).fill(-1), folded: new Map(), descriptions: new Map(), extraAffordances: new Map() };
  const { survivor, folded, descriptions, extraAffordances } = merges;
  const checkableBelow = options.level === 2 && options.mergeSwitch ? countCheckablesBelow(tree, kept, keptAncestor) : undefined;
  for (const node of nodes) {
    const index = node.index;
    if (!kept[index]) continue;
    survivor[index] = index;
    if (options.level !== 2) continue;
    const ancestor = keptAncestor[index]!;
    if (ancestor === -1) continue;
    const host = survivor[ancestor]!;
    const hostNode = nodes[host]!;
    if (node.scrollable || hostNode.scrollable) continue;
    const actionable = isActionable(node);
    let merge = false;
    if (!actionable && isActionable(hostNode)) {
      merge = true;
      const text = nodeText(node);
      if (text) (descriptions.get(host) ?? descriptions.set(host, []).get(host)!).push(text);
    } else if (checkableBelow && node.checkable && !node.editable && hostNode.clickable && !hostNode.checkable && !hostNode.editable && checkableBelow[host] === 1 && boundsArea(intersectBounds(visible[index]!, visible[host]!)) > 0) {
      merge = true;
    } else if (options.useBounds && covers(visible[index]!, visible[host]!) && !(node.checkable && hostNode.checkable) && !(node.editable && hostNode.editable)) {
      merge = true;
      const text = nodeText(node);
      if (text && !actionable) (descriptions.get(host) ?? descriptions.set(host, []).get(host)!).push(text);
    }
    if (!merge) continue;
    survivor[index] = host;
    (folded.get(host) ?? folded.set(host, []).get(host)!).push(index);
    if (actionable) {
      const extra = extraAffordances.get(host) ?? extraAffordances.set(host, new Set()).get(host)!;
      for (const affordance of ownAffordances(node)) if (affordance !== 'text') extra.add(affordance);
    }
  }
  return merges;
}

/** The survivors in document order with their ids, the reduced tree's parent and child links, and every source node's owner. */
interface SurvivorLinks {
  readonly survivors: readonly NodeIndex[];
  readonly idOf: ReadonlyMap<NodeIndex, NodeId>;
  readonly parentOf: ReadonlyMap<NodeIndex, NodeIndex>;
  readonly childrenOf: ReadonlyMap<NodeIndex, NodeId[]>;
  readonly ownerOf: Map<NodeIndex, NodeId>;
}

/** Gives the survivors their ids (`assignShortIds` over fingerprints) and links each to its nearest surviving ancestor. */
function linkSurvivors(tree: UiTree, keptAncestor: Int32Array, survivor: Int32Array): SurvivorLinks {
  const nodes = tree.nodes;
  const survivors: NodeIndex[] = [];
  for (let index = 0; index < nodes.length; index++) if (survivor[index] === index) survivors.push(index);
  const ids = assignShortIds(survivors.map((index) => nodes[index]!.fingerprint), 'n') as NodeId[];
  const idOf = new Map<NodeIndex, NodeId>();
  survivors.forEach((index, position) => idOf.set(index, ids[position]!));
  const childrenOf = new Map<NodeIndex, NodeId[]>();
  const parentOf = new Map<NodeIndex, NodeIndex>();
  for (const index of survivors) {
    let ancestor = keptAncestor[index]!;
    while (ancestor !== -1 && survivor[ancestor] !== ancestor) ancestor = survivor[ancestor] === -1 ? keptAncestor[ancestor]! : survivor[ancestor]!;
    if (ancestor === -1) continue;
    parentOf.set(index, ancestor);
    (childrenOf.get(ancestor) ?? childrenOf.set(ancestor, []).get(ancestor)!).push(idOf.get(index)!);
  }
  const ownerOf = new Map<NodeIndex, NodeId>();
  for (let index = 0; index < nodes.length; index++) {
    const owner = survivor[index]!;
    if (owner !== -1) ownerOf.set(index, idOf.get(owner)!);
  }
  return { survivors, idOf, parentOf, childrenOf, ownerOf };
}

/** One survivor as the reduced tree keeps it: its affordances (with what was merged into it), label, description and links. */
function keptNode(tree: UiTree, index: NodeIndex, visible: readonly Bounds[], merges: Merges, links: SurvivorLinks): KeptNode {
  const node = tree.nodes[index]!;
  const affordanceSet = new Set<Affordance>([...ownAffordances(node), ...(merges.extraAffordances.get(index) ?? [])]);
  const children = links.childrenOf.get(index) ?? [];
  if (children.length > 0 && !affordanceSet.has('scrollable')) affordanceSet.add('container');
  const affordances = affordanceOrder.filter((affordance) => affordanceSet.has(affordance));
  const description = (merges.descriptions.get(index) ?? []).join(' · ');
  const parent = links.parentOf.get(index);
  const mergedFrom = merges.folded.get(index) ?? [];
  const firstMergedText = mergedFrom.map((merged) => nodeText(tree.nodes[merged]!)).find(Boolean) ?? '';
  return {
    id: links.idOf.get(index)!,
    node: index,
    parent: parent === undefined ? null : links.idOf.get(parent)!,
    children,
    affordances,
    label: nodeText(node) || firstMergedText || resourceName(node.resourceId),
    description,
    bounds: visible[index]!,
    merged: mergedFrom,
  };
}

/** True when `child` covers at least `boundsMergeThreshold` of `parent`'s width and height. */
export function covers(child: Bounds, parent: Bounds): boolean {
  const overlap = intersectBounds(child, parent);
  const width = boundsWidth(parent);
  const height = boundsHeight(parent);
  if (width === 0 || height === 0) return false;
  return boundsWidth(overlap) >= boundsMergeThreshold * width && boundsHeight(overlap) >= boundsMergeThreshold * height;
}

/** For each kept node, how many kept checkable nodes lie below it without crossing a scroll container. */
function countCheckablesBelow(tree: UiTree, kept: Uint8Array, keptAncestor: Int32Array): Int32Array {
  const counts = new Int32Array(tree.nodes.length);
  for (const node of tree.nodes) {
    if (!kept[node.index] || !node.checkable) continue;
    for (let ancestor = keptAncestor[node.index]!; ancestor !== -1; ancestor = keptAncestor[ancestor]!) {
      counts[ancestor]!++;
      if (tree.nodes[ancestor]!.scrollable) break;
    }
  }
  return counts;
}
