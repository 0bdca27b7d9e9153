import { boundsArea, boundsIou } from '../ui/bounds.js';
import { systemUiPackage } from '../ui/parse-hierarchy.js';
import type { NodeIndex, UiNode, UiTree } from '../ui/ui-tree.js';
import { findBlockers, type Blocker } from './find-blockers.js';
import { subtreeEnd } from './find-nodes.js';
import { findSurfaces, type Surface } from './find-surfaces.js';

/** Second matching pass: same class and bounds IoU at least this. */
export const matchIouThreshold = 0.9;
/** ρ at or above this, with no atomic change, is `no-change`. */
export const noChangeRhoThreshold = 0.95;
/** ρ below this is `new-page`. */
export const newPageRhoThreshold = 0.5;
/** Above this many same-fingerprint candidates, pair them in document order instead of by IoU. */
export const fingerprintCandidateLimit = 64;

/** The transition label z of docs/architecture.md §4. */
export type DeltaLabel = 'no-change' | 'partial-change' | 'new-page';

/** A flag that can flip on a matched node. */
export type FlagName = 'checked' | 'selected' | 'enabled' | 'focused';

/** One atomic change between matched nodes, or a node only one side has. Indices refer to the before / after tree. */
export type AtomicChange =
  | { readonly kind: 'text'; readonly field: 'text' | 'contentDesc'; readonly before: NodeIndex; readonly after: NodeIndex; readonly from: string; readonly to: string }
  | { readonly kind: FlagName; readonly before: NodeIndex; readonly after: NodeIndex; readonly from: boolean; readonly to: boolean }
  | { readonly kind: 'added'; readonly after: NodeIndex }
  | { readonly kind: 'removed'; readonly before: NodeIndex };

/** A before node and the after node it was matched to. */
export type MatchPair = readonly [before: NodeIndex, after: NodeIndex];

/** A blocker on the after screen, and whether the before screen already showed it. */
export interface DeltaBlocker extends Blocker {
  readonly isNew: boolean;
}

/** What changed between two observations (docs/architecture.md §4). */
export interface Delta {
  readonly label: DeltaLabel;
  /** ρ = |matched| / max(|before|, 1) over the compared nodes. */
  readonly rho: number;
  /** How many nodes of each tree were compared (see `isComparedNode`). */
  readonly beforeCount: number;
  readonly afterCount: number;
  readonly matches: readonly MatchPair[];
  readonly changes: readonly AtomicChange[];
  readonly packageChanged: boolean;
  readonly activityChanged: boolean;
  /** True unless the label is `no-change`. */
  readonly screenChanged: boolean;
  /** A dialog/sheet/popup/window is on the after screen that the before screen did not have. */
  readonly newSurface: boolean;
  /** A surface of the before screen is gone. */
  readonly dismissedSurface: boolean;
  readonly surfacesAdded: readonly Surface[];
  readonly surfacesRemoved: readonly Surface[];
  /** Text and content-desc edits. */
  readonly textChanges: readonly AtomicChange[];
  /** Edits of input values: text of editable fields and spinners, and checked flips. */
  readonly valueChanges: readonly AtomicChange[];
  /** Selected flips (tabs, list choices). */
  readonly selectionChanges: readonly AtomicChange[];
  /** Blockers on the after screen (error toasts, permission dialogs, "isn't responding"). */
  readonly errorsOrBlocks: readonly DeltaBlocker[];
  /**
   * Images the comparison leaves out (leaves without text or state: an icon shown in a row, a
   * row of tiles laid out anew) that came, went or moved. Alone they still make a change.
   */
  readonly imageChanges: number;
}

/**
 * Which nodes the delta compares. Pure layout wrappers (no text, desc or hint and no
 * stable interaction flag) are left out: they come and go with layout changes that do
 * not matter to the user and would make ρ measure layout rather than content. Zero-area
 * nodes are left out, and so is the system UI (status bar clock, battery) unless the
 * foreground package is the system UI itself. Volatile state (checked, selected,
 * focused) never decides membership, so a flip is a change, not an add/remove.
 */
export function isComparedNode(node: UiNode, tree: UiTree): boolean {
  if (boundsArea(node.bounds) === 0) return false;
  if (node.packageName === systemUiPackage && tree.packageName !== systemUiPackage) return false;
  return node.text !== '' || node.contentDesc !== '' || node.hint !== '' || node.clickable || node.longClickable
    || node.checkable || node.scrollable || node.editable || node.focusable;
}

function comparedNodes(tree: UiTree, surfaces: readonly Surface[]): UiNode[] {
  const roots = new Set(surfaces.map((surface) => surface.root));
  return tree.nodes.filter((node) => roots.has(node.index) || isComparedNode(node, tree));
}

function isValueNode(node: UiNode): boolean {
  return node.editable || /Spinner/.test(node.className);
}

/**
 * Matches the nodes of two observations one-to-one and derives what changed: first by
 * fingerprint (resource-id, class, index-free xpath, text), then by class and bounds
 * IoU ≥ `matchIouThreshold`. Runs in time linear in the number of nodes (maps, not pair
 * scans) except for groups of identical fingerprints or classes, which are bounded.
 */
export function computeDelta(before: UiTree, after: UiTree): Delta {
  const surfacesBefore = findSurfaces(before);
  const surfacesAfter = findSurfaces(after);
  const nodesBefore = comparedNodes(before, surfacesBefore);
  const nodesAfter = comparedNodes(after, surfacesAfter);
  const pairing = pairNodes(before, after, nodesBefore, nodesAfter);
  const found = atomicChanges(after, nodesBefore, nodesAfter, pairing);
  const { matches, changes } = found;

  // Two screens without a node to compare (an empty dump) are alike, not a new page.
  const rho = nodesBefore.length === 0 ? (nodesAfter.length === 0 ? 1 : 0) : matches.length / nodesBefore.length;
  const packageChanged = before.packageName !== '' && after.packageName !== '' && before.packageName !== after.packageName;
  const activityChanged = before.activity !== '' && after.activity !== '' && before.activity !== after.activity;
  const imageChanges = countImageChanges(before, after);
  const label: DeltaLabel = packageChanged || activityChanged || rho < newPageRhoThreshold
    ? 'new-page'
    : rho >= noChangeRhoThreshold && changes.length === 0 && imageChanges === 0 ? 'no-change' : 'partial-change';
  const { surfacesAdded, surfacesRemoved } = surfaceChanges({ before, after, surfacesBefore, surfacesAfter, matches, afterOf: pairing.afterOf });
  const blockersBefore = new Set(findBlockers(before).map((blocker) => `${blocker.kind}|${blocker.text}`));
  const errorsOrBlocks = findBlockers(after).map((blocker) => ({ ...blocker, isNew: !blockersBefore.has(`${blocker.kind}|${blocker.text}`) }));

  return {
    label,
    rho,
    beforeCount: nodesBefore.length,
    afterCount: nodesAfter.length,
    matches,
    changes,
    packageChanged,
    activityChanged,
    screenChanged: label !== 'no-change',
    newSurface: surfacesAdded.length > 0,
    dismissedSurface: surfacesRemoved.length > 0,
    surfacesAdded,
    surfacesRemoved,
    textChanges: found.textChanges,
    valueChanges: found.valueChanges,
    selectionChanges: found.selectionChanges,
    errorsOrBlocks,
    imageChanges,
  };
}

/** Image leaves that are not compared nodes, counted by resource-id and place. */
function imageLeaves(tree: UiTree): Map<string, number> {
  const counts = new Map<string, number>();
  for (const node of tree.nodes) {
    if (node.children.length > 0 || !/Image/.test(node.className) || boundsArea(node.bounds) === 0 || isComparedNode(node, tree)) continue;
    const key = `${node.resourceId}|${node.bounds.join(',')}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

/** How many image leaves (see `Delta.imageChanges`) one screen has that the other has not. */
function countImageChanges(before: UiTree, after: UiTree): number {
  const left = imageLeaves(before);
  const right = imageLeaves(after);
  let count = 0;
  for (const [key, number] of left) count += Math.abs(number - (right.get(key) ?? 0));
  for (const [key, number] of right) if (!left.has(key)) count += number;
  return count;
}

/** Which before node each after node was paired with: flags per tree and the before → after index (-1: none). */
interface NodePairing {
  readonly matchedBefore: Uint8Array;
  readonly matchedAfter: Uint8Array;
  readonly afterOf: Int32Array;
}

/** Pairs the compared nodes of two screens one-to-one: by fingerprint first, then by class and place. */
function pairNodes(before: UiTree, after: UiTree, nodesBefore: readonly UiNode[], nodesAfter: readonly UiNode[]): NodePairing {
  const pairing: NodePairing = {
    matchedBefore: new Uint8Array(before.nodes.length),
    matchedAfter: new Uint8Array(after.nodes.length),
    afterOf: new Int32Array(before.nodes.length).fill(-1),
  };
  const unmatchedAfter = pairByFingerprint(nodesBefore, nodesAfter, pairing);
  pairByPlace(nodesBefore, unmatchedAfter, pairing);
  return pairing;
}

function pair(pairing: NodePairing, beforeNode: UiNode, afterNode: UiNode): void {
  pairing.matchedBefore[beforeNode.index] = 1;
  pairing.matchedAfter[afterNode.index] = 1;
  pairing.afterOf[beforeNode.index] = afterNode.index;
}

/** Pass 1: fingerprint groups; within a group the best-overlapping partner. Returns the after nodes left unpaired. */
function pairByFingerprint(nodesBefore: readonly UiNode[], nodesAfter: readonly UiNode[], pairing: NodePairing): UiNode[] {
  const byFingerprint = new Map<string, UiNode[]>();
  for (const node of nodesBefore) {
    const group = byFingerprint.get(node.fingerprint);
    if (group) group.push(node);
    else byFingerprint.set(node.fingerprint, [node]);
  }
  const unmatchedAfter: UiNode[] = [];
  for (const node of nodesAfter) {
    const group = byFingerprint.get(node.fingerprint);
    let partner: UiNode | undefined;
    if (group) {
      if (group.length > fingerprintCandidateLimit) {
        partner = group.find((candidate) => !pairing.matchedBefore[candidate.index]);
      } else {
        let bestScore = -1;
        for (const candidate of group) {
          if (pairing.matchedBefore[candidate.index]) continue;
          const score = boundsIou(candidate.bounds, node.bounds);
          if (score > bestScore) {
            bestScore = score;
            partner = candidate;
          }
        }
      }
    }
    if (partner) pair(pairing, partner, node);
    else unmatchedAfter.push(node);
  }
  return unmatchedAfter;
}

/** Pass 2: same class and nearly the same rectangle (text edits change the fingerprint). */
function pairByPlace(nodesBefore: readonly UiNode[], unmatchedAfter: readonly UiNode[], pairing: NodePairing): void {
  const byClass = new Map<string, UiNode[]>();
  for (const node of nodesBefore) {
    if (pairing.matchedBefore[node.index]) continue;
    const group = byClass.get(node.className);
    if (group) group.push(node);
    else byClass.set(node.className, [node]);
  }
  for (const node of unmatchedAfter) {
    const group = byClass.get(node.className);
    if (!group) continue;
    let partner: UiNode | undefined;
    let bestScore = matchIouThreshold;
    for (const candidate of group) {
      if (pairing.matchedBefore[candidate.index]) continue;
      const score = boundsIou(candidate.bounds, node.bounds);
      if (score >= bestScore) {
        bestScore = score;
        partner = candidate;
      }
    }
    if (partner) pair(pairing, partner, node);
  }
}

/** The matches and the atomic changes between paired nodes (text, flags), then the removed and added ones. */
function atomicChanges(after: UiTree, nodesBefore: readonly UiNode[], nodesAfter: readonly UiNode[], pairing: NodePairing): Pick<Delta, 'matches' | 'changes' | 'textChanges' | 'valueChanges' | 'selectionChanges'> {
  const matches: MatchPair[] = [];
  const changes: AtomicChange[] = [];
  const textChanges: AtomicChange[] = [];
  const valueChanges: AtomicChange[] = [];
  const selectionChanges: AtomicChange[] = [];
  for (const oldNode of nodesBefore) {
    const afterIndex = pairing.afterOf[oldNode.index] ?? -1;
    if (afterIndex < 0) continue;
    const newNode = after.nodes[afterIndex];
    if (!newNode) continue;
    matches.push([oldNode.index, afterIndex]);
    for (const field of ['text', 'contentDesc'] as const) {
      if (oldNode[field] !== newNode[field]) {
        const change: AtomicChange = { kind: 'text', field, before: oldNode.index, after: afterIndex, from: oldNode[field], to: newNode[field] };
        changes.push(change);
        textChanges.push(change);
        if (field === 'text' && (isValueNode(oldNode) || isValueNode(newNode))) valueChanges.push(change);
      }
    }
    for (const flag of ['checked', 'selected', 'enabled', 'focused'] as const) {
      if (oldNode[flag] !== newNode[flag]) {
        const change: AtomicChange = { kind: flag, before: oldNode.index, after: afterIndex, from: oldNode[flag], to: newNode[flag] };
        changes.push(change);
        if (flag === 'checked') valueChanges.push(change);
        if (flag === 'selected') selectionChanges.push(change);
      }
    }
  }
  for (const node of nodesBefore) if (!pairing.matchedBefore[node.index]) changes.push({ kind: 'removed', before: node.index });
  for (const node of nodesAfter) if (!pairing.matchedAfter[node.index]) changes.push({ kind: 'added', after: node.index });
  return { matches, changes, textChanges, valueChanges, selectionChanges };
}

/**
 * The surfaces that came and went. A surface is the same one when the delta matched its
 * root to a surface root of the other screen: a dialog whose text changes ("Saving…") is
 * not a new dialog. A window the size of a dialog whose content all changed is a new one,
 * though its bare root matched by class and place: a dump that holds one window (a menu's)
 * and then another (the dialog an entry of the menu opened).
 */
function surfaceChanges(input: { before: UiTree; after: UiTree; surfacesBefore: readonly Surface[]; surfacesAfter: readonly Surface[]; matches: readonly MatchPair[]; afterOf: Int32Array }): Pick<Delta, 'surfacesAdded' | 'surfacesRemoved'> {
  const { before, after, surfacesBefore, surfacesAfter, matches, afterOf } = input;
  const surfaceRootsBefore = new Set(surfacesBefore.map((surface) => surface.root));
  const beforeOf = new Map<NodeIndex, NodeIndex>();
  for (const [beforeIndex, afterIndex] of matches) beforeOf.set(afterIndex, beforeIndex);
  const kept = new Set<NodeIndex>();
  for (const surface of surfacesAfter) {
    const root = beforeOf.get(surface.root);
    if (root === undefined || !surfaceRootsBefore.has(root)) continue;
    if (dialogSized(after, surface.root) && !contentKept(before, after, root, surface.root, matches)) continue;
    kept.add(surface.root);
  }
  const surfaceRootsAfter = new Set(surfacesAfter.map((surface) => surface.root));
  return {
    surfacesAdded: surfacesAfter.filter((surface) => !kept.has(surface.root)),
    surfacesRemoved: surfacesBefore.filter((surface) => !surfaceRootsAfter.has(afterOf[surface.root] ?? -1)),
  };
}

/** A window smaller than this share of the screen is a dialog or a menu, not a page. */
const dialogAreaShare = 0.8;

/** True when the node at `root` is smaller than `dialogAreaShare` of the screen: a dialog's or a menu's window, not a page. */
export function dialogSized(tree: UiTree, root: NodeIndex): boolean {
  const node = tree.nodes[root];
  return node !== undefined && boundsArea(node.bounds) < dialogAreaShare * tree.width * tree.height;
}

/** True when a node under the before surface's root was matched to one under the after surface's, or neither holds any. */
function contentKept(before: UiTree, after: UiTree, beforeRoot: NodeIndex, afterRoot: NodeIndex, matches: readonly MatchPair[]): boolean {
  const [beforeEnd, afterEnd] = [subtreeEnd(before, beforeRoot), subtreeEnd(after, afterRoot)];
  if (matches.some(([beforeIndex, afterIndex]) => beforeIndex > beforeRoot && beforeIndex < beforeEnd && afterIndex > afterRoot && afterIndex < afterEnd)) return true;
  return !hasComparedUnder(before, beforeRoot, beforeEnd) && !hasComparedUnder(after, afterRoot, afterEnd);
}

function hasComparedUnder(tree: UiTree, root: NodeIndex, end: NodeIndex): boolean {
  for (let index = root + 1; index < end; index++) {
    const node = tree.nodes[index];
    if (node && isComparedNode(node, tree)) return true;
  }
  return false;
}

/** Map from before index to after index for the matched nodes of a delta. */
export function matchMap(delta: Delta): Map<NodeIndex, NodeIndex> {
  return new Map(delta.matches);
}
