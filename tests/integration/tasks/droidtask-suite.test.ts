// tasks/droidtask (docs/experiments.md, Table 1): DroidTask's 162 instructions as a suite for real
// devices. It loads, every start step is well formed, `bench --dry-run` on the emulator
// profile finds every task runnable, and the 21 tasks with a simulated twin run on the
// simulator through the twin, under their own id.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBenchExecutor } from '../../../src/bench/compose.js';
import { loadSuite } from '../../../src/tasks/load-task-file.js';
import { runBenchCli, type BenchInvocation } from '../../helpers/bench-cli.js';

const repoRoot = path.resolve(import.meta.dirname, '..', '..', '..');
const tasksRoot = path.join(repoRoot, 'tasks');
const droidtask = await loadSuite('droidtask', { tasksRoot });
const sim = await loadSuite('sim', { tasksRoot });
const words = (text: string): string => text.split(/\s+/).filter(Boolean).join(' ');
let root: string;

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'senseact-droidtask-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

function bench(args: string[], cwd: string): Promise<BenchInvocation> {
  return runBenchCli(args, cwd, { createExecutor: createBenchExecutor, progressTty: null, signal: new AbortController().signal });
}

describe('tasks/droidtask', () => {
  it('holds every DroidTask instruction once, for the Simple Mobile Tools app, with reset steps', () => {
    expect(droidtask.tasks).toHaveLength(162);
    expect(new Set(droidtask.tasks.map((task) => `${task.source.benchmark === 'droidtask' ? task.source.app : ''}/${task.instruction}`)).size).toBe(162);
    for (const task of droidtask.tasks) {
      expect(task.app).toMatch(/^com\.simplemobiletools\./);
      const steps = task.start.device ?? [];
      expect(steps[0]).toEqual({ installed: task.app, apk: expect.stringMatching(/^apks\//) });
      // Either the app is cleared, or its seed data is a stated precondition (pm clear would wipe it).
      expect(steps.some((step) => ('pmClear' in step && step.pmClear === task.app) || 'manual' in step)).toBe(true);
    }
    const judged = droidtask.tasks.filter((task) => task.success?.judge === 'model');
    const programmatic = droidtask.tasks.filter((task) => task.success?.screen !== undefined || task.success?.adb !== undefined);
    expect(judged.length + programmatic.length).toBe(162);
    expect(programmatic.length).toBe(29);
  });

  it('links 21 simulated twins, each a sim task with the same DroidTask instruction', () => {
    const twins = droidtask.tasks.filter((task) => task.simTwin !== undefined);
    expect(twins).toHaveLength(21);
    for (const task of twins) {
      const twin = sim.tasks.find((candidate) => candidate.id === task.simTwin);
      expect(twin, task.simTwin).toBeDefined();
      expect(twin?.source.benchmark === 'droidtask' ? words(twin.source.task) : undefined).toBe(task.instruction);
    }
  });

  it('validates on the emulator profile with --dry-run, and names a start step that cannot run through Appium', async () => {
    const good = await bench(['--suite', 'droidtask', '--device', 'emulator', '--mode', 'senseact', '--policy', 'llm', '--dry-run'], repoRoot);
    expect(good.exitCode, good.stderr).toBe(0);
    expect(good.stdout).toContain('dry run: 162 tasks of suite droidtask × 1 mode(s) can run on device emulator; nothing was run');
    // "Can run" is followed by what they still need: a model judge that does not run yet, a hand-made state, APKs.
    expect(good.stdout).toContain('nothing was run\n  133 of them end inconclusive whatever the agent does');
    expect(good.stdout).toContain('\n  122 of them start from a state a person makes by hand');
    expect(good.stdout).toMatch(/^droidtask-clock-01: start \[installed com\.simplemobiletools\.clock .*; pm clear com\.simplemobiletools\.clock; launch com\.simplemobiletools\.clock\]; success: adb ×1$/m);
    // Negative control: a host-side adb command in the start steps stops the plan.
    const folder = path.join(root, 'tasks', 'bad');
    await mkdir(folder, { recursive: true });
    await writeFile(path.join(folder, 'bad.yaml'), `tasks:
- id: bad-step
  app: com.simplemobiletools.clock
  instruction: open the clock page
  source: { benchmark: senseact }
  start: { device: [{ adb: 'install clock.apk' }] }
  success: { screen: 'exists(text="Clock")' }
  allowedPackages: [com.simplemobiletools.clock]
  stepBudget: 5
  difficulty: easy
`);
    const bad = await bench(['--suite', 'bad', '--device', path.join(repoRoot, 'devices', 'emulator.yaml'), '--mode', 'senseact', '--policy', 'llm', '--dry-run'], root);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toMatch(/not an "adb shell …" command.*bad-step/s);
  });

  it('runs the twins on the simulator under the DroidTask ids; tasks without a twin cannot run there', async () => {
    const controller = new AbortController();
    const handle = await createBenchExecutor({ suite: 'droidtask', device: 'sim', faults: undefined, policy: 'oracle', outDir: root, cwd: repoRoot, env: {}, signal: controller.signal });
    try {
      const picked = ['droidtask-clock-06', 'droidtask-contacts-07', 'droidtask-notes-03'].map((id) => droidtask.tasks.find((task) => task.id === id)!);
      for (const task of picked) {
        expect(task.simTwin).toBeDefined();
        expect(handle.checkTask?.(task, 'senseact')).toBeUndefined();
        const result = await handle.executor({ task, mode: 'senseact', repeat: 0, outDir: root, traceDir: path.join(root, 'traces', task.id, 'senseact-r0'), signal: controller.signal });
        expect(result.id).toBe(task.id);
        expect(result.success, result.reason).toBe(true);
      }
      const lone = droidtask.tasks.find((task) => task.id === 'droidtask-camera-01')!;
      expect(lone.simTwin).toBeUndefined();
      expect(handle.checkTask?.(lone, 'senseact')).toMatch(/no reference solution/);
    } finally {
      await handle.close();
    }
  }, 60_000);
});
