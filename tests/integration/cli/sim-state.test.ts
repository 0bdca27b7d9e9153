// `observe sim --state FILE` and `act sim --state FILE` keep one simulator between CLI
// calls (each call starts a fresh in-process simulator, which replays the calls the file
// records): act then observe chain as on a phone. Without the file each call starts again
// from the first screen (the negative control).
import { readFile, writeFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CliIo } from '../../../src/cli/cli-io.js';
import { main } from '../../../src/cli/main.js';

let cwd: string;

async function run(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = { stdout: (text) => (stdout += text), stderr: (text) => (stderr += text), cwd, env: {} };
  const code = await main(argv, io);
  return { code, stdout, stderr };
}

/** The id observe printed for the unit with this label (`n9da1 click "Network & internet" [..]`). */
function unitId(observed: string, label: string): string {
  const line = observed.split('\n').find((text) => text.includes(` ${JSON.stringify(label)} [`));
  const id = line?.split(' ')[0];
  if (id === undefined) throw new Error(`no unit "${label}" in:\n${observed}`);
  return id;
}

const header = (stdout: string): string => stdout.split('\n')[0] ?? '';

describe('observe / act on the simulator with --state', () => {
  beforeAll(async () => {
    cwd = await mkdtemp(path.join(tmpdir(), 'senseact-sim-state-'));
  });
  afterAll(async () => {
    await rm(cwd, { recursive: true, force: true });
  });

  it('act then observe chain through the state file; without it each call starts from the first screen', async () => {
    const first = await run('observe', 'sim', '--state', 'state/settings.json', '--launch', 'com.android.settings');
    expect(first.code).toBe(0);
    expect(header(first.stdout)).toMatch(/^# com\.android\.settings \.Settings /);

    const tapped = await run('act', 'sim', '--state', 'state/settings.json', 'tap', unitId(first.stdout, 'Network & internet'));
    expect(tapped.code, tapped.stderr).toBe(0);
    expect(tapped.stdout).toContain('after:  com.android.settings .SubSettings');

    const seen = await run('observe', 'sim', '--state', 'state/settings.json');
    expect(seen.code).toBe(0);
    expect(header(seen.stdout)).toMatch(/^# com\.android\.settings \.SubSettings /);
    const airplane = unitId(seen.stdout, 'Airplane mode');
    expect(seen.stdout).not.toMatch(/"Airplane mode" checked/);

    const switched = await run('act', 'sim', '--state', 'state/settings.json', 'tap', airplane);
    expect(switched.code, switched.stderr).toBe(0);
    expect((await run('observe', 'sim', '--state', 'state/settings.json')).stdout).toMatch(/"Airplane mode" checked/);

    // Negative controls: no state file, and a new one, start from the first screen.
    const fresh = await run('observe', 'sim', '--launch', 'com.android.settings');
    expect(header(fresh.stdout)).toMatch(/^# com\.android\.settings \.Settings /);
    expect(fresh.stdout).not.toContain('"Airplane mode"');
    const another = await run('observe', 'sim', '--state', 'state/other.json');
    expect(header(another.stdout)).toMatch(/^# com\.google\.android\.apps\.nexuslauncher /);
  });

  it('a failed action leaves the state file as it was', async () => {
    await run('observe', 'sim', '--state', 'failed.json', '--launch', 'com.android.settings');
    const before = await readFile(path.join(cwd, 'failed.json'), 'utf8');
    const typed = await run('act', 'sim', '--state', 'failed.json', 'type', 'hello');
    expect(typed.code).toBe(1);
    expect(typed.stderr).toContain('no text field is focused');
    expect(await readFile(path.join(cwd, 'failed.json'), 'utf8')).toBe(before);
  });

  it('refuses a file that is not a state file, another profile\'s state, an Appium profile and a replay that ends elsewhere (exit 2)', async () => {
    await writeFile(path.join(cwd, 'not-json.json'), 'hello');
    const notJson = await run('observe', 'sim', '--state', 'not-json.json');
    expect(notJson.code).toBe(2);
    expect(notJson.stderr).toContain('--state not-json.json is not JSON');

    await writeFile(path.join(cwd, 'shape.json'), '{"calls": []}');
    const shape = await run('act', 'sim', '--state', 'shape.json', 'key', 'back');
    expect(shape.code).toBe(2);
    expect(shape.stderr).toContain('--state shape.json is not a simulator state file (format:');

    await run('observe', 'sim', '--state', 'good.json', '--launch', 'com.android.settings');
    const good = JSON.parse(await readFile(path.join(cwd, 'good.json'), 'utf8')) as { profile: string; screen: { hash: string } };
    await writeFile(path.join(cwd, 'profile.json'), JSON.stringify({ ...good, profile: 'sim-small' }));
    const profile = await run('observe', 'sim', '--state', 'profile.json');
    expect(profile.code).toBe(2);
    expect(profile.stderr).toContain('--state profile.json holds the state of profile sim-small, not sim');

    const appium = await run('observe', 'sim-appium', '--state', 'good.json');
    expect(appium.code).toBe(2);
    expect(appium.stderr).toContain('profile sim-appium is an Appium device, which keeps its own state: leave --state out');

    await writeFile(path.join(cwd, 'drifted.json'), JSON.stringify({ ...good, screen: { ...good.screen, hash: '0' } }));
    const drifted = await run('observe', 'sim', '--state', 'drifted.json');
    expect(drifted.code).toBe(2);
    expect(drifted.stderr).toContain('--state drifted.json: replaying its 2 device calls on a fresh simulator gave another screen');
    // The control: the untouched file replays.
    expect((await run('observe', 'sim', '--state', 'good.json')).code).toBe(0);
  });
});
