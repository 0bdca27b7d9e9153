import { SenseActError } from '../util/senseact-error.js';

const marker = 'senseact.error.skill';
const symbol = Symbol.for(marker);

/** A skill file or a run folder to induce from could not be read, or a skill is invalid. */
export class SkillError extends SenseActError {
  private readonly [symbol] = true;

  constructor(options: { message: string; cause?: unknown }) {
    super({ code: 'skill', message: options.message, cause: options.cause });
    this.name = 'SkillError';
  }

  static override isInstance(error: unknown): error is SkillError {
    return typeof error === 'object' && error !== null && symbol in error;
  }
}
