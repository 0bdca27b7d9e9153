import { SenseActError } from '../../util/senseact-error.js';

const marker = Symbol.for('senseact.error.droidtask-load');

/** DroidTask data that cannot be read: a missing folder, a malformed YAML/JSON file. Names the file and what to do. */
export class DroidTaskLoadError extends SenseActError {
  private readonly [marker] = true;
  readonly file: string;
  /** What is wrong with the file, without the file name and the advice. */
  readonly problem: string;

  constructor(options: { file: string; problem: string; cause?: unknown }) {
    super({
      code: 'droidtask-load',
      message: `Cannot load DroidTask data ${options.file}: ${options.problem}. Expected DroidTask's user_tasks/<app>/ layout (task*.yaml, states/state_*.json, events/event_*.json) as downloaded from the DroidTask release.`,
      cause: options.cause,
    });
    this.name = 'DroidTaskLoadError';
    this.file = options.file;
    this.problem = options.problem;
  }

  static override isInstance(error: unknown): error is DroidTaskLoadError {
    return typeof error === 'object' && error !== null && marker in error;
  }
}
