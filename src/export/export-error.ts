import { SenseActError } from '../util/senseact-error.js';

const marker = 'senseact.error.export';
const symbol = Symbol.for(marker);

/** A run folder or skill file cannot be exported (unreadable, unusable, or an unknown target format). */
export class ExportError extends SenseActError {
  private readonly [symbol] = true;

  constructor(options: { message: string; cause?: unknown }) {
    super({ code: 'export', message: options.message, cause: options.cause });
    this.name = 'ExportError';
  }

  static override isInstance(error: unknown): error is ExportError {
    return typeof error === 'object' && error !== null && symbol in error;
  }
}
