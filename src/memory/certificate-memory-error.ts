import { SenseActError } from '../util/senseact-error.js';

const marker = 'senseact.error.certificate-memory';
const symbol = Symbol.for(marker);

/** The certificate memory file could not be read or written, or a record to append was invalid. */
export class CertificateMemoryError extends SenseActError {
  private readonly [symbol] = true;

  constructor(options: { message: string; cause?: unknown }) {
    super({ code: 'certificate-memory', message: options.message, cause: options.cause });
    this.name = 'CertificateMemoryError';
  }

  static override isInstance(error: unknown): error is CertificateMemoryError {
    return typeof error === 'object' && error !== null && symbol in error;
  }
}
