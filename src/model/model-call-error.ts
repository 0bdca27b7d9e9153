import { SenseActError } from '../util/senseact-error.js';
import type { ModelUsage } from './language-model.js';
import type { ModelRole } from './model-role.js';

const symbol = Symbol.for('senseact.error.model-call');

/** Why a model call failed for good. */
export type ModelCallFailure =
  | 'rate-limited'
  | 'server-error'
  | 'timeout'
  | 'connection'
  | 'aborted'
  | 'client-error'
  | 'empty-reply'
  /** Status 200 but no chat completion: an HTML page, JSON without `choices`. */
  | 'invalid-response'
  /** Not sent: the endpoint's breaker is open after requests in a row got no answer (`EndpointBreaker`). */
  | 'endpoint-down';

/**
 * A model endpoint failed (after our retries where retrying makes sense). An
 * infrastructure error: the task did not fail, the run did. `status` is the HTTP status
 * when there was one. Except `empty-reply`: the endpoint worked and the model answered
 * with no text, the model's failure of the run (`isModelReplyFailure`).
 */
export class ModelCallError extends SenseActError {
  private readonly [symbol] = true;
  readonly failure: ModelCallFailure;
  readonly model: string;
  readonly role: ModelRole;
  readonly status: number | undefined;
  readonly attempts: number;
  /** What the endpoint billed for a reply it sent but that could not be used (an empty reply), when it said. */
  readonly usage: ModelUsage | undefined;
  /** What went wrong, without the hint (e.g. `the reply has no text (finish_reason length)`). */
  readonly detail: string;

  constructor(options: {
    failure: ModelCallFailure;
    model: string;
    role: ModelRole;
    endpoint: string;
    attempts: number;
    status?: number;
    detail: string;
    hint: string;
    cause?: unknown;
    usage?: ModelUsage;
  }) {
    super({
      code: 'model-call',
      message:
        `Model call failed (${options.failure}${options.status === undefined ? '' : `, HTTP ${options.status}`}) for ` +
        `model ${options.model} (role ${options.role}) at ${options.endpoint} after ${options.attempts} attempt(s): ` +
        `${options.detail}. ${options.hint}`,
      cause: options.cause,
    });
    this.name = 'ModelCallError';
    this.failure = options.failure;
    this.model = options.model;
    this.role = options.role;
    this.status = options.status;
    this.attempts = options.attempts;
    this.usage = options.usage;
    this.detail = options.detail;
  }

  static override isInstance(error: unknown): error is ModelCallError {
    return typeof error === 'object' && error !== null && symbol in error;
  }
}
