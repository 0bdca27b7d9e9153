import type { Bounds, NodeId, UiNode, UiTree } from '../ui/ui-tree.js';
import type { Block, ControlUnit } from './control-unit.js';
import { collectBlocks, layoutBlocks } from './build-blocks.js';
import { buildUnits, pseudoUnits } from './build-units.js';
import { resolvePerceptionOptions, type PerceptionOptions, type ResolvedPerceptionOptions } from './perception-options.js';
import { reduceTree, type KeptNode } from './reduce-tree.js';
import { buildPlannerView, renderView, type PlannerView } from './render-view.js';
import { buildScg, type Scg } from './scg.js';

/** Side-table entry: the full source node behind a kept id (what the LLM view leaves out). */
export interface NodeRecord {
  readonly id: NodeId;
  readonly node: UiNode;
  readonly xpath: string;
  readonly fingerprint: string;
  /** Bounds clipped to the screen and scrolling ancestors. */
  readonly visibleBounds: Bounds;
}

/** What one observation looks like to the agent after reduction, typing and the SCG. */
export interface Perception {
  readonly tree: UiTree;
  readonly options: ResolvedPerceptionOptions;
  /** Kept nodes in document order (ids, source index, affordances, label, visible bounds). */
  readonly nodes: readonly KeptNode[];
  /** Kept id → full source node, xpath and fingerprint. */
  readonly byId: ReadonlyMap<NodeId, NodeRecord>;
  /** On-screen units in document order, then the pseudo units (`nav-back`, `nav-home`, `nav-launch`, `finish`). */
  readonly units: readonly ControlUnit[];
  readonly blocks: readonly Block[];
  readonly scg: Scg;
  /** The planner text (docs/architecture.md §2.4). */
  readonly view: string;
  /** The same view as data (the JSON form of the planner text). */
  readonly plannerView: PlannerView;
}

/** A surface inside another surface (a scroll list in a dialog) adds no extra cover. */
function isNested(tree: UiTree, layout: ReturnType<typeof layoutBlocks>, root: number): boolean {
  const parent = tree.nodes[root]!.parent;
  return parent !== -1 && layout.surfaces.has(layout.rootOf[parent]!);
}

/**
 * Runs docs/architecture.md §2.2–2.3 on a parsed tree: reduce (level 1 `sparse` or level 2
 * `merge`), assign deterministic ids, type nodes into control units, partition into
 * blocks, build the SCG and render the planner view. Pure and deterministic.
 */
export function perceive(tree: UiTree, options?: PerceptionOptions): Perception {
  const resolved = resolvePerceptionOptions(options);
  const reduced = reduceTree(tree, resolved);
  const layout = layoutBlocks(tree, reduced);
  const surfaceRoots = new Set(layout.surfaces);
  const screenUnits = buildUnits(tree, reduced, {
    blockOf: (kept) => layout.idOf.get(layout.rootOf[kept.node]!)!,
    inSurface: (kept) => surfaceRoots.has(layout.rootOf[kept.node]!),
    surfaces: [...layout.surfaces].filter((root) => !isNested(tree, layout, root)).map((root) => ({ root, bounds: reduced.visible[root]! })),
  });
  const units = [...screenUnits, ...pseudoUnits(tree.packageName)];
  const blocks = collectBlocks(tree, reduced, layout, screenUnits);
  const windowOfUnit = new Map(screenUnits.map((unit) => [unit.id as string, tree.nodes[unit.members[0]!.node]!.window]));
  const scg = buildScg(units, blocks, (unit) => windowOfUnit.get(unit.id) ?? -1);
  const byId = new Map<NodeId, NodeRecord>();
  for (const kept of reduced.nodes) {
    const node = tree.nodes[kept.node]!;
    byId.set(kept.id, { id: kept.id, node, xpath: node.xpath, fingerprint: node.fingerprint, visibleBounds: kept.bounds });
  }
  const plannerView = buildPlannerView({ tree, reduced, layout, units, blocks }, { rows: resolved.viewRows, focus: resolved.viewFocus.map((word) => word.toLowerCase()) });
  const view = renderView(plannerView);
  return { tree, options: resolved, nodes: reduced.nodes, byId, units, blocks, scg, view, plannerView };
}
