import type { HierarchyDialect } from '../ui/ui-tree.js';
import type { DeviceAction } from './device-action.js';

/** Options every device call takes. */
export interface CallOptions {
  readonly signal?: AbortSignal;
}

/** What one observation of the device gives: the raw hierarchy plus where we are. */
export interface Observation {
  readonly xml: string;
  readonly dialect: HierarchyDialect;
  readonly packageName: string;
  readonly activity: string;
  /**
   * The foreground task's activity stack, top first (`package/activity`), when the device
   * can tell (`dumpsys activity activities`; the simulator knows its own); absent otherwise.
   * The verifier reads Back and an editor's Save from it (docs/architecture.md §2.6).
   */
  readonly activityStack?: readonly string[];
  /** Wall time of the whole call, including settle polling, in milliseconds. */
  readonly latencyMs: number;
  /** How many hierarchies were pulled until two consecutive ones matched (1 when settle is off). */
  readonly polls: number;
  /** False when the settle timeout ran out before two consecutive hierarchies matched. */
  readonly settled: boolean;
}

export interface Screenshot {
  readonly png: Uint8Array;
  readonly width: number;
  readonly height: number;
  readonly latencyMs: number;
}

export interface ActResult {
  readonly latencyMs: number;
}

export interface DeviceInfo {
  /** Profile name, e.g. `sim`, `emulator`. */
  readonly name: string;
  readonly kind: 'sim' | 'appium';
  readonly width: number;
  readonly height: number;
  readonly density: number;
  /**
   * Which device served the session, when the server says: a grid node's
   * `senseact:node`, else the session's `appium:udid` / `udid`. Absent in-process.
   */
  readonly servedBy?: string;
}

/**
 * The one interface the agent drives (docs/architecture.md §5). Implementations: `SimDevice`
 * (in-process simulator) and `AppiumDevice` (WebdriverIO → Appium, for emulators,
 * phones and the simulator's own Appium driver). Every call honours its AbortSignal.
 * Infrastructure failures throw `DeviceError`.
 */
export interface Device {
  readonly info: DeviceInfo;
  /** Pulls the hierarchy after the UI settles. */
  observe(options?: CallOptions): Promise<Observation>;
  screenshot(options?: CallOptions): Promise<Screenshot>;
  act(action: DeviceAction, options?: CallOptions): Promise<ActResult>;
  close(): Promise<void>;
}

/** One device call as the device timed it, for benchmarks (`scripts/bench-device.ts`). */
export interface CallRecord {
  /** `observe`, `screenshot`, `act:<action type>`, `connect`, `close`. */
  readonly kind: string;
  readonly latencyMs: number;
  readonly ok: boolean;
}

/** A device that keeps its own call records (both built-in devices do). */
export interface RecordingDevice extends Device {
  /** Every call so far, oldest first. */
  readonly callLog: readonly CallRecord[];
}
