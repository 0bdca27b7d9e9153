import type { ActResult, CallOptions, Device, DeviceInfo, Observation, Screenshot } from './device.js';
import type { DeviceAction } from './device-action.js';
import type { DeviceFault, DeviceProbe } from './device-probe.js';

/** Told of the faults a device call struck, in the order the device logged them. */
export type DeviceFaultListener = (faults: readonly DeviceFault[]) => void;

/**
 * A device whose injected faults are told as they strike: after each observation, action
 * and screenshot it reads the probe's fault log and hands the new entries to the
 * listener (the run writes them into the step they struck). Calls and their results pass
 * through unchanged; the only cost is one fault-log read per call (in process, a copy of
 * an array; behind the simulator's Appium driver, one `mobile: senseactFaultLog`), so a
 * run wraps its device only when faults are injected. A fault-log read that fails throws,
 * as the run's final read does. Faults logged before the first call are told at it.
 */
export class FaultWatchedDevice implements Device {
  readonly info: DeviceInfo;
  private seen = 0;

  constructor(
    private readonly device: Device,
    private readonly probe: Pick<DeviceProbe, 'faultLog'>,
    private readonly listener: DeviceFaultListener,
  ) {
    this.info = device.info;
  }

  async observe(options?: CallOptions): Promise<Observation> {
    const observation = await this.device.observe(options);
    await this.tell(options);
    return observation;
  }

  async screenshot(options?: CallOptions): Promise<Screenshot> {
    const screenshot = await this.device.screenshot(options);
    await this.tell(options);
    return screenshot;
  }

  /** Faults of an action that throws are told by the next call's read (the throw is what the caller must see). */
  async act(action: DeviceAction, options?: CallOptions): Promise<ActResult> {
    const result = await this.device.act(action, options);
    await this.tell(options);
    return result;
  }

  close(): Promise<void> {
    return this.device.close();
  }

  /** Hands the faults logged since the last call to the listener. */
  private async tell(options?: CallOptions): Promise<void> {
    const log = await this.probe.faultLog(options);
    if (log.length <= this.seen) return;
    const fresh = log.slice(this.seen);
    this.seen = log.length;
    this.listener(fresh);
  }
}
