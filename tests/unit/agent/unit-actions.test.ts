import { describe, expect, it } from 'vitest';
import { unitActions } from '../../../src/agent/loop/unit-actions.js';
import type { BlockId, ControlUnit, UnitId, UnitType } from '../../../src/perception/control-unit.js';

function unit(type: UnitType, state: ControlUnit['state']): ControlUnit {
  return { id: 'n1' as UnitId, type, label: 'PM', primary: null, members: [], bounds: [0, 0, 100, 50], tap: [50, 25], affordances: [], block: 'b1' as BlockId, state };
}

describe('unitActions: what is already in the wanted state is not acted on', () => {
  it('a select whose option is checked (a radio) or selected (a tab) needs no tap; an unchosen one does', () => {
    expect(unitActions(unit('select', { enabled: true, checked: true, selected: false }), { unit: 'n1' })).toEqual([]);
    expect(unitActions(unit('select', { enabled: true, selected: true }), { unit: 'n1' })).toEqual([]);
    expect(unitActions(unit('select', { enabled: true, checked: false, selected: false }), { unit: 'n1' })).toEqual([{ type: 'tap', point: [50, 25] }]);
  });

  it('a toggle already in the wanted state needs none; a flip always taps', () => {
    expect(unitActions(unit('toggle', { enabled: true, checked: true }), { unit: 'n1', checked: true })).toEqual([]);
    expect(unitActions(unit('toggle', { enabled: true, checked: true }), { unit: 'n1', checked: false })).toHaveLength(1);
    expect(unitActions(unit('toggle', { enabled: true, checked: true }), { unit: 'n1' })).toHaveLength(1);
  });

  it('refuses a value on a unit that takes none (it would be dropped and the unit tapped); a field and nav-launch take one', () => {
    for (const type of ['click', 'commit', 'toggle', 'select', 'long-press', 'scroll'] as const) {
      const refused = unitActions(unit(type, { enabled: true }), { unit: 'n1', value: '0' });
      expect(refused, type).toMatchObject({ problem: expect.stringMatching(new RegExp(`^n1 is a ${type} unit .*takes no "value"`)) });
      // Negative control: the same unit without the value maps onto actions.
      expect(Array.isArray(unitActions(unit(type, { enabled: true }), { unit: 'n1' })), type).toBe(true);
    }
    expect(unitActions(unit('fill', { enabled: true, value: '' }), { unit: 'n1', value: 'Li' })).toHaveLength(3);
    expect(unitActions({ ...unit('navigate', { enabled: true }), id: 'nav-launch' as ControlUnit['id'] }, { unit: 'nav-launch', value: 'com.android.settings' })).toEqual([{ type: 'launch', packageName: 'com.android.settings' }]);
  });

  it('a field that already holds the value is not typed into again; another value is', () => {
    expect(unitActions(unit('fill', { enabled: true, value: 'Xu' }), { unit: 'n1', value: ' Xu' })).toEqual([]);
    expect(unitActions(unit('fill', { enabled: true, value: 'Xu' }), { unit: 'n1', value: 'Li' })).toEqual([{ type: 'tap', point: [50, 25] }, { type: 'clear' }, { type: 'type', text: 'Li' }]);
    // A masked password field cannot be compared: it is always typed.
    expect(unitActions(unit('fill', { enabled: true, value: '•••', password: true }), { unit: 'n1', value: '•••' })).toHaveLength(3);
  });
});
