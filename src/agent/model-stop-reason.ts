import { isModelReplyFailure, modelReplyFailureReason } from '../model/is-model-reply-failure.js';
import { ModelBudgetError } from '../model/model-budget-error.js';

/**
 * The stop reason of a run its model ended — a spent budget (`budget: …`), or no usable
 * reply (`model reply: …`: nothing that validated after the retries, an empty reply) —
 * or undefined for any other error. Such a run is the model's failure, never an
 * infrastructure error; the task's check still judges the screen it left.
 */
export function modelStopReason(error: unknown): string | undefined {
  if (ModelBudgetError.isInstance(error)) return `budget: ${error.reached}`;
  if (isModelReplyFailure(error)) return modelReplyFailureReason(error);
  return undefined;
}
