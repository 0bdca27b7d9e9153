import type { Simulator } from '../sim/simulator.js';
import { SimulatorError } from '../sim/simulator-error.js';
import { parseHierarchy } from '../ui/parse-hierarchy.js';
import type { UiTree } from '../ui/ui-tree.js';
import { assertNever } from '../util/assert-never.js';
import type { ActResult, CallOptions, CallRecord, DeviceInfo, Observation, RecordingDevice, Screenshot } from './device.js';
import type { DeviceAction } from './device-action.js';
import type { AppStateReader, DeviceFault, DeviceProbe } from './device-probe.js';
import { DeviceError } from './device-error.js';
import { pngSize } from './png-size.js';
import { scrollSwipe } from './scroll-swipe.js';
import { type SettleOptions, settleHierarchy } from './settle-hierarchy.js';

export interface SimDeviceOptions {
  /** Profile name for `info.name` and messages. */
  readonly name?: string;
  /**
   * Settling on the simulator's virtual clock: pulls until two consecutive hierarchies
   * match (each pull is one observation and moves the clock), waiting `intervalMs` of
   * simulated time between pulls, for at most `timeoutMs` of simulated time.
   */
  readonly settle?: SettleOptions;
}

const defaultSimSettle: SettleOptions = { intervalMs: 0, timeoutMs: 5_000 };

/**
 * The in-process simulator behind the `Device` interface: the fastest device, for unit
 * and integration tests. Time is the simulator's own virtual clock, so runs are
 * deterministic for a seed. Misuse the simulator reports (typing with no focused field, a
 * point off screen) throws `DeviceError` with reason `command-failed`, as the same call
 * through Appium does.
 */
export class SimDevice implements RecordingDevice, DeviceProbe {
  readonly info: DeviceInfo;
  readonly simulator: Simulator;
  private readonly settle: SettleOptions;
  private readonly records: CallRecord[] = [];
  private closed = false;

  constructor(simulator: Simulator, options: SimDeviceOptions = {}) {
    this.simulator = simulator;
    this.settle = options.settle ?? defaultSimSettle;
    const { width, height, density } = simulator.screen;
    this.info = { name: options.name ?? 'sim', kind: 'sim', width, height, density };
  }

  get callLog(): readonly CallRecord[] {
    return this.records;
  }

  async observe(options: CallOptions = {}): Promise<Observation> {
    return await this.call('observe', options, async (signal) => {
      const sim = this.simulator;
      const settled = await settleHierarchy(() => Promise.resolve(sim.pageSource('appium-uia2')), {
        ...this.settle,
        signal,
        sleep: async (ms) => sim.advanceTime(ms),
        now: () => sim.now(),
      });
      return { xml: settled.xml, dialect: 'appium-uia2' as const, packageName: sim.currentPackage(), activity: sim.currentActivity(), activityStack: sim.activityStack(), polls: settled.polls, settled: settled.settled };
    });
  }

  async screenshot(options: CallOptions = {}): Promise<Screenshot> {
    return await this.call('screenshot', options, async () => {
      const png = this.simulator.screenshotPng();
      return { png, ...pngSize(png) };
    });
  }

  async act(action: DeviceAction, options: CallOptions = {}): Promise<ActResult> {
    return await this.call(`act:${action.type}`, options, async () => {
      this.perform(action);
      return {};
    });
  }

  async close(): Promise<void> {
    this.closed = true;
  }

  /** The simulator's per-app state, read live (a check after the run sees the final state). */
  async appState(): Promise<AppStateReader> {
    return (packageName) => this.simulator.appState(packageName);
  }

  /** Every installed app's state by package (apps without state, such as the launcher, left out). */
  async appStates(): Promise<Record<string, unknown>> {
    const states: Record<string, unknown> = {};
    for (const { packageName } of this.simulator.installedApps()) {
      const state = this.simulator.appState(packageName);
      if (state !== undefined) states[packageName] = state;
    }
    return states;
  }

  async groundTruth(): Promise<UiTree> {
    const sim = this.simulator;
    return parseHierarchy(sim.groundTruthSource(), { packageName: sim.currentPackage(), activity: sim.currentActivity(), sourceName: 'simulator ground truth' });
  }

  async faultLog(): Promise<readonly DeviceFault[]> {
    return this.simulator.faultLog().map((event) => ({ kind: event.kind, detail: event.detail }));
  }

  /** The simulator has no adb. */
  async adbOutputs(): Promise<undefined> {
    return undefined;
  }

  private perform(action: DeviceAction): void {
    const sim = this.simulator;
    switch (action.type) {
      case 'tap':
        sim.tap(action.point[0], action.point[1]);
        return;
      case 'long-press':
        if (action.durationMs === undefined) sim.longPress(action.point[0], action.point[1]);
        else sim.longPress(action.point[0], action.point[1], action.durationMs);
        return;
      case 'type':
        if (action.point) sim.tap(action.point[0], action.point[1]);
        sim.typeText(action.text);
        return;
      case 'clear':
        if (action.point) sim.tap(action.point[0], action.point[1]);
        sim.clearText();
        return;
      case 'scroll': {
        const { from, to } = scrollSwipe(action.bounds, action.direction, action.percent);
        sim.swipe(from[0], from[1], to[0], to[1]);
        return;
      }
      case 'swipe':
        if (action.durationMs === undefined) sim.swipe(action.from[0], action.from[1], action.to[0], action.to[1]);
        else sim.swipe(action.from[0], action.from[1], action.to[0], action.to[1], action.durationMs);
        return;
      case 'key':
        sim.pressKey(action.key);
        return;
      case 'launch':
        sim.launchApp(action.packageName, action.activity);
        return;
      default:
        assertNever(action, 'device action');
    }
  }

  private async call<T extends object>(kind: string, options: CallOptions, run: (signal: AbortSignal | undefined) => Promise<T>): Promise<T & { latencyMs: number }> {
    const start = performance.now();
    try {
      if (this.closed) throw new DeviceError({ reason: 'closed', call: kind, message: `${kind} on simulator device '${this.info.name}' after close(): create a new device.` });
      if (options.signal?.aborted) throw new DeviceError({ reason: 'aborted', call: kind, message: `${kind} on simulator device '${this.info.name}' was aborted by the caller.`, cause: options.signal.reason });
      const value = await run(options.signal);
      const latencyMs = performance.now() - start;
      this.records.push({ kind, latencyMs, ok: true });
      return { ...value, latencyMs };
    } catch (error) {
      this.records.push({ kind, latencyMs: performance.now() - start, ok: false });
      if (DeviceError.isInstance(error)) throw error;
      if (options.signal?.aborted) throw new DeviceError({ reason: 'aborted', call: kind, message: `${kind} on simulator device '${this.info.name}' was aborted by the caller.`, cause: error });
      if (SimulatorError.isInstance(error)) throw new DeviceError({ reason: 'command-failed', call: kind, message: `${kind} failed on simulator device '${this.info.name}': ${error.message}`, cause: error });
      throw error;
    }
  }
}
