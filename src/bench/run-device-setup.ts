import type { ActResult, CallOptions, DeviceInfo } from '../device/device.js';
import type { DeviceAction } from '../device/device-action.js';
import type { AppiumDeviceProfile } from '../device/device-profile.js';
import type { DeviceSetupStep, Task } from '../tasks/task-schema.js';
import { assertNever } from '../util/assert-never.js';
import { DeviceSetupError } from './device-setup-error.js';

/** What the start steps need from a device: `AppiumDevice` has it all; tests pass a fake. */
export interface DeviceSetupTarget {
  readonly info: DeviceInfo;
  /** One `adb shell` command (`mobile: shell`); throws when refused or when it exits non-zero. */
  shell(command: string, options?: CallOptions): Promise<string>;
  isAppInstalled(packageName: string, options?: CallOptions): Promise<boolean>;
  /** One emulator console command (`adb emu …`, `mobile: execEmuConsoleCommand`). */
  emulatorConsole(command: string, options?: CallOptions): Promise<string>;
  act(action: DeviceAction, options?: CallOptions): Promise<ActResult>;
}

/** The reset a device profile asks for before every task (`reset:` of an appium profile). */
export type DeviceReset = NonNullable<AppiumDeviceProfile['reset']>;

/** What one step did, for the trace and the dry run. */
export interface DeviceSetupRecord {
  /** The step in words, e.g. `pm clear com.simplemobiletools.notes.pro`. */
  readonly step: string;
  /** `done`, or `manual`: a precondition a person must have established (reported, never faked). */
  readonly outcome: 'done' | 'manual';
  readonly output?: string;
}

/** What `runDeviceSetup` tells as each step ends: its record, or `failed` with the error's message. */
export interface DeviceSetupOutcome {
  readonly index: number;
  readonly step: string;
  readonly outcome: 'done' | 'manual' | 'failed';
  readonly output?: string;
}

/**
 * The steps a task starts with on a device, in order: the profile's reset (a snapshot load,
 * or `pm clear` of the task's app), then the task's own `start.device` steps; and, when a
 * reset or `pm clear` has stopped the app the task starts in (`start.launch`) and no later
 * step launches it, a launch of it at the end.
 */
export function deviceSetupSteps(task: Task, reset?: DeviceReset): DeviceSetupStep[] {
  const own = task.start.device ?? [];
  // A task's own snapshot load (the schema keeps it first) comes before the profile's pm clear.
  const ownSnapshot = own.slice(0, 1).filter((step) => 'snapshot' in step);
  const steps: DeviceSetupStep[] = [
    ...(reset !== undefined && 'snapshot' in reset ? [{ snapshot: reset.snapshot }] : []),
    ...ownSnapshot,
    ...(reset !== undefined && 'pmClear' in reset && !own.some((step) => 'pmClear' in step && step.pmClear === task.app) ? [{ pmClear: task.app }] : []),
    ...own.slice(ownSnapshot.length),
  ];
  const lastStop = steps.findLastIndex((step) => 'snapshot' in step || 'pmClear' in step);
  const launch = task.start.launch;
  if (launch !== undefined && lastStop >= 0 && !steps.slice(lastStop).some((step) => 'launch' in step && step.launch === launch)) steps.push({ launch });
  return steps;
}

/** A step in words, as the dry run and the error messages name it. */
export function describeSetupStep(step: DeviceSetupStep): string {
  if ('adb' in step) return `adb ${step.adb}`;
  if ('launch' in step) return `launch ${step.launch}`;
  if ('installed' in step) return `installed ${step.installed}${step.apk === undefined ? '' : ` (apk ${step.apk})`}`;
  if ('pmClear' in step) return `pm clear ${step.pmClear}`;
  if ('snapshot' in step) return `emulator snapshot load ${step.snapshot}`;
  if ('emu' in step) return `adb emu ${step.emu}`;
  if ('manual' in step) return `manual: ${step.manual}`;
  return assertNever(step);
}

/**
 * Why a step cannot run through Appium at all, found before any run (the bench's plan
 * check): only `adb shell …` commands reach the device through `mobile: shell`.
 */
export function setupStepProblem(step: DeviceSetupStep): string | undefined {
  if ('adb' in step && !/^shell\s+\S/.test(step.adb.trim())) {
    return `start step "adb ${step.adb}" is not an "adb shell …" command, and only those run through Appium (mobile: shell); run host-side adb before the bench, or write it as shell …`;
  }
  return undefined;
}

/**
 * Carries out `steps` on the device, in order, and says what each did. Throws
 * `DeviceSetupError` naming the task, the step and what to do: a package that is not
 * installed (with the APK to install when the step names it), a server that refuses
 * `mobile: shell` (start Appium with `--allow-insecure '*:adb_shell'`) or the emulator
 * console (`*:emulator_console`), a `pm clear` or snapshot load the device reports as failed.
 */
export async function runDeviceSetup(steps: readonly DeviceSetupStep[], target: DeviceSetupTarget, context: { readonly taskId: string; readonly signal?: AbortSignal; readonly onStep?: (outcome: DeviceSetupOutcome) => void }): Promise<DeviceSetupRecord[]> {
  const records: DeviceSetupRecord[] = [];
  for (const [index, step] of steps.entries()) {
    const described = describeSetupStep(step);
    let record: DeviceSetupRecord;
    try {
      record = await runSetupStep(step, index, described, target, context);
    } catch (error) {
      context.onStep?.({ index, step: described, outcome: 'failed', output: error instanceof Error ? error.message : String(error) });
      throw error;
    }
    records.push(record);
    context.onStep?.({ index, ...record });
  }
  return records;
}

/** One start step; throws `DeviceSetupError` as `runDeviceSetup` says. */
async function runSetupStep(step: DeviceSetupStep, index: number, described: string, target: DeviceSetupTarget, context: { readonly taskId: string; readonly signal?: AbortSignal }): Promise<DeviceSetupRecord> {
  const options = context.signal ? { signal: context.signal } : {};
  const fail = (message: string, cause?: unknown): DeviceSetupError =>
    new DeviceSetupError({ taskId: context.taskId, step: index, message: `task "${context.taskId}", start step ${index + 1} (${described}) on device ${target.info.name}${target.info.servedBy === undefined ? '' : ` (${target.info.servedBy})`}: ${message}`, ...(cause === undefined ? {} : { cause }) });
  const attempt = async (run: () => Promise<string>, feature: 'adb_shell' | 'emulator_console'): Promise<string> => {
    try {
      return await run();
    } catch (error) {
      throw fail(refusalAdvice(error, feature), error);
    }
  };
  if ('manual' in step) {
    return { step: described, outcome: 'manual' };
  }
  if ('launch' in step) {
    await target.act({ type: 'launch', packageName: step.launch }, options);
    return { step: described, outcome: 'done' };
  }
  if ('installed' in step) {
    const installed = await target.isAppInstalled(step.installed, options);
    if (!installed) throw fail(`the package ${step.installed} is not installed. Install it${step.apk === undefined ? '' : ` from ${step.apk}`} (adb install <apk>) and run again.`);
    return { step: described, outcome: 'done' };
  }
  if ('pmClear' in step) {
    const output = await attempt(() => target.shell(`pm clear ${step.pmClear}`, options), 'adb_shell');
    if (!/^Success\b/m.test(output)) throw fail(`pm clear answered ${JSON.stringify(output.trim())} instead of "Success"; is ${step.pmClear} installed?`);
    return { step: described, outcome: 'done', output: output.trim() };
  }
  if ('snapshot' in step) {
    const output = await attempt(() => target.emulatorConsole(`avd snapshot load ${step.snapshot}`, options), 'emulator_console');
    if (/\bKO\b/.test(output)) throw fail(`the emulator refused to load snapshot "${step.snapshot}": ${output.trim()}. List them with adb emu avd snapshot list; save one with adb emu avd snapshot save ${step.snapshot}.`);
    return { step: described, outcome: 'done', output: output.trim() };
  }
  if ('emu' in step) {
    const output = await attempt(() => target.emulatorConsole(step.emu, options), 'emulator_console');
    if (/^KO\b/m.test(output)) throw fail(`the emulator console refused "${step.emu}": ${output.trim()}`);
    return { step: described, outcome: 'done', output: output.trim() };
  }
  const problem = setupStepProblem(step);
  if (problem !== undefined) throw fail(problem);
  const output = await attempt(() => target.shell(step.adb.trim().replace(/^shell\s+/, ''), options), 'adb_shell');
  return { step: described, outcome: 'done', output: output.trim() };
}

/** The server's refusal in words a user can act on. */
function refusalAdvice(error: unknown, feature: 'adb_shell' | 'emulator_console'): string {
  const message = error instanceof Error ? error.message : String(error);
  if (/insecure feature|has not been enabled|relaxed.security/i.test(message)) {
    const what = feature === 'adb_shell' ? 'mobile: shell' : 'the emulator console (mobile: execEmuConsoleCommand)';
    return `the Appium server refuses ${what}: start it with --allow-insecure '*:${feature}' (scripts/start-appium.ts does), or drop this step. Server said: ${message}`;
  }
  return `the device failed it: ${message}`;
}
