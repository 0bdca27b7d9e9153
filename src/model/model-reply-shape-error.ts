import { SenseActError } from '../util/senseact-error.js';
import type { ModelRole } from './model-role.js';

const symbol = Symbol.for('senseact.error.model-reply-shape');

/**
 * A model implementation returned a reply whose numbers or fields are not what
 * `ModelReply` promises (token counts that are not whole numbers ≥ 0, a latency that is
 * not a number, text that is not a string). An infrastructure error: the model's code is
 * wrong, not the agent. Says which field, the value, and what to fix.
 */
export class ModelReplyShapeError extends SenseActError {
  private readonly [symbol] = true;
  readonly provider: string;
  readonly role: ModelRole;
  readonly problems: readonly string[];

  constructor(options: { provider: string; role: ModelRole; problems: readonly string[] }) {
    super({
      code: 'model-reply-shape',
      message: `The model ${options.provider} (role ${options.role}) returned a reply SenseAct cannot count: ${options.problems.join('; ')}. Fix its generate(): usage.promptTokens and usage.completionTokens are whole numbers ≥ 0 (round estimates), latencyMs a number ≥ 0, text and model strings.`,
    });
    this.name = 'ModelReplyShapeError';
    this.provider = options.provider;
    this.role = options.role;
    this.problems = options.problems;
  }

  static override isInstance(error: unknown): error is ModelReplyShapeError {
    return typeof error === 'object' && error !== null && symbol in error;
  }
}

/** What is wrong with a reply's fields, as `field value: what it must be`; empty when nothing is. */
export function modelReplyShapeProblems(reply: unknown): string[] {
  if (typeof reply !== 'object' || reply === null) return [`the reply ${JSON.stringify(reply)} is not an object`];
  const record = reply as Record<string, unknown>;
  const problems: string[] = [];
  if (typeof record['text'] !== 'string') problems.push(`text ${JSON.stringify(record['text'])} is not a string`);
  if (typeof record['model'] !== 'string') problems.push(`model ${JSON.stringify(record['model'])} is not a string`);
  const latency = record['latencyMs'];
  if (typeof latency !== 'number' || !Number.isFinite(latency) || latency < 0) problems.push(`latencyMs ${JSON.stringify(latency)} is not a number ≥ 0`);
  const usage = record['usage'];
  if (typeof usage !== 'object' || usage === null) problems.push(`usage ${JSON.stringify(usage)} is not an object`);
  else {
    for (const field of ['promptTokens', 'completionTokens'] as const) {
      const value = (usage as Record<string, unknown>)[field];
      if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) problems.push(`usage.${field} ${JSON.stringify(value)} is not a whole number ≥ 0`);
    }
  }
  return problems;
}
