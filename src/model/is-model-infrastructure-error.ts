import { CassetteMissError } from './cassette-miss-error.js';
import { CassetteReadError } from './cassette-read-error.js';
import { isModelReplyFailure } from './is-model-reply-failure.js';
import { ModelCallError } from './model-call-error.js';
import { ModelConfigError } from './model-config-error.js';
import { ModelReplyShapeError } from './model-reply-shape-error.js';
import { ScriptedModelExhaustedError } from './scripted-model-exhausted-error.js';

/**
 * True for every error of the model layer that means "the run is broken", never "the
 * agent failed the task": endpoint failures, cassette misses and unreadable cassettes,
 * missing configuration, an exhausted test script. The model's own bad answers (no valid
 * reply after the retries, an empty reply) are not: they fail the run
 * (`isModelReplyFailure`).
 */
export function isModelInfrastructureError(error: unknown): boolean {
  if (isModelReplyFailure(error)) return false;
  return (
    ModelCallError.isInstance(error) ||
    CassetteMissError.isInstance(error) ||
    CassetteReadError.isInstance(error) ||
    ModelConfigError.isInstance(error) ||
    ModelReplyShapeError.isInstance(error) ||
    ScriptedModelExhaustedError.isInstance(error)
  );
}
