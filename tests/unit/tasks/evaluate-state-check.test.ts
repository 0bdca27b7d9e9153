import { describe, expect, it } from 'vitest';
import { evaluateStateCondition } from '../../../src/tasks/evaluate-state-check.js';
import { parseStatePath, resolveStatePath } from '../../../src/tasks/resolve-state-path.js';
import { StatePathError } from '../../../src/tasks/state-path-error.js';
import { stateCheckSchema, type StateCondition } from '../../../src/tasks/state-check-schema.js';

const clock = {
  alarms: [
    { hour: 7, minute: 30, label: 'Gym', enabled: true, days: ['mon', 'tue'] },
    { hour: 16, minute: 0, label: '', enabled: false, days: [] },
  ],
  prefs: { 'display.dark': true, snooze: 10 },
};

describe('state paths', () => {
  it('parses keys, indices, wildcards and quoted keys', () => {
    expect(parseStatePath('alarms[*].hour')).toEqual([{ kind: 'key', key: 'alarms' }, { kind: 'all' }, { kind: 'key', key: 'hour' }]);
    expect(parseStatePath('prefs["display.dark"]')).toEqual([{ kind: 'key', key: 'prefs' }, { kind: 'key', key: 'display.dark' }]);
    expect(parseStatePath('alarms[-1]')).toEqual([{ kind: 'key', key: 'alarms' }, { kind: 'index', index: -1 }]);
  });

  it.each(['', '.alarms', 'alarms..hour', 'alarms[x]', 'alarms hour', 'alarms[*'])('rejects %j', (path) => {
    let caught: unknown;
    try {
      parseStatePath(path);
    } catch (error) {
      caught = error;
    }
    expect(StatePathError.isInstance(caught)).toBe(true);
    expect((caught as Error).message).toContain('alarms[*].hour');
  });

  it('resolves to every selected value, nothing for missing keys', () => {
    expect(resolveStatePath(clock, 'alarms[*].hour')).toEqual([7, 16]);
    expect(resolveStatePath(clock, 'alarms[-1].hour')).toEqual([16]);
    expect(resolveStatePath(clock, 'alarms[5].hour')).toEqual([]);
    expect(resolveStatePath(clock, 'prefs["display.dark"]')).toEqual([true]);
    expect(resolveStatePath(clock, 'timers[*].label')).toEqual([]);
  });
});

describe('evaluateStateCondition', () => {
  const cases: [string, Parameters<typeof evaluateStateCondition>[1], 'pass' | 'fail'][] = [
    ['equals on one value', { path: 'alarms[0].hour', op: 'equals', value: 7 }, 'pass'],
    ['equals with a wildcard means every value', { path: 'alarms[*].enabled', op: 'equals', value: false }, 'fail'],
    ['equals on nothing fails', { path: 'alarms[9].hour', op: 'equals', value: 7 }, 'fail'],
    ['not-equals', { path: 'alarms[0].label', op: 'not-equals', value: 'Work' }, 'pass'],
    ['contains on a string, case-insensitive', { path: 'alarms[0].label', op: 'contains', value: 'gy', ignoreCase: true }, 'pass'],
    ['contains on a string is case-sensitive by default', { path: 'alarms[0].label', op: 'contains', value: 'gy' }, 'fail'],
    ['contains on an array', { path: 'alarms[0].days', op: 'contains', value: 'tue' }, 'pass'],
    ['matches', { path: 'alarms[0].label', op: 'matches', value: '^G.m$' }, 'pass'],
    ['exists', { path: 'prefs.snooze', op: 'exists' }, 'pass'],
    ['absent', { path: 'prefs.vibrate', op: 'absent' }, 'pass'],
    ['count of an array', { path: 'alarms', op: 'count=', value: 2 }, 'pass'],
    ['count with where', { path: 'alarms', op: 'count>=', value: 2, where: [{ path: 'enabled', op: 'equals', value: true }] }, 'fail'],
    ['some element matches', { path: 'alarms', op: 'some', where: [{ path: 'hour', op: 'equals', value: 16 }, { path: 'enabled', op: 'equals', value: false }] }, 'pass'],
    ['some needs one element to match all conditions', { path: 'alarms', op: 'some', where: [{ path: 'hour', op: 'equals', value: 16 }, { path: 'enabled', op: 'equals', value: true }] }, 'fail'],
    ['every', { path: 'alarms', op: 'every', where: [{ path: 'minute', op: 'exists' }] }, 'pass'],
    ['every on an empty list fails', { path: 'timers', op: 'every', where: [{ path: 'minute', op: 'exists' }] }, 'fail'],
    ['none', { path: 'alarms', op: 'none', where: [{ path: 'hour', op: 'equals', value: 9 }] }, 'pass'],
  ];
  it.each(cases)('%s', (_name, condition, outcome) => {
    const result = evaluateStateCondition(clock, condition);
    expect(result.outcome).toBe(outcome);
    expect(result.reason).toContain(condition.path);
  });
});

describe('evaluateStateCondition: a failed some / every names the element nearest to passing', () => {
  // The Shopping note after a wrong long-press deleted Bread and the next one Eggs: Eggs is gone,
  // the count is what fails; the reason must say so (it used to end in the cut-off where list).
  const notes = { notes: [{ title: 'General note', items: [] }, { title: 'Shopping', items: [{ text: 'Milk' }] }] };
  const where: StateCondition[] = [
    { path: 'title', op: 'equals', value: 'Shopping' },
    { path: 'items', op: 'none', where: [{ path: 'text', op: 'equals', value: 'Eggs' }] },
    { path: 'items', op: 'count=', value: 2 },
  ];

  it('some: the element meeting the most conditions, and the one it misses', () => {
    const result = evaluateStateCondition(notes, { path: 'notes', op: 'some', where });
    expect(result.outcome).toBe('fail');
    expect(result.reason).toContain('nearest: element 2 meets 2 of 3, not items count equals 2: counted 1 of 1');
    // The where list in words too, the count op among them (it read 'items count= 2').
    expect(result.reason).toContain('where title equals "Shopping" and items none (text equals "Eggs") and items count equals 2;');
    expect(result.reason).not.toMatch(/count[<>]?= /);
    const atLeast = evaluateStateCondition(notes, { path: 'notes', op: 'count>=', value: 3 });
    expect(atLeast.reason).toBe('notes count at least 3: counted 2 of 2');
  });

  it('every: the first element that misses', () => {
    const result = evaluateStateCondition(clock, { path: 'alarms', op: 'every', where: [{ path: 'enabled', op: 'equals', value: true }] });
    expect(result.reason).toContain('first miss: element 2 meets 0 of 1, not enabled equals true: found false');
  });

  it('negative control: a pass, and a failed none, name no element', () => {
    expect(evaluateStateCondition(notes, { path: 'notes', op: 'some', where: where.slice(0, 1) }).reason).not.toContain('element 2');
    expect(evaluateStateCondition(clock, { path: 'alarms', op: 'none', where: [{ path: 'hour', op: 'equals', value: 7 }] }).reason).not.toContain('nearest');
  });
});

describe('stateCheckSchema', () => {
  it('accepts a nested some check', () => {
    expect(stateCheckSchema.safeParse({ app: 'com.x.y', path: 'alarms', op: 'some', where: [{ path: 'hour', op: 'equals', value: 7 }] }).success).toBe(true);
  });
  it.each([
    [{ app: 'a.b', path: 'alarms', op: 'equals' }, 'needs a value'],
    [{ app: 'a.b', path: 'alarms', op: 'some' }, 'needs where'],
    [{ app: 'a.b', path: 'alarms', op: 'count>=', value: -1 }, 'non-negative integer'],
    [{ app: 'a.b', path: 'alarms', op: 'matches', value: '(' }, 'valid regex'],
    [{ app: 'a.b', path: 'alarms', op: 'exists', where: [{ path: 'x', op: 'exists' }] }, 'where applies only'],
    [{ app: 'a.b', path: 'alarms..x', op: 'exists' }, 'state path'],
    [{ app: 'a.b', path: 'alarms', op: 'some', where: [{ path: 'x', op: 'equals' }] }, 'needs a value'],
  ])('rejects %j', (input, message) => {
    const result = stateCheckSchema.safeParse(input);
    expect(result.success).toBe(false);
    expect(JSON.stringify(result.error?.issues)).toContain(message);
  });
});
