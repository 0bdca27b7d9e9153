import { mkdtemp, mkdir, writeFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSuite, loadTask, parseTaskFile } from '../../../src/tasks/load-task-file.js';
import { TaskLoadError } from '../../../src/tasks/task-load-error.js';

const SOURCE = '{ benchmark: senseact }';
const valid = `tasks:
  - id: clock-add-alarm
    app: com.google.android.deskclock
    instruction: Set an alarm for 7:30 AM
    source: { benchmark: senseact }
    start: { launch: com.google.android.deskclock }
    success:
      state:
        - app: com.google.android.deskclock
          path: alarms
          op: some
          where:
            - { path: hour, op: equals, value: 7 }
    solution:
      - intent: Open the Alarms tab
        actions:
          - { unit: click, target: 'label="Alarm"' }
        expect: 'exists(desc="Add alarm")'
      - intent: Create the alarm
        actions:
          - { unit: fill, target: 'id~"hour"', value: 7 }
          - { unit: navigate, key: back }
    allowedPackages: [com.google.android.deskclock]
    stepBudget: 12
    difficulty: easy
`;

function problemsOf(text: string): string {
  try {
    parseTaskFile(text, 'tasks/sim/clock.yaml');
  } catch (error) {
    expect(TaskLoadError.isInstance(error)).toBe(true);
    return (error as Error).message;
  }
  throw new Error('expected a TaskLoadError');
}

describe('parseTaskFile', () => {
  it('parses a valid file and applies defaults', () => {
    const [task] = parseTaskFile(valid, 'x.yaml');
    expect(task?.id).toBe('clock-add-alarm');
    expect(task?.tags).toEqual([]);
    expect(task?.solution?.[1]?.actions[0]).toEqual({ unit: 'fill', target: 'id~"hour"', value: '7' });
  });

  it('takes a task of your own without source and difficulty (source senseact, no difficulty), and still checks them when given', () => {
    const [own] = parseTaskFile(valid.replace(`    source: ${SOURCE}\n`, '').replace('    difficulty: easy\n', ''), 'x.yaml');
    expect(own?.source).toEqual({ benchmark: 'senseact' });
    expect(own?.difficulty).toBeUndefined();
    expect(problemsOf(valid.replace('difficulty: easy', 'difficulty: trivial'))).toContain('field difficulty:');
    expect(problemsOf(valid.replace(SOURCE, '{ benchmark: androidlab }'))).toContain('field source.id:');
  });

  it('names file, line, column, task id and field of a schema error', () => {
    const message = problemsOf(valid.replace('stepBudget: 12', 'stepBudget: -1'));
    expect(message).toMatch(/tasks\/sim\/clock\.yaml:24:17: task "clock-add-alarm" field stepBudget: /);
  });

  it('rejects unknown fields with a hint', () => {
    const message = problemsOf(valid.replace('    stepBudget: 12', '    stepBudget: 12\n    sucess: {}'));
    expect(message).toContain('task "clock-add-alarm" field sucess: unknown field "sucess": did you mean "success"?');
  });

  it('gives line and column for YAML syntax errors', () => {
    const message = problemsOf('tasks:\n  - id: "unterminated\n    app: x\n');
    expect(message).toMatch(/tasks\/sim\/clock\.yaml:\d+:\d+: YAML syntax/);
  });

  it('checks predicate and target text', () => {
    const message = problemsOf(valid.replace(`expect: 'exists(desc="Add alarm")'`, `expect: 'exists(desc="Add alarm"'`));
    expect(message).toContain('field solution[0].expect:');
    expect(message).toContain('invalid predicate syntax');
    const badTarget = problemsOf(valid.replace(`target: 'label="Alarm"'`, `target: 'label=="Alarm"'`));
    expect(badTarget).toContain('field solution[0].actions[0].target: invalid predicate syntax');
  });

  it('requires a success check or an answer, and the app among allowed packages', () => {
    const withoutSuccess = valid.replace(/ {4}success:\n(?: {6}.*\n)+/, '');
    expect(problemsOf(withoutSuccess)).toContain('field success: a task needs a success check, an answer, or both');
    expect(problemsOf(valid.replace('allowedPackages: [com.google.android.deskclock]', 'allowedPackages: [com.android.settings]'))).toContain('field allowedPackages:');
  });

  it('rejects a navigate with both key and launch, and an unknown unit', () => {
    expect(problemsOf(valid.replace('{ unit: navigate, key: back }', '{ unit: navigate, key: back, launch: com.a.b }'))).toContain('navigate takes exactly one');
    expect(problemsOf(valid.replace('{ unit: navigate, key: back }', '{ unit: swipe, target: x }'))).toContain('field solution[1].actions[1].unit');
  });

  it('hints at nested misspelt fields too, with their path', () => {
    const message = problemsOf(valid.replace('          where:', '          wher:'));
    expect(message).toContain('field success.state[0].wher: unknown field "wher": did you mean "where"?');
  });

  it('rejects duplicate YAML keys, an empty file and a file without a task list', () => {
    expect(problemsOf(valid.replace('    stepBudget: 12', '    stepBudget: 12\n    stepBudget: 13'))).toMatch(/clock\.yaml:\d+:\d+: YAML syntax: .*unique/i);
    expect(problemsOf('')).toContain('tasks/sim/clock.yaml: the file is empty');
    expect(problemsOf(valid.replace('    stepBudget: 12\n', ''))).toContain('task "clock-add-alarm" field stepBudget: missing required field (expected number)');
    expect(problemsOf('tasks: {}\n')).toContain('field tasks:');
  });

  it('collects every problem of a file at once', () => {
    const broken = valid.replace('stepBudget: 12', 'stepBudget: 0').replace('difficulty: easy', 'difficulty: trivial');
    try {
      parseTaskFile(broken, 'x.yaml');
      throw new Error('expected a TaskLoadError');
    } catch (error) {
      if (!TaskLoadError.isInstance(error)) throw error;
      expect(error.problems.map((problem) => problem.field)).toEqual(['stepBudget', 'difficulty']);
      expect(error.problems.every((problem) => problem.taskId === 'clock-add-alarm' && problem.line !== undefined)).toBe(true);
    }
  });

  it('rejects duplicate ids in one file', () => {
    const body = valid.slice('tasks:\n'.length);
    expect(problemsOf(`tasks:\n${body}${body}`)).toContain('duplicate id');
  });
});

describe('loadSuite and loadTask', () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'senseact-tasks-'));
    await mkdir(path.join(root, 'good'));
    await writeFile(path.join(root, 'good', 'a.yaml'), valid);
    await writeFile(path.join(root, 'good', 'b.yaml'), valid.replace('clock-add-alarm', 'clock-other'));
    await mkdir(path.join(root, 'variants'));
    await writeFile(path.join(root, 'variants', 'a.yaml'), valid);
    await writeFile(path.join(root, 'variants', 'b.yaml'), valid.replace('clock-add-alarm', 'clock-other').replace(SOURCE, '{benchmark: senseact, variantOf: clock-add-alarm}'));
    await mkdir(path.join(root, 'stray'));
    await writeFile(path.join(root, 'stray', 'a.yaml'), valid.replace(SOURCE, '{benchmark: senseact, variantOf: clock-missing}'));
    await mkdir(path.join(root, 'dup'));
    await writeFile(path.join(root, 'dup', 'a.yaml'), valid);
    await writeFile(path.join(root, 'dup', 'b.yaml'), valid);
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('loads a suite by name from the tasks root, in file order', async () => {
    const suite = await loadSuite('good', { tasksRoot: root });
    expect(suite.name).toBe('good');
    expect(suite.tasks.map((task) => task.id)).toEqual(['clock-add-alarm', 'clock-other']);
  });

  it('rejects ids duplicated across files and unknown suites', async () => {
    await expect(loadSuite('dup', { tasksRoot: root })).rejects.toThrow(/duplicate id: .*a\.yaml has a task with this id too/);
    await expect(loadSuite('nope', { tasksRoot: root })).rejects.toThrow(/known suites under .*: dup, good/);
  });

  it('takes a template variant of a task of the same suite, and names a variant of a task it does not hold', async () => {
    const suite = await loadSuite('variants', { tasksRoot: root });
    expect(suite.tasks[1]?.source).toEqual({ benchmark: 'senseact', variantOf: 'clock-add-alarm' });
    await expect(loadSuite('stray', { tasksRoot: root })).rejects.toThrow(/variant of "clock-missing", which is not in suite "stray"/);
  });

  it('loads one task by id', async () => {
    const task = await loadTask(path.join(root, 'good', 'b.yaml'));
    expect(task.id).toBe('clock-other');
    await expect(loadTask(path.join(root, 'good', 'b.yaml'), 'missing')).rejects.toThrow('no task "missing" here; the file has: clock-other');
  });
});
