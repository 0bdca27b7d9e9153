import { Simulator, type SimulatorOptions } from '../sim/simulator.js';
import { SimulatorError } from '../sim/simulator-error.js';
import type { AppiumConnector } from './appium-client.js';
import { AppiumDevice } from './appium-device.js';
import type { RecordingDevice } from './device.js';
import { DeviceError } from './device-error.js';
import type { DeviceProfile } from './device-profile.js';
import { SimDevice } from './sim-device.js';

export interface CreateDeviceOptions {
  /** Overrides the profile's Appium URL (e.g. a server a test started on a free port). */
  readonly url?: string;
  /** Capabilities merged over the profile's (e.g. `senseact:seed` for one task). */
  readonly capabilities?: Readonly<Record<string, unknown>>;
  /** Simulator options merged over a sim profile's. */
  readonly sim?: SimulatorOptions;
  readonly signal?: AbortSignal;
  /** How Appium sessions are opened; tests pass a fake. */
  readonly connector?: AppiumConnector;
}

/**
 * The composition root for devices: a profile in, a connected `Device` out. A `sim`
 * profile gets a fresh in-process `Simulator`; an `appium` profile opens a session on
 * its server. Throws `DeviceError` when the device cannot be had (bad simulator options,
 * unreachable server, refused session), saying what to do.
 */
export async function createDevice(profile: DeviceProfile, options: CreateDeviceOptions = {}): Promise<RecordingDevice> {
  switch (profile.kind) {
    case 'sim': {
      let simulator: Simulator;
      try {
        simulator = new Simulator({ ...(profile.sim as SimulatorOptions), ...options.sim });
      } catch (error) {
        if (!SimulatorError.isInstance(error)) throw error;
        throw new DeviceError({ reason: 'session-not-created', call: 'connect', message: `The simulator of profile '${profile.name}' did not start: ${error.message} Fix the sim: section of the profile.`, cause: error });
      }
      return new SimDevice(simulator, { name: profile.name, ...(profile.settle === undefined ? {} : { settle: profile.settle }) });
    }
    case 'appium':
      return await AppiumDevice.connect(
        {
          name: profile.name,
          url: options.url ?? profile.appium.url,
          capabilities: { ...profile.appium.capabilities, ...options.capabilities },
          ...(profile.settle === undefined ? {} : { settle: profile.settle }),
          ...(profile.retry === undefined ? {} : { retry: profile.retry }),
          ...(profile.callTimeoutMs === undefined ? {} : { callTimeoutMs: profile.callTimeoutMs }),
          ...(profile.connectTimeoutMs === undefined ? {} : { connectTimeoutMs: profile.connectTimeoutMs }),
          ...(profile.appium.grid === true ? { routed: true } : {}),
          ...(profile.density === undefined ? {} : { density: profile.density }),
          ...(profile.activityStack === undefined ? {} : { activityStack: profile.activityStack }),
          ...(options.connector === undefined ? {} : { connector: options.connector }),
        },
        options.signal === undefined ? {} : { signal: options.signal },
      );
  }
}
