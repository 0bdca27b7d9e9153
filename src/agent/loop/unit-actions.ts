import type { DeviceAction } from '../../device/device-action.js';
import { defaultScrollDirection } from '../../device/scroll-swipe.js';
import type { ControlUnit } from '../../perception/control-unit.js';
import { isAdjustableClass } from '../../perception/reduce-tree.js';
import { assertNever } from '../../util/assert-never.js';
import { alreadyInWantedState } from '../../verify/verify-unit-step.js';
import type { CommitmentItem } from '../planning/plan-reply.js';

/** Why a commitment item cannot become device actions (a value the planner must fix). */
export interface UnitActionProblem {
  readonly problem: string;
}

function point(unit: ControlUnit): [number, number] {
  // Pseudo units have no tap point; on-screen units always do.
  const tap = unit.tap ?? [Math.round((unit.bounds[0] + unit.bounds[2]) / 2), Math.round((unit.bounds[1] + unit.bounds[3]) / 2)];
  return [Math.round(tap[0]), Math.round(tap[1])];
}

/**
 * Maps one committed unit (with its arguments) onto device actions, or says why it cannot
 * (a `value` on a unit that is no field). A toggle already in the wanted state needs none (empty list). Pseudo units: `nav-back`/`nav-home` press the
 * key, `nav-launch` launches `item.value`.
 */
export function unitActions(unit: ControlUnit, item: CommitmentItem): DeviceAction[] | UnitActionProblem {
  if (unit.id === 'nav-back') return [{ type: 'key', key: 'back' }];
  if (unit.id === 'nav-home') return [{ type: 'key', key: 'home' }];
  if (unit.id === 'nav-launch') {
    if (!item.value) return { problem: 'nav-launch needs "value": the package to launch' };
    return [{ type: 'launch', packageName: item.value }];
  }
  // A typed action takes the arguments of its type: a value goes into a field (or a
  // slider); on any other unit it would be dropped and the unit merely tapped.
  if (item.value !== undefined && unit.type !== 'fill') {
    return { problem: `${unit.id} is a ${unit.type} unit ("${unit.label.slice(0, 40)}"), which takes no "value": a value goes into a fill unit (text, or a slider's percentage) or nav-launch; commit the unit the value belongs in, or drop "value"` };
  }
  if (item.longPress === true && unit.tap !== null) return [{ type: 'long-press', point: point(unit) }];
  switch (unit.type) {
    case 'select':
    case 'toggle':
      // Choosing the option that is already chosen, or setting a switch to the state it shows, changes nothing: nothing to do.
      if (alreadyInWantedState(unit, item.checked === undefined ? {} : { checked: item.checked })) return [];
      return [{ type: 'tap', point: point(unit) }];
    case 'click':
    case 'commit':
      return [{ type: 'tap', point: point(unit) }];
    case 'long-press':
      return [{ type: 'long-press', point: point(unit) }];
    case 'fill': {
      // Without a value, a field is only tapped (to focus it, or to open its picker).
      if (item.value === undefined) return [{ type: 'tap', point: point(unit) }];
      const slider = unit.members.find((member) => isAdjustableClass(member.className));
      if (slider) {
        const percent = Number(item.value);
        if (!Number.isFinite(percent) || percent < 0 || percent > 100) return { problem: `fill ${unit.id} is a slider: "value" must be a percentage from 0 to 100` };
        // Drag from the thumb's row to the x that is `percent` along the bar.
        const [left, top, right, bottom] = slider.bounds;
        const y = Math.round((top + bottom) / 2);
        const to = Math.round(left + ((right - left - 1) * percent) / 100);
        return [{ type: 'swipe', from: [Math.round((left + right) / 2), y], to: [to, y] }];
      }
      // A field that already holds the value needs no typing (the same shortcut verify-replay counts as settled).
      if (alreadyInWantedState(unit, { value: item.value })) return [];
      // One tap to focus: the keyboard it opens may move the field, so clear and type go to the focused field.
      return [{ type: 'tap', point: point(unit) }, { type: 'clear' }, { type: 'type', text: item.value }];
    }
    case 'scroll':
      return [{ type: 'scroll', bounds: [unit.bounds[0], unit.bounds[1], unit.bounds[2], unit.bounds[3]], direction: item.direction ?? defaultScrollDirection }];
    case 'navigate':
      return { problem: `navigate unit ${unit.id} is not one of nav-back, nav-home, nav-launch` };
    case 'finish':
      return [];
    default:
      return assertNever(unit.type, 'unit type');
  }
}
