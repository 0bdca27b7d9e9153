import type { Bounds } from '../ui/ui-tree.js';
import type { ControlUnit, UnitType } from './control-unit.js';
import type { Perception } from './perceive.js';
import type { PlannerView } from './render-view.js';

/** One unit member in the JSON form. */
export interface PerceptionJsonMember {
  readonly id: string;
  readonly bounds: Bounds;
  readonly class: string;
  readonly resourceId: string;
  readonly text: string;
  readonly contentDesc: string;
}

/** One unit in the JSON form; `tap` is null for the pseudo units (navigate, finish). */
export interface PerceptionJsonUnit {
  readonly id: string;
  readonly type: UnitType;
  readonly label: string;
  readonly block: string;
  readonly bounds: Bounds;
  readonly tap: readonly [number, number] | null;
  readonly affordances: readonly string[];
  readonly state: ControlUnit['state'];
  readonly orientation?: 'vertical' | 'horizontal';
  readonly occluded?: boolean;
  readonly offScreen?: boolean;
  readonly members: readonly PerceptionJsonMember[];
}

/** The JSON form of a perception (what `senseact inspect --json` prints, without `source`). */
export interface PerceptionJson {
  readonly dialect: string;
  readonly package: string;
  readonly activity: string;
  readonly screen: readonly [width: number, height: number];
  readonly level: 1 | 2;
  /** The reduction options used (defaults filled in). */
  readonly options: { readonly removeSystemBar: boolean; readonly useBounds: boolean; readonly mergeSwitch: boolean };
  readonly empty: boolean;
  readonly toasts: readonly string[];
  readonly units: readonly PerceptionJsonUnit[];
  readonly blocks: readonly { readonly id: string; readonly label: string; readonly surface: boolean; readonly bounds: Bounds; readonly units: readonly string[] }[];
  readonly edges: readonly (readonly [string, string])[];
  /** The planner text, exactly as `perception.view`. */
  readonly view: string;
  /** The planner view as data (`perception.plannerView`). */
  readonly plannerView: PlannerView;
}

/** Plain, JSON-serialisable form of a perception; deterministic key order. */
export function toPerceptionJson(perception: Perception): PerceptionJson {
  const { tree } = perception;
  return {
    dialect: tree.dialect,
    package: tree.packageName,
    activity: tree.activity,
    screen: [tree.width, tree.height],
    level: perception.options.level,
    options: { removeSystemBar: perception.options.removeSystemBar, useBounds: perception.options.useBounds, mergeSwitch: perception.options.mergeSwitch },
    empty: tree.empty,
    toasts: tree.toasts,
    units: perception.units.map((unit) => ({
      id: unit.id,
      type: unit.type,
      label: unit.label,
      block: unit.block,
      bounds: unit.bounds,
      tap: unit.tap,
      affordances: unit.affordances,
      state: unit.state,
      ...(unit.orientation ? { orientation: unit.orientation } : {}),
      ...(unit.occluded ? { occluded: true } : {}),
      ...(unit.offScreen ? { offScreen: true } : {}),
      members: unit.members.map((member) => ({
        id: member.nodeId,
        bounds: member.bounds,
        class: member.className,
        resourceId: member.resourceId,
        text: member.text,
        contentDesc: member.contentDesc,
      })),
    })),
    blocks: perception.blocks.map((block) => ({ id: block.id, label: block.label, surface: block.surface, bounds: block.bounds, units: block.units })),
    edges: perception.scg.edges.map(([from, to]) => [from, to] as const),
    view: perception.view,
    plannerView: perception.plannerView,
  };
}
