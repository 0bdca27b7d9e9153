import { SenseActError } from '../util/senseact-error.js';

const symbol = Symbol.for('senseact.error.cassette-read');

/** A cassette file is missing or has a malformed line (other than a torn last line). */
export class CassetteReadError extends SenseActError {
  private readonly [symbol] = true;
  readonly path: string;

  constructor(options: { path: string; line?: number; detail: string; cause?: unknown }) {
    super({
      code: 'cassette-read',
      message:
        `Cannot read cassette ${options.path}${options.line === undefined ? '' : ` at line ${options.line}`}: ${options.detail}. ` +
        'Re-record it (a RecordingLanguageModel against a real or mock endpoint) or pass the right path.',
      cause: options.cause,
    });
    this.name = 'CassetteReadError';
    this.path = options.path;
  }

  static override isInstance(error: unknown): error is CassetteReadError {
    return typeof error === 'object' && error !== null && symbol in error;
  }
}
