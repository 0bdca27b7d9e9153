import type { UiTree } from '../ui/ui-tree.js';
import type { CallOptions } from './device.js';

/** A simulated app's state, read by package; `undefined` for an app without state. */
export type AppStateReader = (packageName: string) => unknown;

/** One fault a device injected: its kind (`dropped-tap`) and what it did (`tap (540,675) dropped`). */
export interface DeviceFault {
  readonly kind: string;
  readonly detail: string;
}

/**
 * What a device can tell about itself beyond the screen the agent sees: evidence for a
 * task's success check once a run ends (app state, adb queries), the faults injected
 * during the run, and the screen as it really is (the oracle policy's "eyes" behind the
 * vision model). The agent loop never reads it. Both built-in devices implement it; each
 * answer is `undefined` (or empty) where the device cannot give it.
 */
export interface DeviceProbe {
  /** Per-app state for state checks (the simulator, in process or behind its Appium driver). */
  appState(options?: CallOptions): Promise<AppStateReader | undefined>;
  /**
   * Every app's state by package, read to find a run's side effects (the simulator, in
   * process or behind its Appium driver); `undefined` where the device holds no such state.
   * Optional: a probe without it watches no app state.
   */
  appStates?(options?: CallOptions): Promise<Readonly<Record<string, unknown>> | undefined>;
  /** The screen without label-stripping faults (the simulator); `undefined` on real devices. */
  groundTruth(options?: CallOptions): Promise<UiTree | undefined>;
  /** The faults injected so far, one entry per occurrence in order; `[]` where none are injected. */
  faultLog(options?: CallOptions): Promise<readonly DeviceFault[]>;
  /**
   * Outputs of a task's `adb shell …` queries, keyed by the command as written. A command
   * that could not run is left out (its check is then inconclusive, never passed);
   * `undefined` when the device cannot run adb at all.
   */
  adbOutputs(commands: readonly string[], options?: CallOptions): Promise<Readonly<Record<string, string>> | undefined>;
}
