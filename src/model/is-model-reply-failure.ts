import { InvalidModelReplyError } from './invalid-model-reply-error.js';
import { ModelCallError } from './model-call-error.js';

/**
 * True when the model itself failed a call while its endpoint worked: it never gave a
 * reply that validates after the tolerant reader and the retries
 * ({@link InvalidModelReplyError}), or it answered with no text at all (a
 * {@link ModelCallError} `empty-reply`: a refusal, a reasoning model out of tokens). That
 * ends the run as the model's failure, like a wrong answer: it is no infrastructure
 * error, and a resumed bench does not run it again (a weak model's failures are not
 * re-rolled).
 */
export function isModelReplyFailure(error: unknown): error is InvalidModelReplyError | ModelCallError {
  return InvalidModelReplyError.isInstance(error) || (ModelCallError.isInstance(error) && error.failure === 'empty-reply');
}

/** The run's stop reason for a model reply failure (`model reply: …`), one line. */
export function modelReplyFailureReason(error: InvalidModelReplyError | ModelCallError): string {
  if (InvalidModelReplyError.isInstance(error)) {
    const issue = error.issues[0];
    const problem = issue === undefined ? '' : `: ${issue.path.length > 0 ? `${issue.path.join('.')}: ` : ''}${issue.message.replace(/\.+$/, '')}`;
    return `model reply: ${error.model} (role ${error.role}) gave no valid reply in ${error.attempts} attempt(s)${problem}`;
  }
  return `model reply: ${error.model} (role ${error.role}) answered with no text (${error.detail})`;
}
