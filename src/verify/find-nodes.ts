import { boundsCentre } from '../ui/bounds.js';
import type { NodeIndex, UiNode, UiTree } from '../ui/ui-tree.js';
import { assertNever } from '../util/assert-never.js';
import { linearRegex } from '../util/linear-regex.js';
import { findSurfaces } from './find-surfaces.js';
import { roleNames, type Query, type StringMatch } from './predicate.js';
import { printQuery } from './print-predicate.js';

/** Two candidates whose distance to a `near` anchor differs by at most this many pixels are tied. */
export const nearTieTolerance = 1;

/** What a query found: matching node indices, ranked, and why the list may be empty. */
export interface QueryMatches {
  readonly matches: readonly NodeIndex[];
  /** Set when a `within`/`near` anchor or the `nth` position was missing. */
  readonly problem?: string;
}

/** Keeps the digits of a text: `+1 (555) 123-4567` → `15551234567`. */
export function digitsOnly(text: string): string {
  return text.replace(/\D+/g, '');
}

/** Applies a comparison to one attribute value. */
export function matchString(match: StringMatch, value: string): boolean {
  switch (match.op) {
    case 'equals':
      return match.ignoreCase ? value.toLowerCase() === match.value.toLowerCase() : value === match.value;
    case 'contains':
      return match.ignoreCase ? value.toLowerCase().includes(match.value.toLowerCase()) : value.includes(match.value);
    case 'digits': {
      const wanted = digitsOnly(match.value);
      return wanted !== '' && digitsOnly(value) === wanted;
    }
    case 'matches':
      return linearRegex(match.pattern, match.flags ?? '').test(value);
    default:
      return assertNever(match, 'string match');
  }
}

function matchResourceId(match: StringMatch, resourceId: string): boolean {
  if (matchString(match, resourceId)) return true;
  // `id="alarm_label"` also matches `com.x:id/alarm_label`: models rarely know the package prefix.
  const slash = resourceId.indexOf(':id/');
  return match.op === 'equals' && slash >= 0 && matchString(match, resourceId.slice(slash + 4));
}

function simpleClassName(className: string): string {
  return className.slice(className.lastIndexOf('.') + 1);
}

const surfaceRootsCache = new WeakMap<UiTree, Set<NodeIndex>>();

function surfaceRoots(tree: UiTree): Set<NodeIndex> {
  let roots = surfaceRootsCache.get(tree);
  if (!roots) {
    roots = new Set(findSurfaces(tree).map((surface) => surface.root));
    surfaceRootsCache.set(tree, roots);
  }
  return roots;
}

/**
 * True when a node has a role (`button`, `switch`, `checkbox`, `radio`, `edit`, `text`,
 * `image`, `list`, `tab`, `spinner`, `dialog`) or, for any other name, when its class
 * is that name: the simple name case-insensitively, or the full name when it has dots.
 */
export function nodeIs(node: UiNode, name: string, tree: UiTree): boolean {
  const simple = simpleClassName(node.className);
  const role = name.toLowerCase();
  if ((roleNames as readonly string[]).includes(role)) {
    switch (role) {
      case 'button':
        return /Button$/i.test(simple) && !/(Radio|Toggle|Compound)Button$/i.test(simple);
      case 'switch':
        return /Switch|ToggleButton/i.test(simple);
      case 'checkbox':
        return /CheckBox|CheckedTextView/i.test(simple);
      case 'radio':
        return /RadioButton/i.test(simple);
      case 'edit':
        return node.editable;
      case 'text':
        return /TextView$/i.test(simple) && !node.editable && !/CheckedTextView$/i.test(simple);
      case 'image':
        return /Image(View)?$/i.test(simple) && !/ImageButton$/i.test(simple);
      case 'list':
        return /ListView|RecyclerView|GridView|ScrollView|ViewPager/i.test(simple);
      case 'tab':
        return /Tab/i.test(simple);
      case 'spinner':
        return /Spinner/i.test(simple);
      case 'dialog':
        return surfaceRoots(tree).has(node.index);
      default:
        return false;
    }
  }
  if (name.includes('.')) return node.className.toLowerCase() === role;
  return simple.toLowerCase() === role;
}

/** True when a node satisfies the attribute selectors of a query (not within/near/nth). */
export function nodeMatchesSelectors(node: UiNode, query: Query, tree: UiTree): boolean {
  if (query.is !== undefined && !nodeIs(node, query.is, tree)) return false;
  if (query.text && !matchString(query.text, node.text)) return false;
  if (query.desc && !matchString(query.desc, node.contentDesc)) return false;
  if (query.id && !matchResourceId(query.id, node.resourceId)) return false;
  if (query.hint && !matchString(query.hint, node.hint)) return false;
  if (query.label && !(matchString(query.label, node.text) || matchString(query.label, node.contentDesc) || matchString(query.label, node.hint))) return false;
  return true;
}

/** Ranks nodes top-to-bottom, then left-to-right, then in document order. */
export function compareReadingOrder(a: UiNode, b: UiNode): number {
  return a.bounds[1] - b.bounds[1] || a.bounds[0] - b.bounds[0] || a.index - b.index;
}

/** Index one past the last descendant of `root` (pre-order subtrees are contiguous). */
export function subtreeEnd(tree: UiTree, root: NodeIndex): NodeIndex {
  const node = tree.nodes[root];
  if (!node) return root;
  let end = root + 1;
  while (end < tree.nodes.length && (tree.nodes[end]?.depth ?? -1) > node.depth) end++;
  return end;
}

function distance(a: UiNode, b: UiNode): number {
  const [ax, ay] = boundsCentre(a.bounds);
  const [bx, by] = boundsCentre(b.bounds);
  return Math.hypot(ax - bx, ay - by);
}

/**
 * Finds the nodes of the full tree (not only the nodes perception keeps) that match a
 * query, ranked top-to-bottom then left-to-right. `within(q)` restricts to the
 * descendants of the first node matching `q`; `near(q)` keeps the candidate(s) nearest
 * to the first node matching `q` (ties within `nearTieTolerance` px are all kept, so
 * the caller sees the ambiguity); `nth` keeps one match.
 */
export function findNodes(query: Query, tree: UiTree): QueryMatches {
  let start = 0;
  let end = tree.nodes.length;
  if (query.within) {
    const anchor = findNodes(query.within, tree).matches[0];
    if (anchor === undefined) return { matches: [], problem: `within(${printQuery(query.within)}) matches no node` };
    start = anchor + 1;
    end = subtreeEnd(tree, anchor);
  }
  let candidates: UiNode[] = [];
  for (let index = start; index < end; index++) {
    const node = tree.nodes[index];
    if (node && nodeMatchesSelectors(node, query, tree)) candidates.push(node);
  }
  candidates.sort(compareReadingOrder);
  if (query.near) {
    const anchorIndex = findNodes(query.near, tree).matches[0];
    const anchor = anchorIndex === undefined ? undefined : tree.nodes[anchorIndex];
    if (!anchor) return { matches: [], problem: `near(${printQuery(query.near)}) matches no node` };
    candidates = candidates.filter((node) => node.index !== anchor.index);
    let best = Infinity;
    for (const node of candidates) best = Math.min(best, distance(node, anchor));
    candidates = candidates.filter((node) => distance(node, anchor) <= best + nearTieTolerance);
  }
  if (query.nth !== undefined) {
    const picked = candidates[query.nth - 1];
    if (!picked) return { matches: [], problem: `nth=${query.nth} but only ${candidates.length} node(s) match` };
    return { matches: [picked.index] };
  }
  return { matches: candidates.map((node) => node.index) };
}
