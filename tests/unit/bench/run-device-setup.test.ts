import { describe, expect, it } from 'vitest';
import { DeviceSetupError } from '../../../src/bench/device-setup-error.js';
import { deviceSetupSteps, runDeviceSetup, setupStepProblem, type DeviceSetupTarget } from '../../../src/bench/run-device-setup.js';
import type { DeviceAction } from '../../../src/device/device-action.js';
import { taskSchema, type TaskInput } from '../../../src/tasks/task-schema.js';

const notes = 'com.simplemobiletools.notes.pro';

function task(start: TaskInput['start']): ReturnType<typeof taskSchema.parse> {
  return taskSchema.parse({ id: 't', app: notes, instruction: 'Do it', source: { benchmark: 'senseact' }, start, success: { screen: 'exists(text="x")' }, allowedPackages: [notes], stepBudget: 5, difficulty: 'easy' });
}

/** A device that records the setup calls and answers from a script. */
class FakeSetupTarget implements DeviceSetupTarget {
  readonly info = { name: 'fake', kind: 'appium' as const, width: 100, height: 100, density: 160 };
  readonly calls: string[] = [];
  constructor(private readonly answers: { installed?: boolean; shell?: string | Error; console?: string | Error } = {}) {}
  async shell(command: string): Promise<string> {
    this.calls.push(`shell ${command}`);
    const answer = this.answers.shell ?? 'Success';
    if (answer instanceof Error) throw answer;
    return answer;
  }
  async isAppInstalled(packageName: string): Promise<boolean> {
    this.calls.push(`installed? ${packageName}`);
    return this.answers.installed ?? true;
  }
  async emulatorConsole(command: string): Promise<string> {
    this.calls.push(`emu ${command}`);
    const answer = this.answers.console ?? 'OK';
    if (answer instanceof Error) throw answer;
    return answer;
  }
  async act(action: DeviceAction): Promise<{ latencyMs: number }> {
    this.calls.push(`act ${action.type} ${'packageName' in action ? action.packageName : ''}`);
    return { latencyMs: 0 };
  }
}

describe('deviceSetupSteps', () => {
  it('puts the profile reset first and relaunches the start app after a clear', () => {
    expect(deviceSetupSteps(task({ launch: notes, device: [{ installed: notes }] }), { pmClear: true })).toEqual([{ pmClear: notes }, { installed: notes }, { launch: notes }]);
    expect(deviceSetupSteps(task({ launch: notes }), { snapshot: 'clean' })).toEqual([{ snapshot: 'clean' }, { launch: notes }]);
  });

  it('adds nothing without a reset or a clear, and does not clear twice', () => {
    expect(deviceSetupSteps(task({ launch: notes, device: [{ adb: 'shell input keyevent 3' }] }))).toEqual([{ adb: 'shell input keyevent 3' }]);
    expect(deviceSetupSteps(task({ device: [{ pmClear: notes }, { launch: notes }] }), { pmClear: true })).toEqual([{ pmClear: notes }, { launch: notes }]);
  });

  it('keeps a task\'s own snapshot before the profile\'s pm clear', () => {
    expect(deviceSetupSteps(task({ device: [{ snapshot: 'seeded' }, { installed: notes }] }), { pmClear: true })).toEqual([{ snapshot: 'seeded' }, { pmClear: notes }, { installed: notes }]);
  });
});

describe('start step schema', () => {
  it('accepts the reset steps and rejects a snapshot after other steps, naming the field', () => {
    expect(() => task({ device: [{ installed: notes, apk: 'apks/notes.apk' }, { pmClear: notes }] })).not.toThrow();
    expect(() => task({ device: [{ pmClear: notes }, { snapshot: 'clean' }] })).toThrow(/start\.device\.1\.snapshot|make it the first step/);
    expect(() => task({ device: [{ snapshot: 'has space' }] })).toThrow(/snapshot name/);
    expect(() => task({ device: [{ pmClear: 'notapackage' }] })).toThrow(/package name/);
  });
});

describe('runDeviceSetup', () => {
  it('runs each step through the device and records manual ones without doing them', async () => {
    const target = new FakeSetupTarget();
    const records = await runDeviceSetup([{ snapshot: 'clean' }, { installed: notes }, { pmClear: notes }, { adb: 'shell settings put global airplane_mode_on 0' }, { manual: 'log in' }, { launch: notes }], target, { taskId: 't' });
    expect(target.calls).toEqual(['emu avd snapshot load clean', `installed? ${notes}`, `shell pm clear ${notes}`, 'shell settings put global airplane_mode_on 0', `act launch ${notes}`]);
    expect(records.map((record) => record.outcome)).toEqual(['done', 'done', 'done', 'done', 'manual', 'done']);
  });

  it('names the task, the step and the APK when the app is missing, and stops there', async () => {
    const target = new FakeSetupTarget({ installed: false });
    const error = await runDeviceSetup([{ installed: notes, apk: 'apks/notes_99.apk' }, { pmClear: notes }], target, { taskId: 'notes-x' }).catch((caught: unknown) => caught);
    expect(DeviceSetupError.isInstance(error)).toBe(true);
    expect((error as DeviceSetupError).step).toBe(0);
    expect((error as Error).message).toMatch(/task "notes-x", start step 1 .*not installed\. Install it from apks\/notes_99\.apk/);
    expect(target.calls).toEqual([`installed? ${notes}`]);
  });

  it('turns a refused shell into the --allow-insecure advice, and another failure into the device\'s words', async () => {
    const refused = new FakeSetupTarget({ shell: new Error("Potentially insecure feature 'adb_shell' has not been enabled.") });
    await expect(runDeviceSetup([{ pmClear: notes }], refused, { taskId: 't' })).rejects.toThrow(/--allow-insecure '\*:adb_shell'/);
    const broken = new FakeSetupTarget({ shell: new Error('device offline') });
    await expect(runDeviceSetup([{ pmClear: notes }], broken, { taskId: 't' })).rejects.toThrow(/the device failed it: device offline/);
    const refusedConsole = new FakeSetupTarget({ console: new Error("Potentially insecure feature 'emulator_console' has not been enabled") });
    await expect(runDeviceSetup([{ snapshot: 'clean' }], refusedConsole, { taskId: 't' })).rejects.toThrow(/--allow-insecure '\*:emulator_console'/);
  });

  it('fails a pm clear that does not answer Success and a snapshot the emulator refuses (KO)', async () => {
    await expect(runDeviceSetup([{ pmClear: notes }], new FakeSetupTarget({ shell: 'Failed' }), { taskId: 't' })).rejects.toThrow(/instead of "Success"/);
    await expect(runDeviceSetup([{ snapshot: 'gone' }], new FakeSetupTarget({ console: 'KO: snapshot not found' }), { taskId: 't' })).rejects.toThrow(/refused to load snapshot "gone"/);
  });

  it('sends an emu step to the emulator console and fails one it answers KO', async () => {
    const target = new FakeSetupTarget();
    const records = await runDeviceSetup([{ emu: 'sms send 5551234 Hello there' }], target, { taskId: 't' });
    expect(target.calls).toEqual(['emu sms send 5551234 Hello there']);
    expect(records[0]?.step).toBe('adb emu sms send 5551234 Hello there');
    await expect(runDeviceSetup([{ emu: 'sms send x' }], new FakeSetupTarget({ console: 'KO: bad phone number' }), { taskId: 't' })).rejects.toThrow(/console refused "sms send x"/);
    expect(() => task({ device: [{ emu: 'avd snapshot load clean' }] })).toThrow(/snapshot: step/);
  });

  it('refuses host-side adb commands before running anything', async () => {
    expect(setupStepProblem({ adb: 'install app.apk' })).toMatch(/not an "adb shell …" command/);
    expect(setupStepProblem({ adb: 'shell pm list packages' })).toBeUndefined();
    const target = new FakeSetupTarget();
    await expect(runDeviceSetup([{ adb: 'emu kill' }], target, { taskId: 't' })).rejects.toThrow(/only those run through Appium/);
    expect(target.calls).toEqual([]);
  });
});
