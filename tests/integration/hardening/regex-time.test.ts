// Regexes from task files and models run on a linear-time engine: the backtracking bomb
// `^(a+)+$` on 34 `a`s and a `b` answers at once in `check`, in a task's expect and as a
// model's expectation (on a backtracking engine each ran past 60 s), and a 40,000-character
// pattern is bad input (exit 2) wherever it is given. Negative controls: the same pattern
// still matches what it should, and sound patterns keep JavaScript's meaning.
import { mkdir, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { runTask } from '../../../src/agent/run-task.js';
import { simulatorForTask } from '../../../src/bench/simulator-for-task.js';
import { main } from '../../../src/cli/main.js';
import { SimDevice } from '../../../src/device/sim-device.js';
import { ScriptedLanguageModel } from '../../../src/model/scripted-language-model.js';
import { taskSchema, type Task } from '../../../src/tasks/task-schema.js';
import { readTrace } from '../../../src/trace/read-trace.js';
import { linearRegex, linearRegexProblem, maxRegexLength } from '../../../src/util/linear-regex.js';
import { temporaryRunRoot } from '../../helpers/sim-suite.js';
import { unitIdIn } from '../../unit/agent/senseact-fixture.js';

const runRoot = temporaryRunRoot('senseact-regex-');
const bomb = 'a'.repeat(34) + 'b';
const hugePattern = `(a)${'a'.repeat(40_000)}`;

async function cli(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(args, { stdout: (text) => { out += text; }, stderr: (text) => { err += text; }, cwd: runRoot.dir(), env: {} });
  return { code, out, err };
}

const screen = `<hierarchy rotation="0"><node index="0" text="${bomb}" class="android.widget.TextView" package="com.example" bounds="[0,0][100,100]"/></hierarchy>`;

/** A notes task whose start screen shows the bomb text; `expect` goes on its one solution step. */
function notesTaskYaml(id: string, expectation: string): string {
  return [
    'tasks:',
    `- id: ${id}`,
    '  app: com.simplemobiletools.notes.pro',
    '  instruction: Open the new note dialog',
    '  source: {benchmark: senseact}',
    '  difficulty: easy',
    '  start:',
    '    launch: com.simplemobiletools.notes.pro',
    `    state: {com.simplemobiletools.notes.pro: {notes: [{id: n1, title: General note, type: text, text: ${bomb}, items: []}], nextId: 10}}`,
    "  success: {screen: 'exists(text=\"Add a new note\")'}",
    '  solution:',
    '  - intent: Open the new note dialog',
    "    actions: [{unit: click, target: 'desc=\"Create a new note\"'}]",
    `    expect: '${expectation}'`,
    '  allowedPackages: [com.simplemobiletools.notes.pro]',
    '  stepBudget: 3',
    '',
  ].join('\n');
}

function parseTask(yaml: string): Task {
  const parsed = parse(yaml) as { tasks: unknown[] };
  return taskSchema.parse(parsed.tasks[0]);
}

describe('regexes in linear time', () => {
  it('the engine: the bomb answers, JavaScript meanings hold, lookarounds and long patterns are refused', () => {
    expect(linearRegex('^(a+)+$').test(bomb)).toBe(false);
    expect(linearRegex('^(a+)+b$').test(bomb)).toBe(true);
    // Android's "3:00 PM" has a narrow no-break space; \s matches it as in JavaScript.
    expect(linearRegex('^3:00\\s?PM$').test('3:00\u202fPM')).toBe(true);
    expect(linearRegex('^3:00\\S?PM$').test('3:00\u202fPM')).toBe(false);
    expect(linearRegex('[\\s,]+').test('\u00a0')).toBe(true);
    expect(linearRegex('^\\u00e9$', 'i').test('É')).toBe(true);
    expect(linearRegex('^\\d+(\\.\\d+)?\\s?(kB|MB|GB)$').test('12.5 MB')).toBe(true);
    expect(linearRegexProblem('(?=a)b')).toMatch(/lookaround .* not supported/);
    expect(linearRegexProblem('(a)\\1')).toMatch(/backreference \\1 is not supported/);
    expect(linearRegexProblem('a', 'g')).toMatch(/flag "g" is not allowed/);
    expect(linearRegexProblem(hugePattern)).toBe(`pattern is ${hugePattern.length} characters long; the limit is ${maxRegexLength}`);
    expect(linearRegexProblem('a'.repeat(maxRegexLength))).toBeUndefined();
  });

  it('check: the bomb fails at once and its anchored twin passes; a 40,000-character regex exits 2', async () => {
    const file = path.join(runRoot.dir(), 'bomb.xml');
    await writeFile(file, screen);
    const bombRun = await cli('check', file, 'exists(text=~/^(a+)+$/)');
    expect(bombRun.code).toBe(1);
    expect(bombRun.out).toContain('no node matches text=~/^(a+)+$/');
    expect((await cli('check', file, 'exists(text=~/^(a+)+b$/)')).code).toBe(0);
    const huge = await cli('check', file, `exists(text=~/${hugePattern}/)`);
    expect(huge.code).toBe(2);
    expect(huge.err).toContain('invalid regex: pattern is 40003 characters long; the limit is 1000');
    const hugeJson = await cli('check', file, JSON.stringify({ kind: 'exists', query: { text: { op: 'matches', pattern: hugePattern } } }));
    expect(hugeJson.code).toBe(2);
    expect(hugeJson.err).toContain('the limit is 1000');
  });

  it('a task: the bomb in expect runs to the end; a 40,000-character regex in a task file is bad input (exit 2)', async () => {
    const task = parseTask(notesTaskYaml('notes-bomb', 'exists(text="Add a new note") and not exists(text=~/^(a+)+$/)'));
    const device = new SimDevice(simulatorForTask(task, { seed: 1 }));
    const result = await runTask({ task, mode: 'senseact', policy: 'oracle', device, probe: device, traceRoot: runRoot.dir(), suite: 'regex' });
    expect(result.success).toBe(true);
    const hugeSuite = path.join(runRoot.dir(), 'huge');
    await mkdir(hugeSuite);
    await writeFile(path.join(hugeSuite, 'huge.yaml'), notesTaskYaml('notes-huge', `exists(text=~/${hugePattern}/)`));
    const huge = await cli('bench', '--suite', hugeSuite, '--mode', 'senseact', '--device', 'sim', '--policy', 'oracle', '--out', path.join(runRoot.dir(), 'out-huge'));
    expect(huge.code).toBe(2);
    expect(huge.err).toMatch(/huge\.yaml:\d+:\d+: task "notes-huge" field solution\[0\]\.expect: .*the limit is 1000/);
    expect(huge.err.length).toBeLessThan(2_000);
  });

  it("a model's expectation: the bomb is evaluated at once (and fails, as it should)", async () => {
    const task = parseTask(notesTaskYaml('notes-model', 'exists(text="Add a new note")'));
    const planner = new ScriptedLanguageModel({
      replies: (request, index) => (index === 0
        ? JSON.stringify({ intent: 'Open the new note dialog', expectation: 'exists(text=~/^(a+)+$/)', commitment: [{ unit: unitIdIn(request, 'Create a new note') }] })
        : JSON.stringify({ intent: 'Done', finish: true, commitment: [] })),
    });
    const device = new SimDevice(simulatorForTask(task, { seed: 1 }));
    const result = await runTask({ task, mode: 'senseact-text', policy: 'llm', device, probe: device, models: { planner }, traceRoot: runRoot.dir(), suite: 'regex' });
    const trace = await readTrace(result.traceDir);
    const verdicts = trace.events.filter((event) => event.type === 'verify-end');
    expect(verdicts.length).toBeGreaterThan(0);
    expect(verdicts[0]).toMatchObject({ outcome: 'fail' });
    expect(JSON.stringify(verdicts[0])).toContain('no node matches text=~/^(a+)+$/');
  });
});
