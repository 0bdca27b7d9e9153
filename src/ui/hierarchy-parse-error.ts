import { SenseActError } from '../util/senseact-error.js';

const marker = 'senseact.error.hierarchy-parse';
const symbol = Symbol.for(marker);

/** Where in the source a hierarchy went wrong (1-based line and column). */
export interface SourcePosition {
  readonly offset: number;
  readonly line: number;
  readonly column: number;
}

/**
 * A UI hierarchy that cannot be read: malformed or truncated XML, text that is neither
 * XML nor JSON, a JSON state without `views`, or an attribute such as `bounds` in a form
 * no device produces. The message names the source, the line:column and an excerpt, and
 * says what to do. This is an infrastructure failure, so it is thrown (see
 * `safeParseHierarchy` for the Result form).
 */
export class HierarchyParseError extends SenseActError {
  private readonly [symbol] = true;
  /** Name of the input (file path or `observation`), as passed in `sourceName`. */
  readonly sourceName: string;
  /** Position of the problem, when it has one. */
  readonly position: SourcePosition | undefined;
  /** The source line around the problem with a caret under it ('' when no position). */
  readonly excerpt: string;

  constructor(options: { sourceName: string; problem: string; hint: string; source?: string; offset?: number; cause?: unknown }) {
    const position = options.source !== undefined && options.offset !== undefined ? positionOf(options.source, options.offset) : undefined;
    const excerpt = position && options.source !== undefined ? excerptAt(options.source, position) : '';
    const where = position ? `${options.sourceName}:${position.line}:${position.column}` : options.sourceName;
    const message = `${where}: ${options.problem}.${excerpt ? `\n${excerpt}\n` : ' '}${options.hint}`;
    super({ code: 'hierarchy-parse', message, cause: options.cause });
    this.name = 'HierarchyParseError';
    this.sourceName = options.sourceName;
    this.position = position;
    this.excerpt = excerpt;
  }

  static override isInstance(error: unknown): error is HierarchyParseError {
    return typeof error === 'object' && error !== null && symbol in error;
  }
}

/** 1-based line and column of `offset` in `source` (offsets past the end clamp to the end). */
export function positionOf(source: string, offset: number): SourcePosition {
  const clamped = Math.max(0, Math.min(offset, source.length));
  let line = 1;
  let lineStart = 0;
  for (let i = source.indexOf('\n'); i !== -1 && i < clamped; i = source.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { offset: clamped, line, column: clamped - lineStart + 1 };
}

const excerptRadius = 40;

function excerptAt(source: string, position: SourcePosition): string {
  const lineStart = position.offset - (position.column - 1);
  let lineEnd = source.indexOf('\n', lineStart);
  if (lineEnd === -1) lineEnd = source.length;
  const from = Math.max(lineStart, position.offset - excerptRadius);
  const to = Math.min(lineEnd, position.offset + excerptRadius);
  const prefix = from > lineStart ? '…' : '';
  const suffix = to < lineEnd ? '…' : '';
  const text = source.slice(from, to).replace(/[\t\r]/g, ' ');
  const caret = ' '.repeat(prefix.length + position.offset - from) + '^';
  return `  ${prefix}${text}${suffix}\n  ${caret}`;
}
