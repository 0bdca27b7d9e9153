import { SenseActError } from '../util/senseact-error.js';

const marker = Symbol.for('senseact.error.run-timeout');

/**
 * A run went past its wall-clock limit (`--run-timeout`, `runTask`'s `runTimeoutMs`): the
 * watchdog stopped it. An infrastructure error of that run (something hung: a device, a
 * model endpoint, the toolkit), never a failure of the agent; its trace is kept.
 */
export class RunTimeoutError extends SenseActError {
  private readonly [marker] = true;
  readonly limitMs: number;

  constructor(limitMs: number) {
    super({ code: 'run-timeout', message: `run timeout: the run took longer than its wall-clock limit of ${formatLimit(limitMs)} and was stopped (raise it with bench --run-timeout <seconds>, or find what hung in the run's trace)` });
    this.name = 'RunTimeoutError';
    this.limitMs = limitMs;
  }

  static override isInstance(error: unknown): error is RunTimeoutError {
    return typeof error === 'object' && error !== null && marker in error;
  }
}

function formatLimit(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}
