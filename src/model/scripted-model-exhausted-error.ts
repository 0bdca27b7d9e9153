import { SenseActError } from '../util/senseact-error.js';
import type { ModelRole } from './model-role.js';

const symbol = Symbol.for('senseact.error.scripted-model-exhausted');

/** A scripted model was called more times than it has replies: the test's script is too short. */
export class ScriptedModelExhaustedError extends SenseActError {
  private readonly [symbol] = true;
  readonly callIndex: number;

  constructor(options: { callIndex: number; replies: number; role: ModelRole; lastUserText: string }) {
    const excerpt = options.lastUserText.length > 200 ? `${options.lastUserText.slice(0, 200)}…` : options.lastUserText;
    super({
      code: 'scripted-model-exhausted',
      message:
        `Scripted model has ${options.replies} repl${options.replies === 1 ? 'y' : 'ies'} but was called a ` +
        `${ordinal(options.callIndex + 1)} time (role ${options.role}, last user message ${JSON.stringify(excerpt)}). ` +
        'Add a reply to the script, or check why the caller made an extra call.',
    });
    this.name = 'ScriptedModelExhaustedError';
    this.callIndex = options.callIndex;
  }

  static override isInstance(error: unknown): error is ScriptedModelExhaustedError {
    return typeof error === 'object' && error !== null && symbol in error;
  }
}

function ordinal(n: number): string {
  const tens = n % 100;
  if (tens >= 11 && tens <= 13) return `${n}th`;
  switch (n % 10) {
    case 1:
      return `${n}st`;
    case 2:
      return `${n}nd`;
    case 3:
      return `${n}rd`;
    default:
      return `${n}th`;
  }
}
