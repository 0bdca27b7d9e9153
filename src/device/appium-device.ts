import { parseActivityStack } from '../ui/parse-activity-stack.js';
import { parseHierarchy } from '../ui/parse-hierarchy.js';
import type { UiTree } from '../ui/ui-tree.js';
import { debugLog } from '../util/debug-log.js';
import { type AppiumClient, type AppiumConnector, connectWebdriverio, withoutCredentials } from './appium-client.js';
import type { ActResult, CallOptions, CallRecord, DeviceInfo, Observation, RecordingDevice, Screenshot } from './device.js';
import type { DeviceAction } from './device-action.js';
import type { AppStateReader, DeviceFault, DeviceProbe } from './device-probe.js';
import { DeviceError } from './device-error.js';
import { pngSize } from './png-size.js';
import { type AppiumErrorClass, classifyAppiumError, defaultRetryPolicy, type RetryPolicy, withRetry } from './retry-policy.js';
import { type SettleOptions, settleHierarchy } from './settle-hierarchy.js';
import { assertNever } from '../util/assert-never.js';
import { simDriverAutomationName } from './sim-driver-automation-name.js';

/** The simulator driver's `appium:automationName` (see sim-driver-automation-name.ts). */
export { simDriverAutomationName };

/** Capabilities every Appium profile gets unless it sets them itself (docs/architecture.md §5). */
export const defaultAppiumCapabilities: Readonly<Record<string, unknown>> = {
  'appium:newCommandTimeout': 300,
  'appium:waitForIdleTimeout': 200,
  'appium:disableWindowAnimation': true,
  'appium:includeA11yActionsInPageSource': true,
};

/** Android key codes for `mobile: pressKey`. */
const keyCodes = { home: 3, back: 4, enter: 66 } as const;

export interface AppiumDeviceOptions {
  /** Profile name, used in messages and `info.name`. */
  readonly name: string;
  /** Appium server URL, e.g. `http://127.0.0.1:4723`. */
  readonly url: string;
  /** W3C capabilities; `defaultAppiumCapabilities` fill what is missing. */
  readonly capabilities: Readonly<Record<string, unknown>>;
  readonly settle?: SettleOptions;
  readonly retry?: RetryPolicy;
  /** Deadline of one device call, retries and settling included. */
  readonly callTimeoutMs?: number;
  /** Deadline of opening a session (default `callTimeoutMs`): behind a busy grid the request queues. */
  readonly connectTimeoutMs?: number;
  /**
   * Sessions are routed to any matching device (a Selenium Grid, a device farm): a lost
   * session is re-created only when the new one names the same device.
   */
  readonly routed?: boolean;
  /** Screen density when the server does not report it (`deviceScreenDensity`). */
  readonly density?: number;
  /**
   * Read the foreground task's activity stack at each new screen (`dumpsys activity
   * activities` through `mobile: shell`; default true). Off, an observation makes one call
   * fewer and the verifier does without the stack's evidence for Back and Save.
   */
  readonly activityStack?: boolean;
  /** How sessions are opened; defaults to WebdriverIO `remote()`. Tests pass a fake. */
  readonly connector?: AppiumConnector;
}

/** Where an observation was taken: the foreground package and activity, and the task's activity stack when read. */
type Where = Pick<Observation, 'packageName' | 'activity' | 'activityStack'>;

const defaultSettle: SettleOptions = { intervalMs: 50, timeoutMs: 3_000 };
const defaultCallTimeoutMs = 60_000;

/**
 * The `Device` for Appium servers (emulators, phones, and the simulator's own Appium
 * driver), on WebdriverIO with its retries off and ours in place:
 * - connection refused and server errors are retried with exponential backoff within
 *   a budget; connection resets and timeouts only for calls that are safe to repeat
 *   (observe, screenshot, launch), since a tap may already have happened;
 * - a lost session (`invalid session id`: deleted, timed out, server restarted) is
 *   re-created with the same capabilities and the call is retried once;
 * - every call honours its AbortSignal and a deadline (`callTimeoutMs`); an abort or
 *   timeout rejects at once (the HTTP request in flight is left to finish on its own).
 * Failures throw `DeviceError` saying what to do.
 */
export class AppiumDevice implements RecordingDevice, DeviceProbe {
  readonly info: DeviceInfo;
  private readonly records: CallRecord[] = [];
  private readonly options: ResolvedOptions;
  private client: AppiumClient | undefined;
  private closed = false;
  private recoveries = 0;
  /** The last observation's hierarchy and where it was, per session: unchanged hierarchies reuse package and activity. */
  private lastObservation: { sessionId: string; xml: string; where: Where } | undefined;
  /** False when the profile turned the stack off, or once the server refused `mobile: shell` (its insecure feature `adb_shell` is off): the stack is not asked for again. */
  private stackReadable: boolean;

  private constructor(options: ResolvedOptions, client: AppiumClient, info: DeviceInfo) {
    this.options = options;
    this.stackReadable = options.activityStack;
    this.client = client;
    this.info = info;
  }

  /** Opens a session (retrying while the server is unreachable, within the retry budget) and reads the screen size. */
  static async connect(options: AppiumDeviceOptions, callOptions: CallOptions = {}): Promise<AppiumDevice> {
    const resolved = {
      name: options.name,
      url: options.url.replace(/\/+$/, ''),
      capabilities: { ...defaultAppiumCapabilities, ...options.capabilities },
      settle: options.settle ?? defaultSettle,
      retry: options.retry ?? defaultRetryPolicy,
      callTimeoutMs: options.callTimeoutMs ?? defaultCallTimeoutMs,
      connectTimeoutMs: options.connectTimeoutMs ?? options.callTimeoutMs ?? defaultCallTimeoutMs,
      routed: options.routed ?? false,
      activityStack: options.activityStack ?? true,
      connector: options.connector ?? connectWebdriverio,
    };
    const start = performance.now();
    const signal = deadlineSignal(callOptions.signal, resolved.connectTimeoutMs);
    try {
      const client = await openSession(resolved, signal);
      const rect = await raceSignal(client.getWindowRect(), signal);
      const density = Number(client.capabilities['deviceScreenDensity'] ?? options.density ?? 0);
      const servedBy = sessionDevice(client.capabilities);
      const device = new AppiumDevice(resolved, client, { name: resolved.name, kind: 'appium', width: rect.width, height: rect.height, density, ...(servedBy === undefined ? {} : { servedBy }) });
      device.records.push({ kind: 'connect', latencyMs: performance.now() - start, ok: true });
      return device;
    } catch (error) {
      throw toDeviceError(error, 'connect', resolved, signal, callOptions.signal);
    }
  }

  /** Every call so far with its latency, oldest first. */
  get callLog(): readonly CallRecord[] {
    return this.records;
  }

  /** How many times a lost session was re-created. */
  get sessionRecoveries(): number {
    return this.recoveries;
  }

  /** The current session id (changes after a recovery). */
  get sessionId(): string | undefined {
    return this.client?.sessionId;
  }

  /**
   * Pulls the hierarchy until it settles, with the foreground package and activity. Those
   * two are asked right after the first pull, while the settle pulls run (the server
   * answers them in turn; client and network time overlap); when the hierarchy changed
   * after them (more than two pulls), they are asked again so they match the result.
   * When the settled hierarchy is the one the previous observation returned on the same
   * session, its package and activity are reused without asking.
   */
  async observe(options: CallOptions = {}): Promise<Observation> {
    return await this.call('observe', options, true, async (client, signal) => {
      const where = (): Promise<Where> =>
        Promise.all([client.executeScript('mobile: getCurrentPackage', [{}]), client.executeScript('mobile: getCurrentActivity', [{}]), this.readActivityStack(client)])
          .then(([packageName, activity, activityStack]) => ({ packageName: String(packageName), activity: String(activity), ...(activityStack ? { activityStack } : {}) }));
      const previous = this.lastObservation?.sessionId === client.sessionId ? this.lastObservation : undefined;
      let early: Promise<Where> | undefined;
      const pull = async (): Promise<string> => {
        const xml = await client.getPageSource();
        if (!early && xml !== previous?.xml) {
          early = where();
          // Awaited below; a failure here must not surface as an unhandled rejection first.
          early.catch(() => undefined);
        }
        return xml;
      };
      const settled = await settleHierarchy(pull, { ...this.options.settle, signal });
      const place =
        previous && settled.xml === previous.xml && settled.polls <= 2 ? previous.where
        : settled.polls <= 2 && early ? await early
        : await where();
      this.lastObservation = { sessionId: client.sessionId, xml: settled.xml, where: place };
      return { xml: settled.xml, dialect: 'appium-uia2' as const, ...place, polls: settled.polls, settled: settled.settled };
    });
  }

  /**
   * The foreground task's activity stack from `dumpsys activity activities` through
   * `mobile: shell`, or undefined when it cannot be read. A server without the insecure
   * feature `adb_shell` refuses the command: the stack is then not asked for again (the
   * verifier does without it), and the reason is logged once. Another failure skips this
   * observation's stack only.
   */
  private async readActivityStack(client: AppiumClient): Promise<string[] | undefined> {
    if (!this.stackReadable) return undefined;
    try {
      const output = await client.executeScript('mobile: shell', [{ command: 'dumpsys', args: ['activity', 'activities'], includeStderr: false }]);
      const stack = parseActivityStack(typeof output === 'string' ? output : '');
      return stack.length > 0 ? stack : undefined;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (/insecure|adb_shell|not (yet )?implemented|unknown (command|method)/i.test(message)) {
        this.stackReadable = false;
        debugLog('device', `activity stack not read on ${this.info.name}: ${message} (start Appium with --allow-insecure '*:adb_shell' for Back and Save to be read from it)`);
      } else {
        debugLog('device', `activity stack not read this time: ${message}`);
      }
      return undefined;
    }
  }

  async screenshot(options: CallOptions = {}): Promise<Screenshot> {
    return await this.call('screenshot', options, true, async (client) => {
      const png = new Uint8Array(Buffer.from(await client.takeScreenshot(), 'base64'));
      const { width, height } = pngSize(png);
      return { png, width, height };
    });
  }

  async act(action: DeviceAction, options: CallOptions = {}): Promise<ActResult> {
    return await this.call(`act:${action.type}`, options, action.type === 'launch', (client) => performAction(client, action));
  }

  /**
   * Runs one `mobile:` (or other) script on the session, with the same deadline, retries
   * and session recovery as every call — for driver-specific queries such as the
   * simulator driver's `mobile: senseactAppStates`. Not retried on timeouts (it may act).
   */
  async execute(script: string, args: Readonly<Record<string, unknown>> = {}, options: CallOptions = {}): Promise<{ value: unknown; latencyMs: number }> {
    return await this.call('execute', options, false, async (client) => ({ value: await client.executeScript(script, [args]) }));
  }

  /** True when the server runs the simulator's own driver (it answers the `mobile: senseact*` probes). */
  get simulatorDriver(): boolean {
    return String(this.options.capabilities['appium:automationName'] ?? '').toLowerCase() === simDriverAutomationName.toLowerCase();
  }

  /** The simulator driver's per-app state by package (`mobile: senseactAppStates`); `undefined` on other drivers. */
  async appState(options: CallOptions = {}): Promise<AppStateReader | undefined> {
    const byPackage = await this.appStates(options);
    if (byPackage === undefined) return undefined;
    return (packageName) => (Object.hasOwn(byPackage, packageName) ? byPackage[packageName] : undefined);
  }

  /** Every app's state by package from the simulator's driver (`mobile: senseactAppStates`); `undefined` on other drivers. */
  async appStates(options: CallOptions = {}): Promise<Record<string, unknown> | undefined> {
    if (!this.simulatorDriver) return undefined;
    return ((await this.execute('mobile: senseactAppStates', {}, options)).value ?? {}) as Record<string, unknown>;
  }

  /** The simulator driver's screen without label-stripping faults (`mobile: senseactGroundTruth`); `undefined` on other drivers. */
  async groundTruth(options: CallOptions = {}): Promise<UiTree | undefined> {
    if (!this.simulatorDriver) return undefined;
    const value = (await this.execute('mobile: senseactGroundTruth', {}, options)).value as { xml?: unknown; packageName?: unknown; activity?: unknown } | null;
    if (typeof value?.xml !== 'string') return undefined;
    return parseHierarchy(value.xml, { packageName: String(value.packageName ?? ''), activity: String(value.activity ?? ''), sourceName: 'simulator ground truth (Appium)' });
  }

  /** The simulator driver's fault log (`mobile: senseactFaultLog`), one entry per occurrence; `[]` on other drivers. */
  async faultLog(options: CallOptions = {}): Promise<readonly DeviceFault[]> {
    if (!this.simulatorDriver) return [];
    const value = (await this.execute('mobile: senseactFaultLog', {}, options)).value;
    return Array.isArray(value) ? value.map((event) => {
      const { kind, detail } = event as { kind?: unknown; detail?: unknown };
      return { kind: String(kind), detail: typeof detail === 'string' ? detail : '' };
    }) : [];
  }

  /**
   * Runs a task's `adb shell ...` queries through Appium's `mobile: shell` (the server must
   * allow the insecure feature `adb_shell`; `startAppiumServer` does). A command that fails
   * is left out, so its check is inconclusive rather than passed. `undefined` on the
   * simulator's driver, which has no adb.
   */
  async adbOutputs(commands: readonly string[], options: CallOptions = {}): Promise<Record<string, string> | undefined> {
    if (this.simulatorDriver) return undefined;
    const outputs: Record<string, string> = {};
    for (const command of commands) {
      const shell = /^adb\s+shell\s+(.+)$/s.exec(command.trim())?.[1];
      if (shell === undefined) {
        debugLog('device', `adb check "${command}" is not an "adb shell ..." command; it cannot run through Appium`);
        continue;
      }
      try {
        const { value } = await this.execute('mobile: shell', { command: shell, args: [], includeStderr: false }, options);
        outputs[command] = typeof value === 'string' ? value : JSON.stringify(value);
      } catch (error) {
        debugLog('device', `adb check "${command}" failed: ${error instanceof Error ? error.message : String(error)} (start Appium with --allow-insecure '*:adb_shell')`);
      }
    }
    return outputs;
  }

  /**
   * Runs one shell command on the device through Appium's `mobile: shell` and returns its
   * stdout. The server must allow the insecure feature `adb_shell`
   * (`--allow-insecure '*:adb_shell'`); a refusal or a non-zero exit throws `DeviceError`
   * (`command-failed`) with the server's words.
   */
  async shell(command: string, options: CallOptions = {}): Promise<string> {
    const { value } = await this.execute('mobile: shell', { command, args: [], includeStderr: false }, options);
    return typeof value === 'string' ? value : JSON.stringify(value);
  }

  /** Whether `packageName` is installed (`mobile: isAppInstalled`; no insecure feature needed). */
  async isAppInstalled(packageName: string, options: CallOptions = {}): Promise<boolean> {
    const { value } = await this.execute('mobile: isAppInstalled', { appId: packageName }, options);
    return value === true;
  }

  /**
   * Runs an emulator console command (`adb emu <command>`, e.g. `avd snapshot load clean`)
   * through `mobile: execEmuConsoleCommand`; the server must allow the insecure feature
   * `emulator_console`, and the device must be an emulator. Throws `DeviceError` otherwise.
   */
  async emulatorConsole(command: string, options: CallOptions = {}): Promise<string> {
    const { value } = await this.execute('mobile: execEmuConsoleCommand', { command }, options);
    return typeof value === 'string' ? value : JSON.stringify(value);
  }

  /** Deletes the session; the device cannot be used afterwards. Never throws for an already-gone session. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const client = this.client;
    this.client = undefined;
    if (!client) return;
    const start = performance.now();
    try {
      await raceSignal(client.deleteSession(), AbortSignal.timeout(10_000));
      this.records.push({ kind: 'close', latencyMs: performance.now() - start, ok: true });
    } catch (error) {
      // The session may already be gone (server stopped, session deleted): closing is still done.
      debugLog('device', 'close: deleting the session failed', { message: error instanceof Error ? error.message : String(error) });
      this.records.push({ kind: 'close', latencyMs: performance.now() - start, ok: false });
    }
  }

  /**
   * Runs one device call: deadline and abort, retries per the policy, one session
   * re-creation on `invalid session id`, and a call record.
   */
  private async call<T extends object>(kind: string, options: CallOptions, idempotent: boolean, run: (client: AppiumClient, signal: AbortSignal) => Promise<T>): Promise<T & { latencyMs: number }> {
    const start = performance.now();
    const signal = deadlineSignal(options.signal, this.options.callTimeoutMs);
    let recovered = false;
    try {
      if (this.closed) throw new DeviceError({ reason: 'closed', call: kind, message: `${kind} on device '${this.options.name}' after close(): create a new device with createDevice().` });
      const value = await withRetry(
        async () => {
          const client = await this.currentClient(signal);
          try {
            return await raceSignal(run(client, signal), signal);
          } catch (error) {
            if (recovered || classifyAppiumError(error) !== 'session-lost' || signal.aborted) throw error;
            recovered = true;
            debugLog('device', `${kind}: session ${client.sessionId} lost; re-creating it`);
            this.client = undefined;
            const fresh = await this.currentClient(signal);
            await this.requireSameDevice(fresh, kind);
            this.recoveries++;
            return await raceSignal(run(fresh, signal), signal);
          }
        },
        {
          policy: this.options.retry,
          signal,
          shouldRetry: (error) => isRetryable(classifyAppiumError(error), idempotent),
          onRetry: ({ error, attempt, delayMs }) => {
            debugLog('device', `${kind}: attempt ${attempt} failed, retrying in ${delayMs} ms`, { message: error instanceof Error ? error.message : String(error) });
          },
        },
      );
      const latencyMs = performance.now() - start;
      this.records.push({ kind, latencyMs, ok: true });
      return { ...value, latencyMs };
    } catch (error) {
      this.records.push({ kind, latencyMs: performance.now() - start, ok: false });
      throw toDeviceError(error, kind, this.options, signal, options.signal);
    }
  }

  /**
   * A re-created session must run on the device the task started on. Behind a grid or a
   * device farm a new session may land on any device that matches the capabilities, where
   * the task's state is not: the new session is deleted and the loss reported, so the
   * run ends as an infrastructure error (and `--resume` reruns it) instead of going on
   * somewhere else.
   */
  private async requireSameDevice(client: AppiumClient, kind: string): Promise<void> {
    const wanted = this.info.servedBy;
    const got = sessionDevice(client.capabilities);
    // Unnamed devices are the same only when nothing routes sessions between devices.
    if (wanted === got && (wanted !== undefined || !this.options.routed)) return;
    this.client = undefined;
    try {
      await raceSignal(client.deleteSession(), AbortSignal.timeout(10_000));
    } catch (error) {
      debugLog('device', 'deleting the session on the wrong device failed', { message: error instanceof Error ? error.message : String(error) });
    }
    throw new DeviceError({
      reason: 'session-lost',
      call: kind,
      message: `The Appium session of device '${this.options.name}' at ${withoutCredentials(this.options.url)} was lost, and a new one opened on ${got === undefined ? 'a device that does not say which it is' : `'${got}'`} instead of '${wanted ?? 'the first device'}': the task's state is not there, so the run stops here (an infrastructure error; npx senseact bench --resume runs it again).`,
    });
  }

  /**
   * The session to use, opened anew after a loss. A refused connection alone keeps the
   * session: when the server comes back without it, the next call sees `invalid session
   * id` and re-creates it.
   */
  private async currentClient(signal: AbortSignal): Promise<AppiumClient> {
    if (this.client) return this.client;
    const client = await openSession(this.options, signal);
    if (this.closed) {
      await client.deleteSession();
      throw new DeviceError({ reason: 'closed', call: 'connect', message: `Device '${this.options.name}' was closed while reconnecting.` });
    }
    this.client = client;
    return client;
  }
}

/**
 * Which device a session runs on, from the capabilities the server returned: a grid
 * node's `senseact:node` (see `startLocalSimGrid`), else the serial Appium reports.
 */
export function sessionDevice(capabilities: Readonly<Record<string, unknown>>): string | undefined {
  for (const name of ['senseact:node', 'appium:udid', 'udid', 'deviceUDID']) {
    const value = capabilities[name];
    if (typeof value === 'string' && value !== '') return value;
  }
  return undefined;
}

function isRetryable(errorClass: AppiumErrorClass, idempotent: boolean): boolean {
  switch (errorClass) {
    case 'connection-refused':
    case 'server-error':
    case 'node-unreachable':
      return true;
    case 'connection-reset':
    case 'timeout':
      return idempotent;
    case 'session-lost':
    case 'session-not-created':
    case 'other':
      return false;
    default:
      return assertNever(errorClass, 'error class');
  }
}

/** Maps one `DeviceAction` onto UiAutomator2 `mobile:` methods and W3C actions. */
export async function performAction(client: AppiumClient, action: DeviceAction): Promise<object> {
  switch (action.type) {
    case 'tap':
      await client.executeScript('mobile: clickGesture', [{ x: action.point[0], y: action.point[1] }]);
      return {};
    case 'long-press':
      await client.executeScript('mobile: longClickGesture', [{ x: action.point[0], y: action.point[1], ...(action.durationMs === undefined ? {} : { duration: action.durationMs }) }]);
      return {};
    case 'type':
      if (action.point) await client.executeScript('mobile: clickGesture', [{ x: action.point[0], y: action.point[1] }]);
      try {
        await client.executeScript('mobile: type', [{ text: action.text }]);
      } catch (error) {
        // Drivers without `mobile: type` still take W3C key actions (what WebdriverIO's `keys()` sends).
        if (!isUnknownMethod(error)) throw error;
        await client.performActions([{ type: 'key', id: 'keyboard', actions: [...action.text].flatMap((value) => [{ type: 'keyDown', value }, { type: 'keyUp', value }]) }]);
      }
      return {};
    case 'clear': {
      if (action.point) await client.executeScript('mobile: clickGesture', [{ x: action.point[0], y: action.point[1] }]);
      const focused = await client.findElement('xpath', "//*[@focused='true']");
      const elementId = Object.values(focused)[0];
      if (elementId === undefined) throw new Error('The server returned an empty element reference for the focused field.');
      await client.elementClear(elementId);
      return {};
    }
    case 'scroll': {
      const [left, top, right, bottom] = action.bounds;
      await client.executeScript('mobile: scrollGesture', [{ left, top, width: right - left, height: bottom - top, direction: action.direction, percent: action.percent ?? 0.7 }]);
      return {};
    }
    case 'swipe':
      await client.performActions([
        {
          type: 'pointer',
          id: 'finger1',
          parameters: { pointerType: 'touch' },
          actions: [
            { type: 'pointerMove', duration: 0, origin: 'viewport', x: action.from[0], y: action.from[1] },
            { type: 'pointerDown', button: 0 },
            { type: 'pointerMove', duration: action.durationMs ?? 300, origin: 'viewport', x: action.to[0], y: action.to[1] },
            { type: 'pointerUp', button: 0 },
          ],
        },
      ]);
      return {};
    case 'key':
      if (action.key === 'back') await client.back();
      else await client.executeScript('mobile: pressKey', [{ keycode: keyCodes[action.key] }]);
      return {};
    case 'launch':
      if (action.activity === undefined) await client.executeScript('mobile: activateApp', [{ appId: action.packageName }]);
      else await client.executeScript('mobile: startActivity', [{ intent: `${action.packageName}/${action.activity}` }]);
      return {};
    default:
      return assertNever(action, 'device action');
  }
}

/** The server does not know this `mobile:` method (older or other drivers). */
function isUnknownMethod(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  const name = error instanceof Error ? error.name : '';
  return name === 'unknown method' || name === 'unsupported operation' || /unsupported execute method|unknown mobile command|unknown method/i.test(message);
}

type ResolvedOptions = Required<Omit<AppiumDeviceOptions, 'density'>>;

/** Opens a session, retrying only while the server is unreachable or failing with 5xx. */
async function openSession(options: ResolvedOptions, signal: AbortSignal): Promise<AppiumClient> {
  return await withRetry(
    () => raceSignal(options.connector({ url: options.url, capabilities: options.capabilities, requestTimeoutMs: Math.max(options.callTimeoutMs, options.connectTimeoutMs) }), signal),
    {
      policy: options.retry,
      signal,
      shouldRetry: (error) => {
        const errorClass = classifyAppiumError(error);
        return errorClass === 'connection-refused' || errorClass === 'server-error' || errorClass === 'node-unreachable';
      },
    },
  );
}

/** The caller's signal combined with the call's deadline. */
function deadlineSignal(signal: AbortSignal | undefined, timeoutMs: number): AbortSignal {
  const timeout = AbortSignal.timeout(timeoutMs);
  return signal ? AbortSignal.any([signal, timeout]) : timeout;
}

/** Settles with `promise`, or rejects with the signal's reason as soon as it fires. */
function raceSignal<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    promise.catch(() => undefined);
    return Promise.reject(signal.reason as Error);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => {
      // The request keeps running; its late outcome is dropped on purpose.
      promise.catch(() => undefined);
      reject(signal.reason as Error);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error as Error);
      },
    );
  });
}

function toDeviceError(error: unknown, call: string, options: Pick<ResolvedOptions, 'name' | 'url' | 'callTimeoutMs' | 'capabilities'>, signal: AbortSignal, callerSignal: AbortSignal | undefined): DeviceError {
  if (DeviceError.isInstance(error)) return error;
  const url = withoutCredentials(options.url);
  const where = `device '${options.name}' (Appium at ${url})`;
  const detail = error instanceof Error ? error.message : String(error);
  if (callerSignal?.aborted) {
    return new DeviceError({ reason: 'aborted', call, message: `${call} on ${where} was aborted by the caller.`, cause: error });
  }
  if (signal.aborted) {
    return new DeviceError({ reason: 'timeout', call, message: `${call} on ${where} did not finish within ${options.callTimeoutMs} ms: check that the device responds (is the emulator frozen?) or raise callTimeoutMs in the profile.`, cause: error });
  }
  const errorClass = classifyAppiumError(error);
  switch (errorClass) {
    case 'connection-refused':
    case 'connection-reset':
      return new DeviceError({ reason: 'unreachable', call, message: `Appium not reachable at ${url} (${call} on device '${options.name}': ${detail}): start it (\`npx senseact devices check ${options.name}\` says how), or pass the right URL.`, cause: error });
    case 'session-not-created': {
      if (/No nodes support the capabilities/i.test(detail)) {
        return new DeviceError({ reason: 'session-not-created', call, message: `The grid at ${url} has no node whose stereotype accepts the capabilities of device '${options.name}' (${detail.split('\n')[0] ?? detail}): \`senseact devices check ${options.name}\` lists the nodes and what they offer; fix the profile's capabilities or the nodes' stereotypes.`, cause: error });
      }
      const automation = String(options.capabilities['appium:automationName'] ?? '');
      return new DeviceError({ reason: 'session-not-created', call, message: `Appium at ${url} refused a session for device '${options.name}': ${detail}. Check that the ${automation || 'required'} driver is installed in the Appium home (\`npx appium driver install uiautomator2\`; SenseActSim: \`npm run sim:appium\` in a clone of the repository) and that the device is online (\`adb devices\`).`, cause: error });
    }
    case 'node-unreachable':
      return new DeviceError({ reason: 'unreachable', call, message: `The grid at ${url} could not reach the device it chose for a session of '${options.name}' (${detail}): that node is down. The hub stops choosing it after its next health check; give the profile's retry.budgetMs more time than that, or restart the node.`, cause: error });
    case 'session-lost':
      return new DeviceError({ reason: 'session-lost', call, message: `The Appium session of device '${options.name}' at ${url} was lost and could not be re-created (${detail}): check the server log, then reconnect.`, cause: error });
    case 'timeout':
      return new DeviceError({ reason: 'timeout', call, message: `${call} on ${where} timed out: ${detail}. Check the device, or raise callTimeoutMs in the profile.`, cause: error });
    case 'server-error':
    case 'other':
      return new DeviceError({ reason: 'command-failed', call, message: `${call} failed on ${where}: ${detail}`, cause: error });
    default:
      return assertNever(errorClass, 'error class');
  }
}
