import { describe, expect, it } from 'vitest';
import type { AnswerJudge, AnswerJudgeRequest } from '../../../src/tasks/answer-judge.js';
import { evaluateSuccess } from '../../../src/tasks/evaluate-success.js';
import { parseTaskFile } from '../../../src/tasks/load-task-file.js';
import type { Task } from '../../../src/tasks/task-schema.js';
import { parseHierarchy } from '../../../src/ui/parse-hierarchy.js';

const clockPackage = 'com.google.android.deskclock';

function node(attributes: Record<string, string>, children = ''): string {
  const defaults: Record<string, string> = { class: 'android.widget.TextView', package: clockPackage, text: '', 'content-desc': '', 'resource-id': '', checkable: 'false', checked: 'false', clickable: 'false', enabled: 'true', focusable: 'false', focused: 'false', scrollable: 'false', 'long-clickable': 'false', password: 'false', selected: 'false', bounds: '[0,0][1080,200]' };
  const merged = { ...defaults, ...attributes };
  return `<node index="0" ${Object.entries(merged).map(([key, value]) => `${key}="${value}"`).join(' ')}>${children}</node>`;
}

function alarmScreen(enabled: boolean): string {
  const row = node({ class: 'android.widget.LinearLayout', bounds: '[0,300][1080,500]' }, node({ text: '7:30 AM', bounds: '[40,320][400,420]' }) + node({ class: 'android.widget.Switch', checkable: 'true', checked: String(enabled), clickable: 'true', bounds: '[900,340][1040,400]' }));
  return `<?xml version="1.0" encoding="UTF-8"?><hierarchy rotation="0">${node({ class: 'android.widget.FrameLayout', bounds: '[0,0][1080,2400]' }, row)}</hierarchy>`;
}

function task(extra: string): Task {
  const [parsed] = parseTaskFile(
    `tasks:
  - id: t
    app: ${clockPackage}
    instruction: Turn on the 7:30 alarm
    source: { benchmark: senseact }
${extra}
    allowedPackages: [${clockPackage}]
    stepBudget: 5
    difficulty: easy
`,
    'inline.yaml',
  );
  if (parsed === undefined) throw new Error('no task parsed');
  return parsed;
}

const screenTask = task(`    success:\n      screen: 'checked(is=switch, near(text="7:30 AM"))'`);
const stateTask = task(`    success:
      state:
        - { app: ${clockPackage}, path: alarms, op: some, where: [{ path: hour, op: equals, value: 7 }, { path: enabled, op: equals, value: true }] }`);

describe('evaluateSuccess', () => {
  it('passes the screen predicate on the final tree and fails it on the start screen', async () => {
    const pass = await evaluateSuccess(screenTask, { finalTree: parseHierarchy(alarmScreen(true)) });
    expect(pass).toMatchObject({ success: true, outcome: 'pass' });
    expect(pass.checks).toHaveLength(1);
    const fail = await evaluateSuccess(screenTask, { finalTree: parseHierarchy(alarmScreen(false)) });
    expect(fail).toMatchObject({ success: false, outcome: 'fail' });
    expect(fail.reason).toContain('screen checked(');
  });

  it('evaluates state checks over the app state, and is inconclusive without it', async () => {
    const finalTree = parseHierarchy(alarmScreen(false));
    const on = await evaluateSuccess(stateTask, { finalTree, appState: () => ({ alarms: [{ hour: 7, enabled: true }] }) });
    expect(on.outcome).toBe('pass');
    const off = await evaluateSuccess(stateTask, { finalTree, appState: () => ({ alarms: [{ hour: 7, enabled: false }] }) });
    expect(off.outcome).toBe('fail');
    // The condition is named once, then what was found (it used to read "alarms some: alarms some: …").
    expect(off.reason).toMatch(/^state com\.google\.android\.deskclock alarms some: 0 of 1 element\(s\) match where /);
    expect(off.reason.match(/alarms some/g)).toHaveLength(1);
    // The where list in words, not JSON (it read 'where [{"path":"hour","op":"equals","value":7},…]').
    expect(off.reason).toContain('match where hour equals 7 and enabled equals true; nearest: element 1 meets 1 of 2');
    expect(off.reason).not.toContain('{"path"');
    const missing = await evaluateSuccess(stateTask, { finalTree });
    expect(missing.outcome).toBe('inconclusive');
    expect(missing.success).toBe(false);
    expect(missing.reason).toContain('no app state available');
  });

  it('checks adb outputs by the command written in the task', async () => {
    const adbTask = task(`    success:\n      adb: [{ command: 'adb shell settings get global bluetooth_on', expect: { equals: '0' } }]`);
    const finalTree = parseHierarchy(alarmScreen(false));
    expect((await evaluateSuccess(adbTask, { finalTree, adbOutputs: { 'adb shell settings get global bluetooth_on': '0\n' } })).outcome).toBe('pass');
    expect((await evaluateSuccess(adbTask, { finalTree, adbOutputs: { 'adb shell settings get global bluetooth_on': '1\n' } })).outcome).toBe('fail');
    expect((await evaluateSuccess(adbTask, { finalTree })).outcome).toBe('inconclusive');
  });

  it('notMatches passes when no row matches the pattern (the lookahead-free "Bob is gone")', async () => {
    const command = 'adb shell content query --uri content://com.android.contacts/contacts --projection display_name';
    const goneTask = task(`    success:\n      adb: [{ command: '${command}', expect: { notMatches: 'display_name=Bob\\b' } }]`);
    const finalTree = parseHierarchy(alarmScreen(false));
    const rows = (names: string[]) => names.map((name, index) => `Row: ${index} display_name=${name}`).join('\n');
    expect((await evaluateSuccess(goneTask, { finalTree, adbOutputs: { [command]: rows(['Alice', 'Bobby', 'Jack']) } })).outcome).toBe('pass');
    expect((await evaluateSuccess(goneTask, { finalTree, adbOutputs: { [command]: rows(['Alice', 'Bob', 'Jack']) } })).outcome).toBe('fail');
    expect(() => task(`    success:\n      adb: [{ command: '${command}', expect: { matches: '^(?![\\s\\S]*Bob)' } }]`)).toThrow(/lookaround .* not supported/);
  });

  it('judges answers, says which judge decided, and falls back to exact match', async () => {
    const queryTask = task(`    answer: { expected: ['7:30 AM'], judge: model }`);
    const finalTree = parseHierarchy(alarmScreen(true));
    const fallback = await evaluateSuccess(queryTask, { finalTree, answer: 'Your earliest alarm is at 7:30am.' });
    expect(fallback.outcome).toBe('pass');
    expect(fallback.checks[0]).toMatchObject({ kind: 'answer', judge: 'exact' });
    expect(fallback.checks[0]?.reason).toContain('exact-match fallback');
    expect((await evaluateSuccess(queryTask, { finalTree })).outcome).toBe('fail');

    const requests: AnswerJudgeRequest[] = [];
    const model: AnswerJudge = {
      name: 'fake-model',
      judge: (request) => {
        requests.push(request);
        return Promise.resolve({ correct: false, judge: 'model:fake', reason: 'different time' });
      },
    };
    const judged = await evaluateSuccess(queryTask, { finalTree, answer: '7:30 AM', judges: { model } });
    expect(judged.outcome).toBe('fail');
    expect(judged.checks[0]?.judge).toBe('model:fake');
    expect(requests).toEqual([{ instruction: 'Turn on the 7:30 alarm', expected: ['7:30 AM'], answer: '7:30 AM' }]);
  });

  it('takes a device-specific expected answer from an adb output, mapped', async () => {
    const queryTask = task(`    answer: { fromAdb: { command: 'adb shell settings get global airplane_mode_on', map: { '1': open, '0': not open } }, judge: exact }`);
    const finalTree = parseHierarchy(alarmScreen(true));
    const adbOutputs = { 'adb shell settings get global airplane_mode_on': '1\n' };
    expect((await evaluateSuccess(queryTask, { finalTree, adbOutputs, answer: 'It is open' })).outcome).toBe('pass');
    expect((await evaluateSuccess(queryTask, { finalTree, answer: 'open' })).outcome).toBe('inconclusive');
  });
});

const doneTree = parseHierarchy('<hierarchy rotation="0"><node index="0" text="Done" class="android.widget.TextView" package="com.example.app" bounds="[0,0][100,100]" /></hierarchy>');
const taskInCode: Task = {
  id: 'built-in-code', app: 'com.example.app', instruction: 'do it', source: { benchmark: 'senseact' }, start: {},
  allowedPackages: ['com.example.app'], stepBudget: 3, tags: [], difficulty: 'easy',
};

describe('evaluateSuccess of a task built in code', () => {
  it('does not call a task without any check a success (a task built in code may have none)', async () => {
    const verdict = await evaluateSuccess(taskInCode, { finalTree: doneTree });
    expect(verdict).toMatchObject({ success: false, outcome: 'inconclusive', checks: [] });
    expect(verdict.reason).toContain('no success check');
  });

  it('control: the same task with a check that holds succeeds', async () => {
    expect((await evaluateSuccess({ ...taskInCode, success: { screen: 'exists(text="Done")' } }, { finalTree: doneTree })).success).toBe(true);
  });
});

describe('evaluateSuccess with judge: model (an outcome no predicate or adb query observes)', () => {
  const judged = task(`    success:\n      judge: model\n      criterion: a photo was taken`);
  const judgedAndScreen = task(`    success:\n      screen: 'checked(is=switch, near(text="7:30 AM"))'\n      judge: model\n      criterion: the alarm rings at 7:30`);

  it('is inconclusive, never a success, and says why', async () => {
    const tree = parseHierarchy(alarmScreen(true));
    const verdict = await evaluateSuccess(judged, { finalTree: tree });
    expect(verdict.success).toBe(false);
    expect(verdict.outcome).toBe('inconclusive');
    expect(verdict.checks).toEqual([expect.objectContaining({ kind: 'judge', check: 'a photo was taken', outcome: 'inconclusive' })]);
    expect(verdict.reason).toMatch(/model judge .* does not run yet/);
  });

  it('lets a failing predicate beside it fail the task', async () => {
    const verdict = await evaluateSuccess(judgedAndScreen, { finalTree: parseHierarchy(alarmScreen(false)) });
    expect(verdict.outcome).toBe('fail');
  });

  it('needs a criterion with judge: model, and judge: model with a criterion', () => {
    expect(() => task(`    success:\n      judge: model`)).toThrow(/criterion/);
    expect(() => task(`    success:\n      screen: 'exists(text="x")'\n      criterion: something`)).toThrow(/criterion/);
  });
});
