import type { ControlUnit, UnitId } from '../../perception/control-unit.js';
import type { Perception } from '../../perception/perceive.js';
import { boundsArea, boundsContainsPoint, sameBounds } from '../../ui/bounds.js';
import type { Bounds } from '../../ui/ui-tree.js';
import type { DroidBotView } from './droidtask-schema.js';

/** How a recorded element was matched to our control units. */
export type DroidTaskMapping = 'member-bounds' | 'member-signature' | 'contains' | 'unmapped';

/** The units standing for the element a DroidTask step acted on. */
export interface DroidTaskTargetMatch {
  readonly unitIds: readonly UnitId[];
  readonly mapping: DroidTaskMapping;
  readonly reason: string;
}

/** DroidBot's `[[left, top], [right, bottom]]` as our `Bounds`. */
export function droidBotBounds(view: DroidBotView): Bounds {
  const [[left, top], [right, bottom]] = view.bounds;
  return [left, top, right, bottom];
}

/**
 * Maps the element of a recorded DroidBot event to our unit ids. First, units with a
 * member node of exactly the element's bounds (and, when both have one, the same
 * resource-id): the element itself survived reduction, maybe merged into a row. Else the
 * one unit with a member of the same class, resource-id (non-empty) and text (the event's layout
 * differs slightly from the saved state's). Else the smallest unit whose bounds contain
 * the element's centre: the element was folded into an actionable ancestor. Else unmapped (e.g. the element is off screen), with the reason.
 * Pure.
 */
export function mapDroidTaskTarget(perception: Perception, view: DroidBotView): DroidTaskTargetMatch {
  const bounds = droidBotBounds(view);
  const screenUnits = perception.units.filter((unit): unit is ControlUnit => unit.primary !== null);
  const resourceId = view.resource_id ?? '';
  const exact = screenUnits.filter((unit) => unit.members.some((member) => sameBounds(member.bounds, bounds) && (resourceId === '' || member.resourceId === '' || member.resourceId === resourceId)));
  if (exact.length > 0) {
    return { unitIds: exact.map((unit) => unit.id), mapping: 'member-bounds', reason: `a member of ${exact.map((unit) => unit.id).join(', ')} has the element's bounds [${bounds.join(',')}]` };
  }
  // The event may carry bounds from a slightly different layout than the saved state:
  // match the element's signature (class, resource-id, text) when it names one unit. A
  // resource-id is required: text alone (a day number in a calendar) is too common.
  const text = view.text ?? '';
  if (resourceId !== '') {
    const signature = screenUnits.filter((unit) => unit.members.some((member) => member.className === (view.class ?? '') && member.resourceId === resourceId && member.text === text));
    if (signature.length === 1 && signature[0] !== undefined) {
      return { unitIds: [signature[0].id], mapping: 'member-signature', reason: `a member of ${signature[0].id} has the element's class, resource-id and text (bounds differ)` };
    }
  }
  const centreX = (bounds[0] + bounds[2]) / 2;
  const centreY = (bounds[1] + bounds[3]) / 2;
  const containing = screenUnits.filter((unit) => boundsContainsPoint(unit.bounds, [centreX, centreY])).sort((left, right) => boundsArea(left.bounds) - boundsArea(right.bounds));
  const smallest = containing[0];
  if (smallest !== undefined) {
    const tied = containing.filter((unit) => boundsArea(unit.bounds) === boundsArea(smallest.bounds));
    return { unitIds: tied.map((unit) => unit.id), mapping: 'contains', reason: `the element's centre (${centreX},${centreY}) lies in ${tied.map((unit) => unit.id).join(', ')}` };
  }
  return { unitIds: [], mapping: 'unmapped', reason: `no unit has or contains the element's bounds [${bounds.join(',')}] (${view.class ?? 'unknown class'} ${JSON.stringify(view.text ?? '')})` };
}
