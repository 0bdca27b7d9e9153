import { SenseActError } from '../util/senseact-error.js';

const symbol = Symbol.for('senseact.error.simulator');

/**
 * Thrown by the simulated device for misuse: an unknown package or activity, a point
 * outside the screen, typing with no focused field, malformed seed data. The message
 * names the call and the offending value and says what to do instead.
 */
export class SimulatorError extends SenseActError {
  private readonly [symbol] = true;

  constructor(options: { message: string; cause?: unknown }) {
    super({ code: 'simulator', ...options });
    this.name = 'SimulatorError';
  }

  static override isInstance(error: unknown): error is SimulatorError {
    return typeof error === 'object' && error !== null && symbol in error;
  }
}
