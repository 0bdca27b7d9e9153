import { SenseActError } from '../util/senseact-error.js';

const marker = Symbol.for('senseact.error.bench');

/**
 * A benchmark run cannot start or go on: a bad option, an out dir that holds another
 * run, a journal that belongs to a different run. The message names the option or file
 * and says what to do.
 */
export class BenchError extends SenseActError {
  private readonly [marker] = true;

  constructor(options: { code: string; message: string; cause?: unknown }) {
    super(options);
    this.name = 'BenchError';
  }

  static override isInstance(error: unknown): error is BenchError {
    return typeof error === 'object' && error !== null && marker in error;
  }
}
