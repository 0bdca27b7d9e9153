// checkSuiteApps (docs/androidworld.md): `devices check <profile> --suite <suite>` names every app the
// suite's start steps install that the device lacks, with its APK, and checks a root shell
// when the suite uses one; a device that has everything passes.
import { describe, expect, it } from 'vitest';
import { checkSuiteApps, suiteApps, type SuiteAppsTarget } from '../../../src/bench/check-suite-apps.js';
import { taskSchema, type Task } from '../../../src/tasks/task-schema.js';

function task(id: string, device: unknown[]): Task {
  return taskSchema.parse({ id, app: 'net.gsantner.markor', instruction: 'x', source: { benchmark: 'senseact' }, start: { device }, success: { screen: 'exists(text="x")' }, allowedPackages: ['net.gsantner.markor'], stepBudget: 5, difficulty: 'easy' });
}

const tasks = [
  task('a', [{ installed: 'net.gsantner.markor', apk: 'androidworld-apks/net.gsantner.markor_146.apk' }, { adb: 'shell su 0 sqlite3 /data/x.db "DELETE FROM sms;"' }]),
  task('b', [{ installed: 'net.gsantner.markor', apk: 'androidworld-apks/net.gsantner.markor_146.apk' }, { installed: 'com.android.settings' }]),
];

class FakeTarget implements SuiteAppsTarget {
  constructor(private readonly have: readonly string[], private readonly uid: string | Error = '0') {}
  async isAppInstalled(packageName: string): Promise<boolean> {
    return this.have.includes(packageName);
  }
  async shell(): Promise<string> {
    if (this.uid instanceof Error) throw this.uid;
    return `${this.uid}\n`;
  }
}

describe('checkSuiteApps', () => {
  it('lists the packages the start steps install, with the APK and how many tasks need each', () => {
    expect([...suiteApps(tasks)]).toEqual([['net.gsantner.markor', { apk: 'androidworld-apks/net.gsantner.markor_146.apk', tasks: 2 }], ['com.android.settings', { tasks: 1 }]]);
  });

  it('passes a device with every app and root', async () => {
    const lines = await checkSuiteApps({ name: 'aw', tasks }, new FakeTarget(['net.gsantner.markor', 'com.android.settings']));
    expect(lines).toEqual([{ ok: true, what: 'all 2 apps of suite aw installed' }, { ok: true, what: 'root shell (su 0) available' }]);
  });

  it('names a missing app with its APK, and a shell that is not root', async () => {
    const lines = await checkSuiteApps({ name: 'aw', tasks }, new FakeTarget(['com.android.settings'], '2000'));
    expect(lines.map((line) => line.ok)).toEqual([false, false]);
    expect(lines[0]?.what).toBe('app net.gsantner.markor not installed (2 task(s) of suite aw need it)');
    expect(lines[0]?.todo).toMatch(/^adb install -r -g androidworld-apks\/net\.gsantner\.markor_146\.apk \(bash scripts\/setup-emulator\.sh --androidworld/);
    expect(lines[1]?.todo).toMatch(/google_apis/);
    const refused = await checkSuiteApps({ name: 'aw', tasks }, new FakeTarget(['net.gsantner.markor', 'com.android.settings'], new Error("Potentially insecure feature 'adb_shell' has not been enabled")));
    expect(refused[1]?.todo).toMatch(/--allow-insecure '\*:adb_shell'/);
  });
});
