import { SenseActError } from '../util/senseact-error.js';

const symbol = Symbol.for('senseact.error.model-config');

/** The model configuration is missing something (a key, a URL) or is malformed. */
export class ModelConfigError extends SenseActError {
  private readonly [symbol] = true;

  constructor(message: string) {
    super({ code: 'model-config', message });
    this.name = 'ModelConfigError';
  }

  static override isInstance(error: unknown): error is ModelConfigError {
    return typeof error === 'object' && error !== null && symbol in error;
  }
}
