import type { ControlUnit } from './control-unit.js';

/** Why a unit cannot be acted on as the screen stands: its typed precondition that does not hold. */
export type UnitPreconditionFailure =
  | { readonly kind: 'disabled'; readonly reason: string }
  | { readonly kind: 'covered'; readonly reason: string }
  | { readonly kind: 'off-screen'; readonly reason: string };

function named(unit: ControlUnit): string {
  return unit.label ? `${unit.id} ${JSON.stringify(unit.label)}` : unit.id;
}

/**
 * The typed preconditions of acting on an on-screen unit (docs/architecture.md §2.4): it is enabled
 * (a disabled control ignores the touch), no surface covers its tap point (the touch
 * would land on the dialog or sheet instead), and it is on the screen, not a sliver at
 * the edge (see `offScreen`). Returns the first that fails, with a reason that says what
 * to do instead; undefined when all hold. Pseudo units (no tap point) have none.
 */
export function unitPrecondition(unit: ControlUnit): UnitPreconditionFailure | undefined {
  if (unit.tap === null) return undefined;
  if (unit.occluded) {
    return { kind: 'covered', reason: `${named(unit)} is covered by a dialog or sheet: a tap would land on it; act on or dismiss that surface first` };
  }
  if (!unit.state.enabled) {
    return { kind: 'disabled', reason: `${named(unit)} is disabled and would ignore the action; first do what enables it (fill or choose what it needs) in the same commitment, or use another unit` };
  }
  if (unit.offScreen) {
    return { kind: 'off-screen', reason: `${named(unit)} is off-screen (only its edge shows); scroll it into view first` };
  }
  return undefined;
}
