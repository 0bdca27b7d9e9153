import { SenseActError } from '../util/senseact-error.js';

const marker = Symbol.for('senseact.error.state-path');

/** A state path that does not follow the grammar of state-check-schema.ts. Says where and how to write one. */
export class StatePathError extends SenseActError {
  private readonly [marker] = true;
  readonly path: string;
  /** 0-based offset of the first character that does not fit. */
  readonly position: number;

  constructor(path: string, position: number) {
    super({
      code: 'state-path',
      message: `State path "${path}" is malformed at character ${position + 1}: write keys separated by dots, [n] for an index, [*] for every element, ["key"] for odd keys (e.g. alarms[*].hour).`,
    });
    this.name = 'StatePathError';
    this.path = path;
    this.position = position;
  }

  static override isInstance(error: unknown): error is StatePathError {
    return typeof error === 'object' && error !== null && marker in error;
  }
}
