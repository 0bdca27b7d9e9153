// A state check's path is judged on a sample of the app's state before any run: a key the
// state does not have fails with the nearest key; a path that fits passes.
import { describe, expect, it } from 'vitest';
import { stateConditionProblem, statePathProblem } from '../../../src/tasks/state-path-problem.js';

const sample = { network: { airplaneMode: false, wifi: true }, alarms: [{ hour: 7, days: ['mon'] }], notes: [], prefs: { 'display.dark': true } };

describe('statePathProblem', () => {
  it('passes paths that name something in the sample', () => {
    for (const path of ['network.airplaneMode', 'alarms[*].hour', 'alarms[0].days', 'alarms[-1].hour', 'prefs["display.dark"]', 'notes[*].title']) expect(statePathProblem(path, sample), path).toBeUndefined();
  });

  it('names a missing key with the nearest one, and an index into what is not a list', () => {
    expect(statePathProblem('network.airplaneMod', sample)).toBe('network has no key "airplaneMod": did you mean network.airplaneMode? (keys: airplaneMode, wifi)');
    expect(statePathProblem('netwrk.wifi', sample)).toBe('the state has no key "netwrk": did you mean network? (keys: network, alarms, notes, prefs)');
    expect(statePathProblem('network.zzzzzzzz', sample)).toBe('network has no key "zzzzzzzz" (keys: airplaneMode, wifi)');
    expect(statePathProblem('network[0]', sample)).toBe('network is not a list, so it has no [0]');
    expect(statePathProblem('alarms[*].hour.value', sample)).toBe('alarms[*].hour is not an object, so it has no key "value"');
  });

  it('judges where conditions relative to an element of the list', () => {
    expect(stateConditionProblem({ path: 'alarms', where: [{ path: 'hour' }] }, sample)).toBeUndefined();
    expect(stateConditionProblem({ path: 'alarms', where: [{ path: 'hours' }] }, sample)).toBe('alarms where hours: the state has no key "hours": did you mean hour? (keys: hour, days)');
  });
});
