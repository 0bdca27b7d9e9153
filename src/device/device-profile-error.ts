import { SenseActError } from '../util/senseact-error.js';

const symbol = Symbol.for('senseact.error.device-profile');

/** A device profile (devices/*.yaml) that is missing, unreadable or fails its schema; the message names the file and the field. */
export class DeviceProfileError extends SenseActError {
  private readonly [symbol] = true;
  /** The profile file, or the name that was asked for when no file was found. */
  readonly file: string;

  constructor(options: { file: string; message: string; cause?: unknown }) {
    super({ code: 'device-profile', message: options.message, cause: options.cause });
    this.name = 'DeviceProfileError';
    this.file = options.file;
  }

  static override isInstance(error: unknown): error is DeviceProfileError {
    return typeof error === 'object' && error !== null && symbol in error;
  }
}
