// Per-task reset on a device (docs/grid.md, "Per-task reset"): the start steps and a device profile's `reset:`
// run through the same Appium calls a phone gets (`mobile: shell`, `mobile: isAppInstalled`,
// `mobile: execEmuConsoleCommand`), here against the simulator's Appium driver, whose
// shell and emulator console are the simulator's (pm clear = back to a fresh install's
// data; snapshots kept by the server).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBenchExecutor } from '../../../src/bench/compose.js';
import { DeviceSetupError } from '../../../src/bench/device-setup-error.js';
import { runDeviceSetup } from '../../../src/bench/run-device-setup.js';
import { AppiumDevice } from '../../../src/device/appium-device.js';
import { startAppiumServer, type AppiumServerHandle } from '../../../src/device/appium-server.js';
import { loadSuite } from '../../../src/tasks/load-task-file.js';
import { taskSchema, type Task } from '../../../src/tasks/task-schema.js';
import { readTrace } from '../../../src/trace/read-trace.js';
import type { TaskRunResult } from '../../../src/agent/task-run-result.js';
import { simCapabilities, startSimAppium } from '../device/sim-appium-server.js';

const repoRoot = path.resolve(import.meta.dirname, '..', '..', '..');
const notes = 'com.simplemobiletools.notes.pro';
const suite = await loadSuite('sim', { tasksRoot: path.join(repoRoot, 'tasks') });
let server: AppiumServerHandle;
let strictServer: AppiumServerHandle;
let root: string;

beforeAll(async () => {
  [server, strictServer] = await Promise.all([startSimAppium(), startAppiumServer({ host: '127.0.0.1', port: 0, withSimDriver: true, logLevel: 'error', allowInsecure: [] })]);
  root = await mkdtemp(path.join(tmpdir(), 'senseact-device-reset-'));
}, 120_000);
afterAll(async () => {
  await Promise.all([server?.stop(), strictServer?.stop()]);
  await rm(root, { recursive: true, force: true });
});

async function connect(url: string, extra: Record<string, unknown> = {}): Promise<AppiumDevice> {
  return await AppiumDevice.connect({ name: 'sim-appium-test', url, capabilities: simCapabilities(extra), settle: { intervalMs: 0, timeoutMs: 3000 } });
}

async function noteTitles(device: AppiumDevice): Promise<string[]> {
  const state = (await device.appState())?.(notes) as { notes: { title: string }[] };
  return state.notes.map((note) => note.title);
}

const emptyNotes = { notes: { notes: [], nextId: 1 } };

describe('start steps through Appium', () => {
  it('pm clear gives the app a fresh install\'s data and leaves other apps alone', async () => {
    const device = await connect(server.url, { 'senseact:initialState': emptyNotes });
    try {
      expect(await noteTitles(device)).toEqual([]);
      // Negative control: clearing another app leaves the notes as they were.
      await runDeviceSetup([{ pmClear: 'com.google.android.deskclock' }], device, { taskId: 't' });
      expect(await noteTitles(device)).toEqual([]);
      const records = await runDeviceSetup([{ installed: notes }, { pmClear: notes }, { launch: notes }], device, { taskId: 't' });
      expect(records.map((record) => record.step)).toEqual([`installed ${notes}`, `pm clear ${notes}`, `launch ${notes}`]);
      expect(await noteTitles(device)).toEqual(['General note', 'Diary', 'Shopping']);
      expect((await device.observe()).packageName).toBe(notes);
    } finally {
      await device.close();
    }
  });

  it('an app that is not installed stops the task with the APK to install', async () => {
    const device = await connect(server.url);
    try {
      const error = await runDeviceSetup([{ installed: 'com.simplemobiletools.dialer', apk: 'apks/com.simplemobiletools.dialer_55.apk' }], device, { taskId: 'dialer-call' }).catch((caught: unknown) => caught);
      expect(DeviceSetupError.isInstance(error)).toBe(true);
      expect((error as Error).message).toMatch(/task "dialer-call", start step 1 .*com\.simplemobiletools\.dialer is not installed.*apks\/com\.simplemobiletools\.dialer_55\.apk/);
      // Installed: passes.
      await expect(runDeviceSetup([{ installed: notes }], device, { taskId: 't' })).resolves.toHaveLength(1);
    } finally {
      await device.close();
    }
  });

  it('a snapshot load brings back the saved data; a missing snapshot is a clear error', async () => {
    const device = await connect(server.url, { 'senseact:initialState': emptyNotes });
    try {
      expect(await device.emulatorConsole('avd snapshot save empty-notes')).toBe('OK');
      await runDeviceSetup([{ pmClear: notes }], device, { taskId: 't' });
      expect(await noteTitles(device)).toHaveLength(3);
      await runDeviceSetup([{ snapshot: 'empty-notes' }], device, { taskId: 't' });
      expect(await noteTitles(device)).toEqual([]);
      const error = await runDeviceSetup([{ snapshot: 'never-saved' }], device, { taskId: 't' }).catch((caught: unknown) => caught);
      expect(DeviceSetupError.isInstance(error)).toBe(true);
      expect((error as Error).message).toMatch(/snapshot load never-saved.*never-saved' does not exist/s);
    } finally {
      await device.close();
    }
  });

  it('a server without the insecure features refuses, and the error says how to start it', async () => {
    const device = await connect(strictServer.url);
    try {
      const shell = await runDeviceSetup([{ pmClear: notes }], device, { taskId: 't' }).catch((caught: unknown) => caught);
      expect((shell as Error).message).toMatch(/refuses mobile: shell: start it with --allow-insecure '\*:adb_shell'/);
      const console = await runDeviceSetup([{ snapshot: 'clean' }], device, { taskId: 't' }).catch((caught: unknown) => caught);
      expect((console as Error).message).toMatch(/--allow-insecure '\*:emulator_console'/);
      // Nothing was cleared.
      expect(await noteTitles(device)).toHaveLength(3);
    } finally {
      await device.close();
    }
  });
});

describe('a device profile\'s reset in the bench', () => {
  // notes-delete-diary seeded without its Diary note: only a reset (pm clear brings back the
  // fresh install's three notes, Diary among them) makes the task playable.
  const base = suite.tasks.find((candidate) => candidate.id === 'notes-delete-diary')!;
  const task: Task = taskSchema.parse({ ...base, id: 'notes-delete-diary-after-reset', start: { launch: notes, state: { [notes]: { notes: [{ id: 'n1', title: 'General note', type: 'text', text: 'x', items: [] }], nextId: 2 } } } });

  async function runWith(reset: string[], which: Task = task, expectError = false): Promise<TaskRunResult> {
    const profile = path.join(root, `sim-appium-${reset.length}.yaml`);
    await writeFile(profile, [
      'kind: appium', 'name: sim-appium-reset', 'appium:', `  url: ${server.url}`, '  capabilities:', '    platformName: Android', '    appium:automationName: SenseActSim',
      'settle:', '  intervalMs: 0', '  timeoutMs: 3000', ...reset,
    ].join('\n'));
    const controller = new AbortController();
    const handle = await createBenchExecutor({ suite: 'sim', device: profile, faults: undefined, policy: 'oracle', outDir: root, cwd: repoRoot, env: {}, signal: controller.signal });
    try {
      const result = await handle.executor({ task: which, mode: 'senseact', repeat: 0, outDir: root, traceDir: path.join(root, 'traces', which.id, `senseact-r${reset.length}`), signal: controller.signal });
      if (expectError) expect(result.error).not.toBeNull();
      else expect(result.error).toBeNull();
      return result;
    } finally {
      await handle.close();
    }
  }

  it('applies reset: { pmClear: true } before the task, and the task is played from the reset state', async () => {
    const reset = await runWith(['reset:', '  pmClear: true']);
    expect(reset.success, reset.reason).toBe(true);
    // Each start step is in the run's trace with its outcome, before the agent's first step
    // (read now: the next run of the task replaces the folder).
    expect(startSteps(reset.traceDir)).toEqual([
      { index: 0, description: `pm clear ${notes}`, outcome: 'done', output: 'Success' },
      { index: 1, description: `launch ${notes}`, outcome: 'done' },
    ]);
    const types = readTrace(traceFolder(reset.traceDir)).events.map((event) => event.type);
    expect(types.lastIndexOf('start-step-end')).toBeLessThan(types.indexOf('step-start'));
    const none = await runWith([]);
    expect(none.success, none.reason).toBe(false);
    // Negative control: without a reset the run has no start steps to record.
    expect(startSteps(none.traceDir)).toEqual([]);
  }, 60_000);

  it('records a manual precondition as manual and a failed step as failed, and the run ends as an infrastructure error of its start', async () => {
    const manual: Task = taskSchema.parse({ ...task, id: 'notes-manual-then-missing', start: { ...task.start, device: [{ manual: 'sign in to the notes sync account' }, { installed: 'com.example.absent', apk: 'apks/absent.apk' }] } });
    const result = await runWith(['reset:', '  pmClear: true'], manual, true);
    expect(result.error).toMatch(/start step 3 \(installed com\.example\.absent/);
    const recorded = startSteps(result.traceDir);
    expect(recorded.map(({ description, outcome }) => [description, outcome])).toEqual([
      [`pm clear ${notes}`, 'done'],
      ['manual: sign in to the notes sync account', 'manual'],
      ['installed com.example.absent (apk apks/absent.apk)', 'failed'],
    ]);
    expect(recorded[2]?.output).toMatch(/com\.example\.absent is not installed/);
    const events = readTrace(traceFolder(result.traceDir)).events;
    // No agent step ran; the error says where it happened.
    expect(events.some((event) => event.type === 'step-start')).toBe(false);
    expect(events.find((event) => event.type === 'error')).toMatchObject({ where: 'start', infrastructure: true });
  }, 60_000);
});

function startSteps(traceDir: string): { index: number; description: string; outcome: string; output?: string }[] {
  return readTrace(traceFolder(traceDir)).events.flatMap((event) => (event.type === 'start-step-end' ? [{ index: event.index, description: event.description, outcome: event.outcome, ...(event.output === undefined ? {} : { output: event.output }) }] : []));
}

function traceFolder(traceDir: string): string {
  return path.isAbsolute(traceDir) ? traceDir : path.join(root, traceDir);
}
