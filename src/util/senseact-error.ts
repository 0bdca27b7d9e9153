const marker = 'senseact.error';
const symbol = Symbol.for(marker);

/**
 * Base class of every error the toolkit throws on purpose. Subclasses add their own
 * marker so that `isInstance` works across module copies (no `instanceof` pitfalls).
 * The message says what was wrong, where, and what to do.
 */
export class SenseActError extends Error {
  private readonly [symbol] = true;
  /** A stable machine-readable code, e.g. `hierarchy-parse`. */
  readonly code: string;

  constructor(options: { code: string; message: string; cause?: unknown }) {
    super(options.message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'SenseActError';
    this.code = options.code;
  }

  static isInstance(error: unknown): error is SenseActError {
    return typeof error === 'object' && error !== null && symbol in error;
  }
}
