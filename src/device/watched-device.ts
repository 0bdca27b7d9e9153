import type { ActResult, CallOptions, Device, DeviceInfo, Observation, Screenshot } from './device.js';
import type { DeviceAction } from './device-action.js';

/** Told of every observation a watched device returns; it cannot change it. */
export type ObservationListener = (observation: Observation) => void;

/**
 * A read-only tap on a device: every call goes through unchanged and every observation
 * the caller gets is also handed to the listener (after the caller's copy is settled, so
 * a listener that throws is a bug surfaced as such, never a changed observation). Used by
 * the oracle policy to see the screens the loop saw, without the loop knowing.
 */
export class WatchedDevice implements Device {
  readonly info: DeviceInfo;

  constructor(
    private readonly device: Device,
    private readonly listener: ObservationListener,
  ) {
    this.info = device.info;
  }

  async observe(options?: CallOptions): Promise<Observation> {
    const observation = await this.device.observe(options);
    this.listener(Object.freeze({ ...observation }));
    return observation;
  }

  screenshot(options?: CallOptions): Promise<Screenshot> {
    return this.device.screenshot(options);
  }

  act(action: DeviceAction, options?: CallOptions): Promise<ActResult> {
    return this.device.act(action, options);
  }

  close(): Promise<void> {
    return this.device.close();
  }
}
