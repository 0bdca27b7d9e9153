import { SenseActError } from './senseact-error.js';

const marker = 'senseact.error.path-kind';
const symbol = Symbol.for(marker);

/** The file-system codes that mean "a path of the wrong kind": a folder for a file, or the reverse. */
const pathKindCodes: Readonly<Record<string, 'file' | 'folder'>> = { EISDIR: 'file', ENOTDIR: 'folder', EEXIST: 'folder' };

/**
 * A path given as input is of the wrong kind: a folder where a file is read or written
 * (EISDIR), a file where a folder is wanted (ENOTDIR, or EEXIST when making the folder).
 * Bad input, not a crash: the CLI prints it and exits 2.
 */
export class PathKindError extends SenseActError {
  private readonly [symbol] = true;
  readonly path: string;
  /** What the path should have been. */
  readonly expected: 'file' | 'folder';

  constructor(options: { path: string; expected: 'file' | 'folder'; what: string; cause?: unknown }) {
    const found = options.expected === 'file' ? 'a folder' : 'a file (or under one)';
    super({
      code: 'path-kind',
      message: `${options.what} ${options.path} is ${found}, where a ${options.expected} is wanted: give the path of a ${options.expected}${options.expected === 'folder' ? ' (or one that does not exist yet)' : ''}.`,
      ...(options.cause === undefined ? {} : { cause: options.cause }),
    });
    this.name = 'PathKindError';
    this.path = options.path;
    this.expected = options.expected;
  }

  static override isInstance(error: unknown): error is PathKindError {
    return typeof error === 'object' && error !== null && symbol in error;
  }
}

function errnoCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string' ? error.code : undefined;
}

/**
 * A `PathKindError` for a file-system error of the wrong-kind family (EISDIR, ENOTDIR,
 * EEXIST), naming `path` (or the error's own path) as `what`; any other error is returned
 * as it is. Use as `catch (error) { throw asPathKindError(error, file, 'device profile') }`.
 */
export function asPathKindError(error: unknown, path: string | undefined, what: string): unknown {
  const code = errnoCode(error);
  const expected = code === undefined ? undefined : pathKindCodes[code];
  if (expected === undefined || PathKindError.isInstance(error)) return error;
  const ownPath = typeof error === 'object' && error !== null && 'path' in error && typeof error.path === 'string' ? error.path : undefined;
  const named = path ?? ownPath;
  if (named === undefined) return error;
  return new PathKindError({ path: named, expected, what, cause: error });
}
