import { SenseActError } from '../util/senseact-error.js';

const symbol = Symbol.for('senseact.error.device');

/**
 * Why a device call failed:
 * - `unreachable`: the Appium server did not answer (not started, wrong URL, restarting);
 * - `session-not-created`: Appium answered but refused the session (driver missing, device offline);
 * - `session-lost`: the session ended under us and could not be re-created;
 * - `timeout`: the call did not finish within its deadline;
 * - `aborted`: the caller's AbortSignal fired;
 * - `command-failed`: the device answered with an error for this command;
 * - `closed`: the device was used after `close()`.
 */
export type DeviceErrorReason = 'unreachable' | 'session-not-created' | 'session-lost' | 'timeout' | 'aborted' | 'command-failed' | 'closed';

/**
 * An infrastructure failure of a device call. The message says what failed, where
 * (the device profile and server URL) and what to do; `reason` is for code that
 * decides, `call` names the device call (`observe`, `act:tap`, ...).
 */
export class DeviceError extends SenseActError {
  private readonly [symbol] = true;
  readonly reason: DeviceErrorReason;
  readonly call: string;

  constructor(options: { reason: DeviceErrorReason; call: string; message: string; cause?: unknown }) {
    super({ code: `device-${options.reason}`, message: options.message, cause: options.cause });
    this.name = 'DeviceError';
    this.reason = options.reason;
    this.call = options.call;
  }

  static override isInstance(error: unknown): error is DeviceError {
    return typeof error === 'object' && error !== null && symbol in error;
  }
}
