// tasks/androidworld and tasks/sim-androidworld (docs/androidworld.md): AndroidWorld's 116 templates as a
// suite. The committed files are what the seeded generator gives; every task loads; the
// dry run on the emulator profile lists each task as runnable or not with the reason; a
// twin's check passes after its reference solution through the loop and fails on the untouched start state;
// a device check passes on the output it expects and fails on another.
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBenchExecutor } from '../../../src/bench/compose.js';
import { simulatorForTask } from '../../../src/bench/simulator-for-task.js';
import { defaultSettingsState } from '../../../src/sim/apps/settings-app.js';
import { generateAndroidWorldTasks } from '../../../src/tasks/androidworld/generate-androidworld-tasks.js';
import { renderAndroidWorldFiles } from '../../../src/tasks/androidworld/render-androidworld-files.js';
import { evaluateSuccess } from '../../../src/tasks/evaluate-success.js';
import { loadSuite } from '../../../src/tasks/load-task-file.js';
import { parseHierarchy } from '../../../src/ui/parse-hierarchy.js';
import { runBenchCli } from '../../helpers/bench-cli.js';

const repoRoot = path.resolve(import.meta.dirname, '..', '..', '..');
const tasksRoot = path.join(repoRoot, 'tasks');
const metadata: unknown = JSON.parse(readFileSync(path.join(tasksRoot, 'androidworld', 'task_metadata.json'), 'utf8'));
const simDefaults = { settings: defaultSettingsState() };
const androidworld = await loadSuite('androidworld', { tasksRoot });
const twins = await loadSuite('sim-androidworld', { tasksRoot });
// Templates whose check is expressed (44 at first; with the Pro Expense, Broccoli, Simple Calendar Pro, Tasks, OpenTracks and Joplin rows and the two SMS tasks with contacts, 99).
const coveredCount = 99;
let root: string;

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'senseact-androidworld-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('tasks/androidworld', () => {
  it('holds every template once, with its difficulty and optimal steps, and a check or the reason it has none', () => {
    expect(androidworld.tasks).toHaveLength(116);
    const templates = (metadata as { task_name: string; difficulty: string; optimal_steps: string }[]);
    for (const entry of templates) {
      const task = androidworld.tasks.find((candidate) => candidate.source.benchmark === 'androidworld' && candidate.source.template === entry.task_name);
      expect(task, entry.task_name).toBeDefined();
      expect(task?.difficulty).toBe(entry.difficulty);
      expect(task?.referenceSteps).toBe(Number(entry.optimal_steps));
      expect(task?.instruction).not.toMatch(/\{\w+\}/);
      expect(task?.start.device?.[0]).toEqual(expect.objectContaining({ installed: task?.app }));
      if (task?.uncovered === undefined) expect(task?.success?.screen ?? task?.success?.adb ?? task?.answer, entry.task_name).toBeDefined();
      else expect(task.success?.judge).toBe('model');
    }
    expect(androidworld.tasks.filter((task) => task.uncovered === undefined)).toHaveLength(coveredCount);
  });

  it('is what the seeded generator gives; the same seed draws the same parameters, another seed others', () => {
    const suites = generateAndroidWorldTasks(metadata, { seed: 30, simDefaults });
    for (const [relative, text] of renderAndroidWorldFiles(suites, 30)) expect(readFileSync(path.join(repoRoot, relative), 'utf8'), `${relative}: run npx tsx scripts/generate-androidworld-tasks.ts`).toBe(text);
    expect(generateAndroidWorldTasks(metadata, { seed: 30, simDefaults })).toEqual(suites);
    const other = generateAndroidWorldTasks(metadata, { seed: 31, simDefaults });
    const params = (tasks: typeof suites.tasks): string[] => tasks.map((task) => JSON.stringify(task.source?.benchmark === 'androidworld' ? task.source.params : {}));
    const changed = params(other.tasks).filter((drawn, index) => drawn !== params(suites.tasks)[index]).length;
    expect(changed).toBeGreaterThan(40);
    // Negative control: a template the generator has no entry for is named, not skipped.
    expect(() => generateAndroidWorldTasks([{ task_name: 'MadeUpTask', task_template: 'Do it.', difficulty: 'easy', tags: [], optimal_steps: '2' }], { simDefaults })).toThrow(/no template entry for "MadeUpTask"/);
  });

  it('links each twin to a task of sim-androidworld with the same instruction, leaving the sim suite alone', async () => {
    const linked = androidworld.tasks.filter((task) => task.simTwin !== undefined);
    expect(linked).toHaveLength(twins.tasks.length);
    for (const task of linked) {
      const twin = twins.tasks.find((candidate) => candidate.id === task.simTwin);
      expect(twin?.instruction, task.id).toBe(task.instruction);
      expect(twin?.solution?.length).toBeGreaterThan(0);
    }
    expect((await loadSuite('sim', { tasksRoot })).tasks).toHaveLength(173);
  });

  it('lists every task on the emulator profile as runnable or not, with the reason', async () => {
    const result = await runBenchCli(['--suite', 'androidworld', '--device', 'emulator', '--dry-run'], repoRoot, { createExecutor: createBenchExecutor, progressTty: null, signal: new AbortController().signal });
    expect(result.exitCode).toBe(2);
    const lines = result.stdout.split('\n').filter((line) => line.startsWith('aw-'));
    expect(lines).toHaveLength(116);
    expect(lines.filter((line) => / cannot run: not covered: /.test(line))).toHaveLength(116 - coveredCount);
    expect(result.stdout).toMatch(/^aw-system-wifi-turn-off: start \[installed com\.android\.settings; adb shell svc wifi enable; launch com\.android\.settings\]; success: adb ×1$/m);
    expect(result.stdout).toContain(`dry run: ${coveredCount} of 116 tasks of suite androidworld can run on device emulator, ${116 - coveredCount} cannot (reasons above)`);
    const covered = await runBenchCli(['--suite', 'androidworld', '--device', 'emulator', '--tags', 'covered', '--dry-run'], repoRoot, { createExecutor: createBenchExecutor, progressTty: null, signal: new AbortController().signal });
    expect(covered.exitCode, covered.stderr).toBe(0);
  });

  it('decides a device check from the adb output: what it expects passes, anything else fails', async () => {
    const finalTree = parseHierarchy('<hierarchy rotation="0"><node index="0" text="" class="android.widget.FrameLayout" package="com.android.settings" bounds="[0,0][1080,2400]" /></hierarchy>');
    const wifiOff = androidworld.tasks.find((task) => task.id === 'aw-system-wifi-turn-off')!;
    const command = wifiOff.success?.adb?.[0]?.command ?? '';
    expect((await evaluateSuccess(wifiOff, { finalTree, adbOutputs: { [command]: '0\n' } })).success).toBe(true);
    expect((await evaluateSuccess(wifiOff, { finalTree, adbOutputs: { [command]: '1\n' } })).success).toBe(false);
    const note = androidworld.tasks.find((task) => task.id === 'aw-markor-change-note-content')!;
    const cat = note.success?.adb?.[0]?.command ?? '';
    const updated = note.source.benchmark === 'androidworld' ? String(note.source.params['updated_content']) : '';
    expect((await evaluateSuccess(note, { finalTree, adbOutputs: { [cat]: `${updated}\n` } })).success).toBe(true);
    expect((await evaluateSuccess(note, { finalTree, adbOutputs: { [cat]: `${updated} and more\n` } })).success).toBe(false);
    // Resend: two sent messages, both the same text to the contact's number; a new message instead of the old text fails.
    const resend = androidworld.tasks.find((task) => task.id === 'aw-simple-sms-resend')!;
    const [all = '', same = ''] = (resend.success?.adb ?? []).map((check) => check.command);
    expect(same).toMatch(/AND body = '.+' AND address LIKE '%\d{7}'/);
    expect((await evaluateSuccess(resend, { finalTree, adbOutputs: { [all]: '2\n', [same]: '2\n' } })).success).toBe(true);
    expect((await evaluateSuccess(resend, { finalTree, adbOutputs: { [all]: '2\n', [same]: '1\n' } })).success).toBe(false);
  });

  // Every twin, through the whole loop with the oracle under the standard faults (docs/androidworld.md
  // gives the figures): a run that met no fault succeeds, and a run that failed met one; the
  // twin's check on its untouched start fails. About 8 s of CPU for the 25 runs.
  it('runs every twin on the simulator through the oracle under the standard faults; the untouched start state fails the same check', async () => {
    const controller = new AbortController();
    const handle = await createBenchExecutor({ suite: 'androidworld', device: 'sim', faults: 'standard', policy: 'oracle', outDir: root, cwd: repoRoot, env: {}, signal: controller.signal });
    const linked = androidworld.tasks.filter((task) => task.simTwin !== undefined);
    expect(linked).toHaveLength(25);
    const outcomes: { id: string; success: boolean; faults: number; reason: string }[] = [];
    try {
      for (const task of linked) {
        expect(handle.checkTask?.(task, 'senseact'), task.id).toBeUndefined();
        const result = await handle.executor({ task, mode: 'senseact', repeat: 0, outDir: root, traceDir: path.join(root, 'traces', task.id, 'senseact-r0'), signal: controller.signal });
        outcomes.push({ id: task.id, success: result.success, faults: result.faults.length, reason: result.reason });
        // Negative control: the twin's check on its start state, before anything was done. A
        // System*Verify template starts where it should end (nothing to do but not break it):
        // its check is its sibling's, whose start it fails.
        const twin = twins.tasks.find((candidate) => candidate.id === task.simTwin)!;
        const control = twins.tasks.find((candidate) => candidate.id === twin.id.replace(/-verify$/, '')) ?? twin;
        expect(control.success, `${twin.id}: the control has the same check`).toEqual(twin.success);
        const simulator = simulatorForTask(control, { repeat: 0 });
        const before = await evaluateSuccess(twin, { finalTree: parseHierarchy(simulator.pageSource()), appState: (name) => simulator.appState(name) });
        expect(before.success, `${task.id} before`).toBe(false);
      }
      const lone = androidworld.tasks.find((task) => task.id === 'aw-expense-add-single')!;
      expect(handle.checkTask?.(lone, 'senseact')).toMatch(/has no app com\.arduia\.expense|no reference solution/);
    } finally {
      await handle.close();
    }
    for (const run of outcomes.filter((each) => each.faults === 0)) expect(run.success, `${run.id} met no fault: ${run.reason}`).toBe(true);
    for (const run of outcomes.filter((each) => !each.success)) expect(run.faults, `${run.id} failed: ${run.reason}`).toBeGreaterThan(0);
    // The standard faults were injected, and most runs ride them out.
    expect(outcomes.filter((run) => run.faults > 0).length).toBeGreaterThan(10);
    expect(outcomes.filter((run) => run.success).length).toBeGreaterThanOrEqual(22);
  }, 120_000);
});
