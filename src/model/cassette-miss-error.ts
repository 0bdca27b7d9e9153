import { SenseActError } from '../util/senseact-error.js';
import type { ModelRole } from './model-role.js';

const symbol = Symbol.for('senseact.error.cassette-miss');

/**
 * Replay found no recorded reply for a request: the run diverged from the recording
 * (a prompt changed, a different step order) or the cassette is from another version.
 */
export class CassetteMissError extends SenseActError {
  private readonly [symbol] = true;
  readonly hash: string;
  readonly occurrence: number;

  constructor(options: { hash: string; occurrence: number; role: ModelRole; model: string; cassette: string; requestSnippet: string; recordedForHash: number }) {
    const what =
      options.recordedForHash === 0
        ? 'no recorded call has this hash'
        : `only ${options.recordedForHash} call(s) with this hash were recorded, this is call ${options.occurrence + 1}`;
    super({
      code: 'cassette-miss',
      message:
        `Cassette miss in ${options.cassette}: request hash ${options.hash} (role ${options.role}, model ${options.model}): ${what}. ` +
        `Request: ${options.requestSnippet}. The run diverged from the recording (a prompt, the screen or the step order changed): ` +
        're-record the cassette against a real model, or fix the change that made the request differ.',
    });
    this.name = 'CassetteMissError';
    this.hash = options.hash;
    this.occurrence = options.occurrence;
  }

  static override isInstance(error: unknown): error is CassetteMissError {
    return typeof error === 'object' && error !== null && symbol in error;
  }
}
