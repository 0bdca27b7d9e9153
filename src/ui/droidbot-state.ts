import { z } from 'zod';
import { isDeviceCoordinate } from './bounds.js';
import type { Bounds } from './ui-tree.js';

/**
 * How deep a hierarchy may nest. Appium caps its page source at 70 levels
 * (`snapshotMaxDepth`), the deepest real dump we hold has 44; a thousand is no screen but
 * a damaged or hostile file, refused with a `HierarchyParseError` before any recursive
 * consumer could meet it.
 */
export const maxHierarchyDepth = 1_000;

/**
 * DroidBot's device state (`state_*.json`, DroidTask's format) as the parser reads it. Not
 * strict: DroidBot adds fields we do not read (`signature`, `view_str`, `size`, ...). The
 * fields we read are checked: a wrong type is a damaged state, not a blank.
 */

const coordinate = z.number().refine(isDeviceCoordinate, 'expected an integer coordinate within 32 bits');
const text = z.string().nullish();
const flag = z.boolean().nullish();

/**
 * `[[left, top], [right, bottom]]`. Inverted bounds (right < left or bottom < top) are
 * kept as recorded: DroidBot writes them for a view scrolled partly off screen (1,043 of
 * DroidTask's 2,525 states hold one), and they have zero visible area, as in XML dumps.
 */
export const droidBotBoundsSchema = z.tuple([z.tuple([coordinate, coordinate]), z.tuple([coordinate, coordinate])]);

/** One view of `views[]`. */
export const droidBotStateViewSchema = z.looseObject({
  /** The view's id; its position in `views` when absent. */
  temp_id: z.number().int().nonnegative().optional(),
  /** The parent's id; -1 (or null) for a root. */
  parent: z.number().int().min(-1).nullable(),
  /** Ids of the children, in order. */
  children: z.array(z.number().int().nonnegative()).nullish(),
  bounds: droidBotBoundsSchema.nullish(),
  class: text,
  package: text,
  resource_id: text,
  text,
  content_description: text,
  hint: text,
  checkable: flag,
  checked: flag,
  clickable: flag,
  long_clickable: flag,
  enabled: flag,
  focusable: flag,
  focused: flag,
  scrollable: flag,
  selected: flag,
  is_password: flag,
  editable: flag,
  visible: flag,
});
export type DroidBotStateView = z.infer<typeof droidBotStateViewSchema>;

/** The state: its views, and the foreground activity, activity stack (top first) and screen size when recorded. */
export const droidBotStateSchema = z.looseObject({
  views: z.array(z.unknown()),
  foreground_activity: text,
  activity_stack: z.array(z.string()).nullish(),
  width: z.number().int().positive().nullish(),
  height: z.number().int().positive().nullish(),
});

/** A view of the state with its id and position, in the order the tree is walked (pre-order). */
export interface OrderedDroidBotView {
  readonly id: number;
  /** Index in `views[]`. */
  readonly position: number;
  readonly view: DroidBotStateView;
  /** Index of the parent in the returned order; -1 for a root. */
  readonly parent: number;
  readonly depth: number;
  /** Index among its parent's children (among the roots for a root). */
  readonly siblingIndex: number;
}

/** What went wrong, with the JSON path of the offending field. */
export interface DroidBotStateProblem {
  readonly path: string;
  readonly problem: string;
}

/** `views[12] (temp_id 34)` */
function where(position: number, id: number): string {
  return id === position ? `views[${position}]` : `views[${position}] (temp_id ${id})`;
}

function zodPath(prefix: string, path: readonly PropertyKey[]): string {
  return path.reduce<string>((text, segment) => (typeof segment === 'number' ? `${text}[${segment}]` : text === '' ? String(segment) : `${text}.${String(segment)}`), prefix);
}

/**
 * Checks a DroidBot state and orders its views as a tree: every view has a known parent
 * (or is a root), parents and children agree, ids are unique, and every view is reached
 * from a root exactly once (so there is no cycle). Iterative, so a chain of any depth is
 * walked without recursion. Returns the first problem found, with the view's path.
 */
export function orderDroidBotState(data: unknown): { state: z.infer<typeof droidBotStateSchema>; views: OrderedDroidBotView[] } | DroidBotStateProblem {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return { path: '(top level)', problem: 'the JSON is not an object' };
  if (!Array.isArray((data as { views?: unknown }).views)) return { path: 'views', problem: 'the JSON object has no `views` array' };
  const state = droidBotStateSchema.safeParse(data);
  if (!state.success) {
    const issue = state.error.issues[0];
    return { path: zodPath('', issue?.path ?? []) || '(top level)', problem: issue?.message ?? 'not a DroidBot state' };
  }
  const views: DroidBotStateView[] = [];
  const positionOf = new Map<number, number>();
  const ids: number[] = [];
  for (const [position, raw] of state.data.views.entries()) {
    const parsed = droidBotStateViewSchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const path = zodPath(`views[${position}]`, issue?.path ?? []);
      if (issue?.path[0] === 'bounds') {
        const bounds = (raw as { bounds?: unknown }).bounds;
        return { path, problem: `invalid bounds ${JSON.stringify(bounds)?.slice(0, 80)} (expected [[left,top],[right,bottom]], integers within 32 bits): ${issue.message}` };
      }
      return { path, problem: issue?.message ?? 'not a view object' };
    }
    const id = parsed.data.temp_id ?? position;
    const earlier = positionOf.get(id);
    if (earlier !== undefined) return { path: `views[${position}].temp_id`, problem: `duplicate id ${id}: views[${earlier}] has it too` };
    positionOf.set(id, position);
    views.push(parsed.data);
    ids.push(id);
  }
  // Parents and children must tell the same story.
  const listedBy = new Map<number, number>();
  for (const [position, view] of views.entries()) {
    const parent = view.parent;
    if (parent !== null && parent !== -1 && !positionOf.has(parent)) return { path: `${where(position, ids[position]!)}.parent`, problem: `parent ${parent} is not in views[]` };
  }
  for (const [position, view] of views.entries()) {
    const id = ids[position]!;
    for (const [index, child] of (view.children ?? []).entries()) {
      const childPosition = positionOf.get(child);
      const path = `${where(position, id)}.children[${index}]`;
      if (childPosition === undefined) return { path, problem: `view ${child} is referenced as a child but not present in views[]` };
      if (child === id) return { path, problem: `view ${id} lists itself as its child (a cycle)` };
      const other = listedBy.get(child);
      if (other !== undefined) return { path, problem: `view ${child} is also a child of view ${other}: a view has one parent (a cycle or a copy)` };
      listedBy.set(child, id);
      const childParent = views[childPosition]!.parent;
      if (childParent !== id) return { path, problem: `view ${child} is listed as a child, but its parent is ${childParent ?? 'null'}` };
    }
  }
  for (const [position, view] of views.entries()) {
    const parent = view.parent;
    if (parent !== null && parent !== -1 && listedBy.get(ids[position]!) !== parent) {
      return { path: `${where(position, ids[position]!)}.parent`, problem: `parent ${parent} does not list view ${ids[position]} among its children` };
    }
  }
  // Pre-order walk from the roots, with an explicit stack.
  const ordered: OrderedDroidBotView[] = [];
  const stack: { position: number; parent: number; depth: number; siblingIndex: number }[] = [];
  let roots = 0;
  const rootPositions = views.flatMap((view, position) => (view.parent === null || view.parent === -1 ? [position] : []));
  for (let index = rootPositions.length - 1; index >= 0; index--) stack.push({ position: rootPositions[index]!, parent: -1, depth: 0, siblingIndex: index });
  roots = rootPositions.length;
  while (stack.length > 0) {
    const next = stack.pop()!;
    const view = views[next.position]!;
    const at = ordered.length;
    ordered.push({ id: ids[next.position]!, position: next.position, view, parent: next.parent, depth: next.depth, siblingIndex: next.siblingIndex });
    const children = view.children ?? [];
    if (children.length > 0 && next.depth + 1 >= maxHierarchyDepth) {
      return { path: where(positionOf.get(children[0]!)!, children[0]!), problem: `the views nest deeper than ${maxHierarchyDepth} levels (no device produces that; a damaged or hostile state)` };
    }
    for (let index = children.length - 1; index >= 0; index--) stack.push({ position: positionOf.get(children[index]!)!, parent: at, depth: next.depth + 1, siblingIndex: index });
  }
  if (ordered.length < views.length) {
    const reached = new Set(ordered.map((entry) => entry.position));
    const lost = views.findIndex((_, position) => !reached.has(position));
    return { path: where(lost, ids[lost]!), problem: `view ${ids[lost]} cannot be reached from a root (${roots} root(s)): its ancestors form a cycle` };
  }
  return { state: state.data, views: ordered };
}

/** The bounds of a checked view as a `Bounds` (empty when the view has none). */
export function droidBotViewBounds(view: DroidBotStateView): Bounds {
  const bounds = view.bounds;
  if (bounds === null || bounds === undefined) return [0, 0, 0, 0];
  return [bounds[0][0], bounds[0][1], bounds[1][0], bounds[1][1]];
}
