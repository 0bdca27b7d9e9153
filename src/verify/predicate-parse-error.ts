import { SenseActError } from '../util/senseact-error.js';

const marker = 'senseact.error.predicate-parse';
const symbol = Symbol.for(marker);

/** Renders `text` with a caret under `offset`: the line holding it and a `^` line. */
export function caretExcerpt(text: string, offset: number): { line: number; column: number; excerpt: string } {
  const clamped = Math.max(0, Math.min(offset, text.length));
  const lineStart = text.lastIndexOf('\n', clamped - 1) + 1;
  const lineEndRaw = text.indexOf('\n', clamped);
  const lineEnd = lineEndRaw === -1 ? text.length : lineEndRaw;
  const line = text.slice(0, lineStart).split('\n').length;
  const column = clamped - lineStart + 1;
  // Long lines are windowed so the caret stays on screen.
  const windowStart = Math.max(lineStart, clamped - 60);
  const windowEnd = Math.min(lineEnd, clamped + 40);
  const prefix = windowStart > lineStart ? '…' : '';
  const suffix = windowEnd < lineEnd ? '…' : '';
  const shown = prefix + text.slice(windowStart, windowEnd) + suffix;
  const caret = ' '.repeat(prefix.length + clamped - windowStart) + '^';
  return { line, column, excerpt: `  ${shown}\n  ${caret}` };
}

/**
 * The text form of a predicate or query (docs/predicates.md) could not be parsed.
 * Carries the 1-based line and column, the 0-based offset and a caret excerpt.
 */
export class PredicateParseError extends SenseActError {
  private readonly [symbol] = true;
  readonly source: string;
  readonly offset: number;
  readonly line: number;
  readonly column: number;
  readonly excerpt: string;
  /** What was wrong, without the position (the message adds it). */
  readonly problem: string;

  constructor(options: { source: string; offset: number; problem: string }) {
    const { line, column, excerpt } = caretExcerpt(options.source, options.offset);
    super({
      code: 'predicate-parse',
      message: `Cannot parse predicate: ${options.problem} at column ${column}${line > 1 ? ` of line ${line}` : ''}.\n${excerpt}\nThe syntax is in docs/predicates.md.`,
    });
    this.name = 'PredicateParseError';
    this.source = options.source;
    this.offset = options.offset;
    this.line = line;
    this.column = column;
    this.excerpt = excerpt;
    this.problem = options.problem;
  }

  static override isInstance(error: unknown): error is PredicateParseError {
    return typeof error === 'object' && error !== null && symbol in error;
  }
}
