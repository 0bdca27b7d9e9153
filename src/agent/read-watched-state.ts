import type { CallOptions } from '../device/device.js';
import type { DeviceProbe } from '../device/device-probe.js';
import type { WatchedState } from '../tasks/find-side-effects.js';

/**
 * Reads the state watched for side effects (docs/architecture.md §2.10): every app's state
 * where the probe has it (the simulator), and the outputs of the `watch` adb queries a
 * device profile lists (a device; a query that could not run is left out, so it is not
 * compared). Empty without a probe.
 */
export async function readWatchedState(probe: DeviceProbe | undefined, watch: readonly string[], options: CallOptions): Promise<WatchedState> {
  if (probe === undefined) return {};
  const apps = await probe.appStates?.(options);
  const adb = watch.length > 0 ? await probe.adbOutputs(watch, options) : undefined;
  return { ...(apps === undefined ? {} : { apps }), ...(adb === undefined ? {} : { adb }) };
}
