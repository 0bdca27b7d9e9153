import { SenseActError } from '../../util/senseact-error.js';

const marker = Symbol.for('senseact.error.replay-load');

/** Recorded transitions that cannot be read: a missing file, a malformed line, a screen that does not parse. Names the file (and line) and what to do. */
export class ReplayLoadError extends SenseActError {
  private readonly [marker] = true;
  readonly file: string;
  /** The line of a JSONL the problem is on, when it is on one. */
  readonly line: number | undefined;
  /** What is wrong, without the file name and the advice. */
  readonly problem: string;
  /** The problem in short, without the underlying error's words (`screen xml/a.xml does not parse`): for lists of what was left out. */
  readonly brief: string;

  constructor(options: { file: string; line?: number; problem: string; brief?: string; cause?: unknown }) {
    const where = options.line === undefined ? options.file : `${options.file}:${options.line}`;
    super({
      code: 'replay-load',
      message: `Cannot load recorded transitions ${where}: ${options.problem}. Expected a transitions JSONL (one record a line: before, action, after; see docs/verify-replay.md), DroidTask's user_tasks/<app>/ folders, or DroidBot output folders (events/event_*.json, states/state_*.json).`,
      cause: options.cause,
    });
    this.name = 'ReplayLoadError';
    this.file = options.file;
    this.line = options.line;
    this.problem = options.problem;
    this.brief = options.brief ?? options.problem;
  }

  static override isInstance(error: unknown): error is ReplayLoadError {
    return typeof error === 'object' && error !== null && marker in error;
  }
}
