import { SenseActError } from '../util/senseact-error.js';
import type { ModelUsage } from './language-model.js';
import type { ModelRole } from './model-role.js';

const symbol = Symbol.for('senseact.error.invalid-model-reply');

/** One problem found in a model's reply (a zod issue, or a JSON extraction failure). */
export interface ReplyIssue {
  readonly path: readonly (string | number)[];
  readonly message: string;
}

/**
 * The model never produced a reply that parses and validates, after every retry. The
 * endpoint worked: this is the model's failure of the run (`isModelReplyFailure`), not an
 * infrastructure error, so a resumed bench does not re-roll it. Carries everything needed
 * to debug.
 */
export class InvalidModelReplyError extends SenseActError {
  private readonly [symbol] = true;
  readonly rawText: string;
  /** Every attempt's raw reply, in order (the last is `rawText`). */
  readonly rawTexts: readonly string[];
  readonly model: string;
  readonly role: ModelRole;
  /** Summed usage of every attempt. */
  readonly usage: ModelUsage;
  /** Issues of the last attempt. */
  readonly issues: readonly ReplyIssue[];
  readonly attempts: number;

  constructor(options: {
    rawText: string;
    rawTexts?: readonly string[];
    model: string;
    role: ModelRole;
    usage: ModelUsage;
    issues: readonly ReplyIssue[];
    attempts: number;
    schemaName?: string;
  }) {
    const shown = options.issues
      .slice(0, 5)
      .map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(root)'}: ${issue.message.replace(/\.+$/, '')}`)
      .join('; ');
    const excerpt = options.rawText.length > 300 ? `${options.rawText.slice(0, 300)}…` : options.rawText;
    super({
      code: 'invalid-model-reply',
      message:
        `Model ${options.model} (role ${options.role}) gave no valid ${options.schemaName ?? 'structured'} reply in ` +
        `${options.attempts} attempt(s). Last problems: ${shown}. Last reply: ${JSON.stringify(excerpt)}. ` +
        "The endpoint answered; the model's replies did not fit: check the model name, try a stronger model, or raise the retry count.",
    });
    this.name = 'InvalidModelReplyError';
    this.rawText = options.rawText;
    this.rawTexts = options.rawTexts ?? [options.rawText];
    this.model = options.model;
    this.role = options.role;
    this.usage = options.usage;
    this.issues = options.issues;
    this.attempts = options.attempts;
  }

  static override isInstance(error: unknown): error is InvalidModelReplyError {
    return typeof error === 'object' && error !== null && symbol in error;
  }
}
