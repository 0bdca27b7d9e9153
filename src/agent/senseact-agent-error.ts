import { SenseActError } from '../util/senseact-error.js';

const marker = Symbol.for('senseact.error.senseact-agent');

/**
 * `SenseActAgent` was given something it cannot use: a device option of no known form,
 * an instruction without allowed packages, a check that is not a predicate, no models.
 * The message names the option and says what to pass instead.
 */
export class SenseActAgentError extends SenseActError {
  private readonly [marker] = true;

  constructor(options: { code: string; message: string; cause?: unknown }) {
    super(options);
    this.name = 'SenseActAgentError';
  }

  static override isInstance(error: unknown): error is SenseActAgentError {
    return typeof error === 'object' && error !== null && marker in error;
  }
}
