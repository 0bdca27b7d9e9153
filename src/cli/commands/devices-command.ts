import { readdirSync } from 'node:fs';
import * as path from 'node:path';
import type { Command } from 'commander';
import { repoRoot } from '../../device/appium-server.js';
import { createDevice, type CreateDeviceOptions } from '../../device/create-device.js';
import type { RecordingDevice } from '../../device/device.js';
import { DeviceError } from '../../device/device-error.js';
import { loadDeviceProfile, type DeviceProfile } from '../../device/device-profile.js';
import { readGridStatus, stereotypeAccepts } from '../../device/selenium-grid.js';
import { DeviceProfileError } from '../../device/device-profile-error.js';
import { checkSuiteApps, type SuiteAppsTarget } from '../../bench/check-suite-apps.js';
import { loadSuite } from '../../tasks/load-task-file.js';
import { TaskLoadError } from '../../tasks/task-load-error.js';
import type { Suite } from '../../tasks/task-schema.js';
import { exitCodes, type CliIo } from '../cli-io.js';
import { readSimStateFile, replaySimState, type SimStateRead } from '../sim-state-file.js';
import { tasksRootFor } from '../tasks-root.js';
import type { CommandRegistration } from '../command-registration.js';

/** `--url` and `--launch`, shared by `devices check`, `observe` and `act`; `--state` (observe, act) keeps a simulator between calls. */
export interface DeviceCommandOptions {
  readonly url?: string;
  readonly launch?: string;
  readonly state?: string;
}

/** A connected device for one CLI command; `save` (with `--state`) writes the simulator's state back after the command succeeded. */
export interface CliDevice {
  readonly profile: DeviceProfile;
  readonly device: RecordingDevice;
  readonly save: () => Promise<void>;
}

/**
 * Loads a profile and connects a device for one CLI command: for `sim` a fresh in-process
 * simulator (with `state`, one that replays the calls the state file records first), for
 * Appium profiles a new session on the given server. With `launch`, that app is started
 * first. Profile, state-file and device failures are printed (what, where, what to do) and
 * give `undefined` with the exit code set: 2 for a bad profile or state file, 1 for a
 * device failure.
 */
export async function openCliDevice(command: string, profileName: string, options: DeviceCommandOptions, io: CliIo, setExitCode: (code: number) => void): Promise<CliDevice | undefined> {
  const refuse = (message: string): undefined => {
    io.stderr(`senseact ${command}: ${message}\n`);
    setExitCode(exitCodes.badInput);
    return undefined;
  };
  let profile: DeviceProfile;
  try {
    profile = loadDeviceProfile(profileName, { cwd: io.cwd, env: io.env });
  } catch (error) {
    if (!DeviceProfileError.isInstance(error)) throw error;
    return refuse(error.message);
  }
  let state: Extract<SimStateRead, { success: true }> | undefined;
  if (options.state !== undefined) {
    if (profile.kind !== 'sim') return refuse(`--state keeps an in-process simulator between calls; profile ${profile.name} is an Appium device, which keeps its own state: leave --state out.`);
    const read = await readSimStateFile(options.state, profile.name, io.cwd);
    if (!read.success) return refuse(read.error);
    state = read;
  }
  let device: RecordingDevice;
  try {
    device = await createDevice(profile, options.url === undefined ? {} : ({ url: options.url } satisfies CreateDeviceOptions));
  } catch (error) {
    if (!DeviceError.isInstance(error)) throw error;
    io.stderr(`senseact ${command}: ${error.message}\n`);
    setExitCode(exitCodes.failure);
    return undefined;
  }
  let save = async (): Promise<void> => {};
  if (state !== undefined) {
    const replayed = await replaySimState(device, state.value, options.state ?? state.file);
    if ('error' in replayed) {
      await device.close();
      return refuse(replayed.error);
    }
    const recorder = replayed.device;
    const file = state.file;
    device = recorder;
    save = async () => await recorder.save(file);
  }
  if (options.launch !== undefined) {
    try {
      await device.act({ type: 'launch', packageName: options.launch });
    } catch (error) {
      await device.close();
      if (!DeviceError.isInstance(error)) throw error;
      io.stderr(`senseact ${command}: ${error.message}\n`);
      setExitCode(exitCodes.failure);
      return undefined;
    }
  }
  return { profile, device, save };
}

/** Prints a device error raised mid-command and sets exit code 1; rethrows anything else. */
export function reportDeviceError(command: string, error: unknown, io: CliIo, setExitCode: (code: number) => void): void {
  if (!DeviceError.isInstance(error)) throw error;
  io.stderr(`senseact ${command}: ${error.message}\n`);
  setExitCode(exitCodes.failure);
}

interface CheckLine {
  readonly ok: boolean;
  readonly what: string;
  readonly todo?: string;
}

/**
 * `senseact devices list` and `senseact devices check <profile> [--url URL]`. The check
 * goes step by step — Appium reachable, driver installed, device online, page source
 * obtainable — and says for each failure what to do. Exit code 0 when all pass, 1 when a
 * step fails, 2 for a bad profile.
 */
export const devicesCommand: CommandRegistration = (program: Command, io: CliIo, setExitCode) => {
  const devices = program.command('devices').description('List device profiles (devices/*.yaml) and check that a device is usable.');

  devices
    .command('list')
    .description('List the device profiles in ./devices and in the SenseAct install.')
    .action(() => {
      const seen = new Set<string>();
      for (const folder of [path.join(io.cwd, 'devices'), path.join(repoRoot(), 'devices')]) {
        let files: string[];
        try {
          files = readdirSync(folder).filter((file) => file.endsWith('.yaml')).sort();
        } catch {
          continue;
        }
        for (const file of files) {
          const name = file.replace(/\.yaml$/, '');
          if (seen.has(name)) continue;
          seen.add(name);
          try {
            const profile = loadDeviceProfile(path.join(folder, file), { env: io.env });
            io.stdout(`${name.padEnd(14)} ${profile.kind.padEnd(7)} ${profile.description ?? ''}\n`);
          } catch (error) {
            if (!DeviceProfileError.isInstance(error)) throw error;
            io.stdout(`${name.padEnd(14)} INVALID ${error.message.split('\n')[0] ?? ''}\n`);
          }
        }
      }
      setExitCode(exitCodes.ok);
    });

  devices
    .command('check')
    .description('Check a device profile: Appium reachable, driver installed, device online, page source obtainable.')
    .argument('<profile>', 'profile name (devices/<name>.yaml) or path to a profile file')
    .option('--url <url>', 'Appium server URL (overrides the profile)')
    .option('--suite <suite>', 'also check what a task suite needs there: the apps its start steps install (each missing one with its APK) and a root shell when it uses one')
    .action(async (profileName: string, options: DeviceCommandOptions & { readonly suite?: string }) => {
      let suite: Suite | undefined;
      if (options.suite !== undefined) {
        try {
          suite = await loadSuite(options.suite, { tasksRoot: tasksRootFor(io.cwd, options.suite) });
        } catch (error) {
          if (!TaskLoadError.isInstance(error)) throw error;
          io.stderr(`senseact devices check: --suite ${options.suite}: ${error.message}\n`);
          setExitCode(exitCodes.badInput);
          return;
        }
      }
      let profile: DeviceProfile;
      try {
        profile = loadDeviceProfile(profileName, { cwd: io.cwd, env: io.env });
      } catch (error) {
        if (!DeviceProfileError.isInstance(error)) throw error;
        io.stderr(`senseact devices check: ${error.message}\n`);
        setExitCode(exitCodes.badInput);
        return;
      }
      const lines = await checkProfile(profile, options, suite);
      for (const line of lines) io.stdout(`${line.ok ? 'ok  ' : 'FAIL'} ${line.what}${line.todo ? `\n     → ${line.todo}` : ''}\n`);
      setExitCode(lines.every((line) => line.ok) ? exitCodes.ok : exitCodes.failure);
    });
};

/** A device that can say which apps it has and run a shell command (an Appium session). */
function isSuiteAppsTarget(device: RecordingDevice): device is RecordingDevice & SuiteAppsTarget {
  return typeof (device as Partial<SuiteAppsTarget>).isAppInstalled === 'function' && typeof (device as Partial<SuiteAppsTarget>).shell === 'function';
}

async function checkProfile(profile: DeviceProfile, options: DeviceCommandOptions, suite?: Suite): Promise<CheckLine[]> {
  const lines: CheckLine[] = [];
  if (profile.kind === 'appium' && profile.appium.grid === true) {
    const gridLines = await checkGrid((options.url ?? profile.appium.url).replace(/\/+$/, ''), profile.appium.capabilities);
    lines.push(...gridLines);
    if (gridLines.some((line) => !line.ok)) return lines;
  } else if (profile.kind === 'appium') {
    const url = (options.url ?? profile.appium.url).replace(/\/+$/, '');
    const status = await appiumStatus(url, appiumStartHint(profile));
    lines.push(status);
    if (!status.ok) return lines;
  }
  let device: RecordingDevice;
  try {
    device = await createDevice(profile, options.url === undefined ? {} : { url: options.url });
  } catch (error) {
    if (!DeviceError.isInstance(error)) throw error;
    lines.push(sessionFailure(profile, error));
    return lines;
  }
  if (profile.kind === 'appium') {
    lines.push({ ok: true, what: `driver for ${String(profile.appium.capabilities['appium:automationName'])} installed` });
    lines.push({ ok: true, what: `device online: session created (${device.info.width}×${device.info.height}, ${device.info.density} dpi${device.info.servedBy === undefined ? '' : `, on ${device.info.servedBy}`})` });
  } else {
    lines.push({ ok: true, what: `simulator started (${device.info.width}×${device.info.height}, ${device.info.density} dpi)` });
  }
  try {
    const observation = await device.observe();
    const nodes = (observation.xml.match(/<[A-Za-z][\w.$]*\s[^>]*bounds=/g) ?? []).length;
    lines.push({ ok: nodes > 0, what: `page source obtainable: ${nodes} nodes, ${observation.packageName} ${observation.activity}, ${observation.latencyMs.toFixed(0)} ms${observation.settled ? '' : ' (did not settle)'}`, ...(nodes > 0 ? {} : { todo: 'the hierarchy is empty: unlock the screen and make sure an app is in the foreground' }) });
    // Optional: without it the verifier does without the stack's evidence for Back and Save.
    lines.push(observation.activityStack ? { ok: true, what: `activity stack readable: ${observation.activityStack.join(' < ')}` }
      : profile.kind === 'appium' && profile.activityStack === false ? { ok: true, what: 'activity stack not read (the profile says activityStack: false)' }
      : { ok: true, what: 'activity stack not readable (optional): Back and an editor\'s Save are verified without it', todo: "to have it, start Appium with --allow-insecure '*:adb_shell' (npx tsx scripts/start-appium.ts does)" });
  } catch (error) {
    if (!DeviceError.isInstance(error)) throw error;
    lines.push({ ok: false, what: `page source not obtainable: ${error.message}`, todo: 'check the device screen (locked? a system dialog?) and the Appium log' });
  }
  try {
    if (suite !== undefined && profile.kind === 'sim') {
      const twins = suite.tasks.filter((task) => task.simTwin !== undefined).length;
      lines.push({ ok: true, what: `suite ${suite.name}: the simulator installs no apps; its tasks with a sim twin run there (${twins} of ${suite.tasks.length})` });
    } else if (suite !== undefined && isSuiteAppsTarget(device)) {
      lines.push(...(await checkSuiteApps(suite, device)));
    }
  } catch (error) {
    if (!DeviceError.isInstance(error)) throw error;
    lines.push({ ok: false, what: `could not ask the device for the apps of suite ${suite?.name ?? ''}: ${error.message}`, todo: 'see the message above and the Appium log' });
  } finally {
    await device.close();
  }
  return lines;
}

/** How to start the Appium server a profile needs, from an installed package or a clone. */
function appiumStartHint(profile: DeviceProfile): string {
  const automation = profile.kind === 'appium' ? String(profile.appium.capabilities['appium:automationName'] ?? '') : '';
  return automation.toLowerCase() === 'senseactsim'
    ? 'start the simulator behind Appium 3 (in a clone of the repository: `npm run sim:appium`), or pass --url'
    : 'start Appium 3 with the UiAutomator2 driver (`npx appium` after `npx appium driver install uiautomator2`; in a clone: `npx tsx scripts/start-appium.ts`), or pass --url';
}

/** Why a fetch failed, in words: refused, host not found, no answer in time, or the error. */
export function describeFetchFailure(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) return `no answer within ${timeoutMs / 1000} s (a firewall, a frozen server, or the wrong host)`;
  const cause = error instanceof Error ? (error.cause as { code?: unknown } | undefined) : undefined;
  const code = typeof cause?.code === 'string' ? cause.code : undefined;
  if (code === 'ECONNREFUSED') return 'connection refused: nothing listens on that port';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'host not found (DNS): check the host name';
  if (code === 'ECONNRESET') return 'the connection was reset: is it an HTTP server?';
  return `${error instanceof Error ? error.message : String(error)}${code === undefined ? '' : ` (${code})`}`;
}

/** GET <url>/status of an Appium server, as one check line. */
async function appiumStatus(url: string, startHint: string): Promise<CheckLine> {
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  if (parsed === undefined || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
    return { ok: false, what: `Appium URL ${JSON.stringify(url)} is not an http(s) URL`, todo: `write it with its scheme, e.g. --url http://${url.replace(/^[a-z]+:\/\//i, '')}` };
  }
  const timeoutMs = 5_000;
  let response: Response;
  try {
    response = await fetch(`${url}/status`, { signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    return { ok: false, what: `Appium not reachable at ${url}: ${describeFetchFailure(error, timeoutMs)}`, todo: startHint };
  }
  const text = await response.text();
  let body: { value?: { build?: { version?: string } } } | undefined;
  try {
    body = JSON.parse(text) as { value?: { build?: { version?: string } } };
  } catch {
    body = undefined;
  }
  if (body === undefined || typeof body !== 'object' || body === null || !('value' in body)) {
    return { ok: false, what: `${url}/status answered HTTP ${response.status} (${response.headers.get('content-type') ?? 'no content type'}) but not Appium's JSON status: another server listens there`, todo: `point --url (or appium.url in the profile) at the Appium server; ${startHint}` };
  }
  return { ok: response.ok, what: `Appium reachable at ${url} (version ${body.value?.build?.version ?? 'unknown'})` };
}

/** The hub answers, and at least one UP node offers a stereotype the profile's capabilities fit. */
async function checkGrid(url: string, capabilities: Readonly<Record<string, unknown>>): Promise<CheckLine[]> {
  let status;
  try {
    status = await readGridStatus(url);
  } catch (error) {
    if (!DeviceError.isInstance(error)) throw error;
    return [{ ok: false, what: error.message, todo: 'start the grid (simulator nodes, in a clone of the repository: `npx tsx scripts/start-grid.ts`; emulators: docs/grid.md), or fix appium.url' }];
  }
  const lines: CheckLine[] = [{ ok: true, what: `Selenium Grid reachable at ${url}: ${status.message || (status.ready ? 'ready' : 'not ready')}, ${status.nodes.length} node(s)` }];
  let usable = 0;
  for (const node of status.nodes) {
    const fitting = node.stereotypes.filter((stereotype) => stereotypeAccepts(stereotype, capabilities)).length;
    const fits = fitting > 0;
    if (node.availability === 'UP') usable += fitting;
    lines.push({ ok: true, what: `  node ${node.uri}: ${node.availability}, ${node.busy}/${node.stereotypes.length} slot(s) busy, ${fits ? 'fits' : 'does not fit'} this profile: ${node.stereotypes.map((stereotype) => JSON.stringify(stereotype)).join(' ')}` });
  }
  lines.push(usable > 0
    ? { ok: true, what: `${usable} slot(s) on nodes that are up fit the profile's capabilities: bench --concurrency up to ${usable} runs without queueing` }
    : { ok: false, what: 'no node that is UP fits the profile\'s capabilities', todo: 'start or fix the nodes (their stereotypes are above), or change appium.capabilities in the profile' });
  return lines;
}

function sessionFailure(profile: DeviceProfile, error: DeviceError): CheckLine {
  if (profile.kind === 'sim') return { ok: false, what: `simulator did not start: ${error.message}`, todo: 'fix the sim: section of the profile' };
  const automation = String(profile.appium.capabilities['appium:automationName']);
  if (error.reason === 'session-not-created' && /could not find a driver|driver .*not installed|automationName/i.test(error.message)) {
    const todo = automation === 'SenseActSim' ? 'start the server that provides the SenseActSim driver (in a clone of the repository: `npm run sim:appium`)' : 'install it: `npx appium driver install uiautomator2` (in a clone: `bash scripts/setup-emulator.sh --appium-only`, into the project Appium home; needs network once)';
    return { ok: false, what: `driver for ${automation} not installed on that server`, todo };
  }
  if (error.reason === 'session-not-created') {
    return { ok: false, what: `device not online (the ${automation} driver is installed but could not start a session): ${error.message}`, todo: 'start the emulator (`emulator -avd <name>`) or plug in the phone, and check `adb devices`' };
  }
  return { ok: false, what: `no session: ${error.message}`, todo: 'see the message above' };
}
