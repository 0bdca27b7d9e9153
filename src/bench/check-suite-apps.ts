import type { CallOptions } from '../device/device.js';
import type { Task } from '../tasks/task-schema.js';

/** What the check needs from a device (`AppiumDevice` has both; tests pass a fake). */
export interface SuiteAppsTarget {
  isAppInstalled(packageName: string, options?: CallOptions): Promise<boolean>;
  /** One `adb shell` command; throws when refused or when it exits non-zero. */
  shell(command: string, options?: CallOptions): Promise<string>;
}

/** One line of the check: what holds or not, and what to do when not. */
export interface SuiteAppsLine {
  readonly ok: boolean;
  readonly what: string;
  readonly todo?: string;
}

/** The packages a suite's start steps require (`installed:`), with the APK each names, in first-seen order. */
export function suiteApps(tasks: readonly Task[]): Map<string, { readonly apk?: string; readonly tasks: number }> {
  const apps = new Map<string, { apk?: string; tasks: number }>();
  for (const task of tasks) {
    for (const step of task.start.device ?? []) {
      if (!('installed' in step)) continue;
      const entry = apps.get(step.installed) ?? { tasks: 0 };
      apps.set(step.installed, { ...entry, ...(entry.apk === undefined && step.apk !== undefined ? { apk: step.apk } : {}), tasks: entry.tasks + 1 });
    }
  }
  return apps;
}

/** Whether some start step or check of the suite runs a root shell (`su 0 …`). */
function needsRoot(tasks: readonly Task[]): boolean {
  const commands = tasks.flatMap((task) => [...(task.start.device ?? []).flatMap((step) => ('adb' in step ? [step.adb] : [])), ...(task.success?.adb ?? []).map((check) => check.command)]);
  return commands.some((command) => /\bsu\s+0\b/.test(command));
}

/**
 * Checks a device for what a suite's tasks need before the first run (`senseact devices
 * check <profile> --suite <suite>`): every package its `installed:` start steps name
 * (missing ones listed with the APK that installs them), and, when a step or check runs
 * `su 0`, that the shell can become root. Device failures other than a missing app or a
 * refused root become lines that say what to do; nothing throws for a missing app.
 */
export async function checkSuiteApps(suite: { readonly name: string; readonly tasks: readonly Task[] }, target: SuiteAppsTarget, options: CallOptions = {}): Promise<SuiteAppsLine[]> {
  const apps = suiteApps(suite.tasks);
  const missing: { packageName: string; apk?: string; tasks: number }[] = [];
  for (const [packageName, entry] of apps) {
    if (!(await target.isAppInstalled(packageName, options))) missing.push({ packageName, ...entry });
  }
  const lines: SuiteAppsLine[] = [];
  if (missing.length === 0) lines.push({ ok: true, what: `all ${apps.size} apps of suite ${suite.name} installed` });
  for (const app of missing) {
    lines.push({
      ok: false,
      what: `app ${app.packageName} not installed (${app.tasks} task(s) of suite ${suite.name} need it)`,
      todo: app.apk === undefined ? `install ${app.packageName} on the device` : `adb install -r -g ${app.apk}${app.apk.startsWith('androidworld-apks/') ? ' (bash scripts/setup-emulator.sh --androidworld downloads and installs them all)' : ''}`,
    });
  }
  if (needsRoot(suite.tasks)) {
    try {
      const uid = (await target.shell('su 0 id -u', options)).trim();
      lines.push(uid === '0' ? { ok: true, what: 'root shell (su 0) available' } : { ok: false, what: `su 0 id -u answered ${JSON.stringify(uid)}, not 0`, todo: 'use a google_apis system image (google_play images refuse su)' });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const refused = /insecure feature|has not been enabled/i.test(message);
      lines.push({ ok: false, what: `root shell not available: ${message}`, todo: refused ? "start Appium with --allow-insecure '*:adb_shell' (scripts/start-appium.ts does)" : 'use a google_apis system image (google_play images refuse su); the suite resets app data as root' });
    }
  }
  return lines;
}
