import { z } from 'zod';
import type { Brand } from '../util/brand.js';
import type { Bounds, NodeId, NodeIndex } from '../ui/ui-tree.js';

/** The unit types of docs/architecture.md §2.2. */
export const unitTypeSchema = z.enum(['click', 'fill', 'toggle', 'select', 'scroll', 'long-press', 'commit', 'navigate', 'finish']);
export type UnitType = z.infer<typeof unitTypeSchema>;

/** Affordances a kept node can have (docs/architecture.md §2.2). */
export const affordanceSchema = z.enum(['clickable', 'long-clickable', 'checkable', 'editable', 'scrollable', 'selectable', 'text', 'container']);
export type Affordance = z.infer<typeof affordanceSchema>;

/** Id of a control unit; same form as a NodeId (`nXXXX`), taken from the unit's primary node. */
export type UnitId = Brand<string, 'UnitId'>;
export type BlockId = Brand<string, 'BlockId'>;

/** A node that is part of a control unit, with what the verifier and the JSON output need. */
export interface UnitMember {
  readonly nodeId: NodeId;
  /** Index into the source `UiTree.nodes`. */
  readonly node: NodeIndex;
  readonly bounds: Bounds;
  readonly className: string;
  readonly resourceId: string;
  readonly text: string;
  readonly contentDesc: string;
}

/**
 * A control unit `u = (S, τ)`: the smallest set of nodes whose joint operation produces
 * one coherent effect. `primary` is the node an action goes to; `tap` is its centre
 * clipped to the visible area, in device pixels.
 */
export interface ControlUnit {
  readonly id: UnitId;
  readonly type: UnitType;
  /** Human-readable label: text, content-desc, hint, or a resource-id name. '' when the unit has none (icon-only). */
  readonly label: string;
  /** The node an action goes to; null for the navigate/finish pseudo units, which act by key or by stopping. */
  readonly primary: NodeId | null;
  readonly members: readonly UnitMember[];
  readonly bounds: Bounds;
  /** Tap point in device pixels; null for pseudo units (navigate, finish), which have no on-screen target. */
  readonly tap: readonly [x: number, y: number] | null;
  /** For `scroll` units: the direction the content moves (from the class, else from how the children are laid out). */
  readonly orientation?: 'vertical' | 'horizontal';
  /** True when a surface (dialog, sheet, popup) lies over the tap point: a tap would hit the surface instead. */
  readonly occluded?: boolean;
  /** True when only a thin sliver of the unit is on the screen (it lies mostly beyond the screen or its list's edge): a tap there is a guess. */
  readonly offScreen?: boolean;
  /** For `navigate` pseudo units: which system action they perform. */
  readonly navigation?: 'back' | 'home' | 'launch';
  readonly affordances: readonly Affordance[];
  readonly block: BlockId;
  /** Current state the planner and contracts look at. */
  readonly state: {
    readonly enabled: boolean;
    readonly checked?: boolean;
    readonly selected?: boolean;
    readonly focused?: boolean;
    /** Current text of an editable unit ('' when it shows only its hint). */
    readonly value?: string;
    readonly hint?: string;
    readonly password?: boolean;
  };
}

/** A functional group: a maximal subtree under a kept parent. */
export interface Block {
  readonly id: BlockId;
  readonly label: string;
  readonly bounds: Bounds;
  readonly units: readonly UnitId[];
  /** True for dialogs, sheets, popup menus and other surfaces above the app window. */
  readonly surface: boolean;
}

/** A dependency edge `from → to`: `from` must be done before `to`. */
export type ScgEdge = readonly [from: UnitId, to: UnitId];

export interface EdgeViolation {
  readonly edge: ScgEdge;
  /** Position in the commitment of the unit whose predecessor is missing. */
  readonly position: number;
  readonly reason: string;
}
