import { describe, expect, it } from 'vitest';
import { describeSideEffect, findSideEffects } from '../../../src/tasks/find-side-effects.js';
import { taskScope } from '../../../src/tasks/task-scope.js';
import { taskSchema, type Task } from '../../../src/tasks/task-schema.js';

const clock = 'com.google.android.deskclock';
const settings = 'com.android.settings';

function task(extra: Record<string, unknown>): Task {
  return taskSchema.parse({ id: 't', app: clock, instruction: 'x', source: { benchmark: 'senseact' }, allowedPackages: [clock], stepBudget: 5, difficulty: 'easy', ...extra });
}

const alarms = { alarms: [{ id: 'a1', hour: 8, enabled: true }], nextId: 2, settings: { snooze: 10 } };
const network = { network: { wifi: true, airplaneMode: false } };

describe('taskScope and findSideEffects', () => {
  it('a checked list is in scope with its id counter; other state of the app is not', () => {
    const scope = taskScope(task({ success: { state: [{ app: clock, path: 'alarms[*].enabled', op: 'equals', value: false }] } }));
    const after = { alarms: [{ id: 'a1', hour: 8, enabled: false }, { id: 'a2', hour: 9, enabled: false }], nextId: 3, settings: { snooze: 5 } };
    const effects = findSideEffects({ apps: { [clock]: alarms } }, { apps: { [clock]: after } }, scope);
    expect(effects.map(describeSideEffect)).toEqual([`side effect: ${clock} settings.snooze changed from 10 to 5`]);
  });

  it('negative control: nothing changed, nothing found; a leaf path covers only itself', () => {
    const scope = taskScope(task({ app: settings, allowedPackages: [settings], success: { state: [{ app: settings, path: 'network.wifi', op: 'equals', value: false }] } }));
    expect(findSideEffects({ apps: { [settings]: network } }, { apps: { [settings]: network } }, scope)).toEqual([]);
    const after = { network: { wifi: false, airplaneMode: true } };
    expect(findSideEffects({ apps: { [settings]: network } }, { apps: { [settings]: after } }, scope)).toEqual([{ path: `${settings} network.airplaneMode`, before: false, after: true }]);
  });

  it('a scope entry in the task file extends the derived scope; a query task may change nothing', () => {
    const after = { network: { wifi: false, airplaneMode: true } };
    const scoped = taskScope(task({ app: settings, allowedPackages: [settings], success: { state: [{ app: settings, path: 'network.airplaneMode', op: 'equals', value: true }] }, scope: [{ app: settings, path: 'network.wifi' }] }));
    expect(findSideEffects({ apps: { [settings]: network } }, { apps: { [settings]: after } }, scoped)).toEqual([]);
    const query = taskScope(task({ answer: { expected: 'x', judge: 'exact' } }));
    expect(query).toEqual({ state: [], adb: [] });
    expect(findSideEffects({ apps: { [clock]: alarms } }, { apps: { [clock]: { ...alarms, nextId: 3 } } }, query).map((effect) => effect.path)).toEqual([`${clock} nextId`]);
  });

  it('adb queries: compared as sorted lines, the checked command in scope whatever its spacing, an unanswered query not compared', () => {
    const scope = taskScope(task({ success: { adb: [{ command: 'adb  shell settings get global wifi_on', expect: { equals: '0' } }] } }));
    const before = { adb: { 'adb shell settings get global wifi_on': '1', 'adb shell pm list packages': 'package:a\npackage:b\n', 'adb shell settings get global airplane_mode_on': '0' } };
    const after = { adb: { 'adb shell settings get global wifi_on': '0', 'adb shell pm list packages': 'package:b\npackage:a', 'adb shell settings get global bluetooth_on': '0' } };
    expect(findSideEffects(before, after, scope)).toEqual([]);
    const flipped = { adb: { ...after.adb, 'adb shell settings get global airplane_mode_on': '1\n' } };
    expect(findSideEffects(before, flipped, scope).map(describeSideEffect)).toEqual(['side effect: adb shell settings get global airplane_mode_on changed from "0" to "1"']);
  });

  it('the task file refuses a scope entry that is neither a state path nor an adb command', () => {
    expect(() => task({ success: { screen: 'exists(text="x")' }, scope: [{ app: clock, path: 'alarms..x' }] })).toThrow(/state path/);
    expect(() => task({ success: { screen: 'exists(text="x")' }, scope: [{ adb: 'settings get global wifi_on' }] })).toThrow(/adb /);
  });
});
