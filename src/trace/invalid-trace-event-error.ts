import { SenseActError } from '../util/senseact-error.js';

const symbol = Symbol.for('senseact.error.invalid-trace-event');

/** A writer was given an event that does not match its schema: a bug in the caller. */
export class InvalidTraceEventError extends SenseActError {
  private readonly [symbol] = true;

  constructor(options: { type: string; detail: string }) {
    super({
      code: 'invalid-trace-event',
      message: `Trace event ${JSON.stringify(options.type)} does not match its schema (src/trace/trace-event.ts): ${options.detail}. Fix the code that emits it.`,
    });
    this.name = 'InvalidTraceEventError';
  }

  static override isInstance(error: unknown): error is InvalidTraceEventError {
    return typeof error === 'object' && error !== null && symbol in error;
  }
}
