import { SenseActError } from '../util/senseact-error.js';

const marker = 'senseact.error.app-memory';
const symbol = Symbol.for(marker);

/** An app memory file could not be read (not JSON, not an app memory) or written, or an app it does not hold was asked for. */
export class AppMemoryError extends SenseActError {
  private readonly [symbol] = true;

  constructor(options: { message: string; cause?: unknown }) {
    super({ code: 'app-memory', message: options.message, cause: options.cause });
    this.name = 'AppMemoryError';
  }

  static override isInstance(error: unknown): error is AppMemoryError {
    return typeof error === 'object' && error !== null && symbol in error;
  }
}
