import { SenseActError } from '../util/senseact-error.js';

const symbol = Symbol.for('senseact.error.store-blob');

/** A blob of a compact trace's store cannot be read back: a missing or cut pack, or content that does not match its address. */
export class StoreBlobError extends SenseActError {
  private readonly [symbol] = true;

  constructor(message: string) {
    super({ code: 'store-blob', message });
    this.name = 'StoreBlobError';
  }

  static override isInstance(error: unknown): error is StoreBlobError {
    return typeof error === 'object' && error !== null && symbol in error;
  }
}
