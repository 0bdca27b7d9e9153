import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CliIo } from '../../../src/cli/cli-io.js';
import { main } from '../../../src/cli/main.js';
import type { AppiumServerHandle } from '../../../src/device/appium-server.js';
import { freePort } from '../../../src/device/appium-server.js';
import { startSimAppium } from './sim-appium-server.js';

async function run(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = { stdout: (text) => (stdout += text), stderr: (text) => (stderr += text), cwd: process.cwd(), env: {} };
  const code = await main(argv, io);
  return { code, stdout, stderr };
}

describe('senseact devices check on a URL that is not an Appium server', () => {
  it('says a URL without a scheme, a host that does not resolve and a server that is not Appium apart', async () => {
    const schemeless = await run('devices', 'check', 'sim-appium', '--url', 'localhost:4723');
    expect(schemeless.code).toBe(1);
    expect(schemeless.stdout).toContain('FAIL Appium URL "localhost:4723" is not an http(s) URL');
    expect(schemeless.stdout).toContain('--url http://localhost:4723');

    const html = createServer((_request, response) => { response.writeHead(200, { 'content-type': 'text/html' }); response.end('<html>a web server</html>'); });
    await new Promise<void>((resolve) => html.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(html.address() as AddressInfo).port}`;
      const other = await run('devices', 'check', 'sim-appium', '--url', url);
      expect(other.code).toBe(1);
      expect(other.stdout).toContain(`FAIL ${url}/status answered HTTP 200 (text/html) but not Appium's JSON status: another server listens there`);
      expect(other.stdout).not.toContain('Unexpected token');
    } finally {
      await new Promise((resolve) => html.close(resolve));
    }

    const nowhere = await run('devices', 'check', 'sim-appium', '--url', 'http://no-such-host.invalid:4723');
    expect(nowhere.code).toBe(1);
    expect(nowhere.stdout).toMatch(/FAIL Appium not reachable at http:\/\/no-such-host\.invalid:4723: (host not found \(DNS\)|no answer within 5 s)/);
  });
});

describe('senseact devices / observe / act', () => {
  let server: AppiumServerHandle;

  beforeAll(async () => {
    server = await startSimAppium();
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
  });

  it('lists the shipped profiles', async () => {
    const { code, stdout } = await run('devices', 'list');
    expect(code).toBe(0);
    expect(stdout).toMatch(/^sim\s+sim\s/m);
    expect(stdout).toMatch(/^sim-appium\s+appium\s/m);
    expect(stdout).toMatch(/^emulator\s+appium\s/m);
    expect(stdout).toMatch(/^androidlab\s+appium\s/m);
  });

  it('checks the in-process simulator and the simulator through Appium', async () => {
    const sim = await run('devices', 'check', 'sim');
    expect(sim.code).toBe(0);
    expect(sim.stdout).toMatch(/^ok {3}page source obtainable: \d+ nodes, com\.google\.android\.apps\.nexuslauncher/m);
    expect(sim.stdout).toContain('ok   activity stack readable: com.google.android.apps.nexuslauncher/.NexusLauncherActivity\n');

    const appium = await run('devices', 'check', 'sim-appium', '--url', server.url);
    expect(appium.code).toBe(0);
    expect(appium.stdout.split('\n').filter((line) => line.startsWith('ok'))).toHaveLength(5);
    // Read through the driver's shell, which this server allows.
    expect(appium.stdout).toContain('ok   activity stack readable: com.google.android.apps.nexuslauncher/.NexusLauncherActivity\n');
    expect(appium.stdout).toContain(`Appium reachable at ${server.url} (version 3.`);
    expect(appium.stdout).toContain('driver for SenseActSim installed');
  });

  it('says what to do when Appium is not running, or the driver is missing', async () => {
    const url = `http://127.0.0.1:${await freePort()}`;
    const down = await run('devices', 'check', 'sim-appium', '--url', url);
    expect(down.code).toBe(1);
    expect(down.stdout).toContain(`FAIL Appium not reachable at ${url}`);
    expect(down.stdout).toContain('npm run sim:appium');

    expect(down.stdout).toContain('connection refused: nothing listens on that port');
    // An emulator profile is not told to start the simulator.
    const emulatorDown = await run('devices', 'check', 'emulator', '--url', url);
    expect(emulatorDown.stdout).toContain('npx appium driver install uiautomator2');
    expect(emulatorDown.stdout).not.toContain('sim:appium');

    const noDriver = await run('devices', 'check', 'emulator', '--url', server.url);
    expect(noDriver.code).toBe(1);
    expect(noDriver.stdout).toContain('FAIL driver for UiAutomator2 not installed on that server');
    expect(noDriver.stdout).toContain('scripts/setup-emulator.sh');
  });

  it('rejects a missing profile with exit code 2', async () => {
    const { code, stderr } = await run('observe', 'no-such-profile');
    expect(code).toBe(2);
    expect(stderr).toContain("No device profile 'no-such-profile'");
  });

  it('observes: raw XML through Appium, reduced view in-process', async () => {
    const raw = await run('observe', 'sim-appium', '--url', server.url, '--raw', '--launch', 'com.android.settings');
    expect(raw.code).toBe(0);
    expect(raw.stdout.startsWith('<?xml')).toBe(true);
    expect(raw.stdout).toContain('text="Search settings"');

    const reduced = await run('observe', 'sim', '--launch', 'com.android.settings');
    expect(reduced.code).toBe(0);
    expect(reduced.stdout).toMatch(/^# com\.android\.settings \.Settings — 2 pulls, settled/);
    expect(reduced.stdout).toMatch(/# reduced view \(level 2, \d+ units\)\napp com\.android\.settings activity \.Settings/);
  });

  it('acts and prints the delta', async () => {
    const result = await run('act', 'sim', '--launch', 'com.android.settings', 'key', 'back');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('after:  com.google.android.apps.nexuslauncher .NexusLauncherActivity');
    expect(result.stdout).toMatch(/delta: new-page, rho [\d.]+, \d+ changes/);

    // The README's form: the whole action as one quoted word.
    const quoted = await run('act', 'sim', '--launch', 'com.android.settings', 'key back');
    expect(quoted.code).toBe(0);
    expect(quoted.stdout).toContain('# key back — ');
    expect(quoted.stdout).toContain('after:  com.google.android.apps.nexuslauncher .NexusLauncherActivity');

    const viaAppium = await run('act', 'sim-appium', '--url', server.url, 'launch', 'com.android.settings');
    expect(viaAppium.code).toBe(0);
    expect(viaAppium.stdout).toContain('after:  com.android.settings .Settings');
  });

  it('observe lists each unit with its bounds, and act taps a unit by the id observe printed; an id not on the screen is refused', async () => {
    const seen = await run('observe', 'sim', '--launch', 'com.android.settings');
    const line = /\n(n[0-9a-f]{4,}) click "Network & internet" \[(\d+),(\d+)\]\[(\d+),(\d+)\]\n/.exec(seen.stdout);
    expect(line, seen.stdout).not.toBeNull();
    const [, id, left, top, right, bottom] = line as unknown as [string, string, string, string, string, string];
    const center = `${Math.round((Number(left) + Number(right)) / 2)},${Math.round((Number(top) + Number(bottom)) / 2)}`;
    const tapped = await run('act', 'sim', '--launch', 'com.android.settings', 'tap', id);
    expect(tapped.code, tapped.stderr).toBe(0);
    expect(tapped.stdout).toContain(`# tap ${id} (${center}) — `);
    expect(tapped.stdout).toContain('after:  com.android.settings .SubSettings');
    const missing = await run('act', 'sim', '--launch', 'com.android.settings', 'tap', 'nffff');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('no unit nffff on the screen (com.android.settings .Settings); npx senseact observe sim lists the units');
  });

  it('rejects a malformed action with the syntax', async () => {
    const { code, stderr } = await run('act', 'sim', 'tap', 'here');
    expect(code).toBe(2);
    expect(stderr).toContain('tap needs one point X,Y');
    expect(stderr).toContain('Actions: tap X,Y');
  });
});
