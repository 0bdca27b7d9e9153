import { CassetteMissError } from './cassette-miss-error.js';
import { CassetteReadError } from './cassette-read-error.js';
import { InvalidModelReplyError } from './invalid-model-reply-error.js';
import { ModelCallError } from './model-call-error.js';
import { ModelConfigError } from './model-config-error.js';
import { ModelReplyShapeError } from './model-reply-shape-error.js';
import { ScriptedModelExhaustedError } from './scripted-model-exhausted-error.js';

/**
 * True for every error of the model layer that means "the run is broken", never "the
 * agent failed the task": endpoint failures, replies that never validated, cassette
 * misses and unreadable cassettes, missing configuration, an exhausted test script.
 */
export function isModelInfrastructureError(error: unknown): boolean {
  return (
    ModelCallError.isInstance(error) ||
    InvalidModelReplyError.isInstance(error) ||
    CassetteMissError.isInstance(error) ||
    CassetteReadError.isInstance(error) ||
    ModelConfigError.isInstance(error) ||
    ModelReplyShapeError.isInstance(error) ||
    ScriptedModelExhaustedError.isInstance(error)
  );
}
