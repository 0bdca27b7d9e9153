import { SenseActError } from '../util/senseact-error.js';

const marker = Symbol.for('senseact.error.device-setup');

/**
 * A task's start steps (or the device profile's reset) could not be carried out on the
 * device: an app that is not installed, a server that refuses `mobile: shell` or the
 * emulator console, a snapshot that does not exist. The message names the task, the step
 * and what to do; `step` is the step's index in the plan (`deviceSetupSteps`).
 */
export class DeviceSetupError extends SenseActError {
  private readonly [marker] = true;
  readonly taskId: string;
  readonly step: number;

  constructor(options: { taskId: string; step: number; message: string; cause?: unknown }) {
    super({ code: 'device-setup', message: options.message, cause: options.cause });
    this.name = 'DeviceSetupError';
    this.taskId = options.taskId;
    this.step = options.step;
  }

  static override isInstance(error: unknown): error is DeviceSetupError {
    return typeof error === 'object' && error !== null && marker in error;
  }
}
