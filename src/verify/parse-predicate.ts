import type { Result } from '../util/result.js';
import { checkRegex, countOps, deltaAtomKinds, stateAtomKinds, type CountOp, type Predicate, type Query, type QueryField, type StringMatch } from './predicate.js';
import { PredicateParseError } from './predicate-parse-error.js';

type MatchOp = '=' | '~' | '=~' | '#=';

const queryAtoms = new Set<string>(['exists', 'absent', 'unique', ...stateAtomKinds]);
const deltaAtoms = new Set<string>(deltaAtomKinds);
const fieldNames = new Set<string>(['text', 'desc', 'id', 'hint', 'label']);

/**
 * How deep `not`, parentheses, `within(` and `near(` may nest. Real predicates nest a few
 * levels; the limit keeps a hostile one (20,000 `not`s) a parse error instead of a stack
 * overflow in the parser or the evaluator.
 */
export const maxPredicateDepth = 64;

/** How deep the JSON form may nest (objects and arrays): room for {@link maxPredicateDepth} levels of predicates and queries. */
export const maxPredicateJsonDepth = 4 * maxPredicateDepth;

/**
 * Recursive-descent parser over the text form, its depth bounded by {@link maxPredicateDepth}. It scans on demand (no token list) because
 * a `/regex/` is only a token after `=~`.
 */
class Parser {
  private position = 0;
  private depth = 0;

  constructor(private readonly source: string) {}

  fail(problem: string, offset = this.position): never {
    throw new PredicateParseError({ source: this.source, offset, problem });
  }

  skipSpace(): void {
    while (this.position < this.source.length && /\s/.test(this.source[this.position] ?? '')) this.position++;
  }

  atEnd(): boolean {
    this.skipSpace();
    return this.position >= this.source.length;
  }

  describeNext(): string {
    this.skipSpace();
    if (this.position >= this.source.length) return 'end of input';
    const word = /^[A-Za-z_][\w.$]*/.exec(this.source.slice(this.position));
    return word ? `"${word[0]}"` : `"${this.source[this.position]}"`;
  }

  peekChar(text: string): boolean {
    this.skipSpace();
    return this.source.startsWith(text, this.position);
  }

  eatChar(text: string): boolean {
    if (!this.peekChar(text)) return false;
    this.position += text.length;
    return true;
  }

  expectChar(text: string, context: string): void {
    if (!this.eatChar(text)) this.fail(`expected "${text}" ${context}, found ${this.describeNext()}`);
  }

  peekWord(): { word: string; start: number } | undefined {
    this.skipSpace();
    const match = /^[A-Za-z_][\w.$]*/.exec(this.source.slice(this.position));
    return match ? { word: match[0], start: this.position } : undefined;
  }

  readWord(): { word: string; start: number } | undefined {
    const peeked = this.peekWord();
    if (peeked) this.position += peeked.word.length;
    return peeked;
  }

  eatWord(word: string): boolean {
    const peeked = this.peekWord();
    if (peeked?.word !== word) return false;
    this.position += word.length;
    return true;
  }

  parsePredicate(): Predicate {
    const predicate = this.parseOr();
    if (!this.atEnd()) this.fail(`expected "and", "or" or the end, found ${this.describeNext()}`);
    return predicate;
  }

  parseOr(): Predicate {
    const first = this.parseAnd();
    const operands: Predicate[] = [first];
    while (this.eatWord('or')) operands.push(this.parseAnd());
    return operands.length === 1 ? first : { kind: 'or', operands };
  }

  parseAnd(): Predicate {
    const first = this.parseUnary();
    const operands: Predicate[] = [first];
    while (this.eatWord('and')) operands.push(this.parseUnary());
    return operands.length === 1 ? first : { kind: 'and', operands };
  }

  /** Runs `parse` one nesting level down; past {@link maxPredicateDepth} it is a parse error. */
  nested<T>(parse: () => T): T {
    if (this.depth >= maxPredicateDepth) this.fail(`nested deeper than ${maxPredicateDepth} levels (not, parentheses, within, near); write a flatter predicate`);
    this.depth++;
    try {
      return parse();
    } finally {
      this.depth--;
    }
  }

  parseUnary(): Predicate {
    if (this.eatWord('not')) return { kind: 'not', operand: this.nested(() => this.parseUnary()) };
    if (this.eatChar('(')) {
      const inner = this.nested(() => this.parseOr());
      this.expectChar(')', 'to close the parenthesis');
      return inner;
    }
    return this.parseAtom();
  }

  parseAtom(): Predicate {
    const word = this.readWord();
    if (!word) this.fail(`expected a predicate (exists, absent, unique, count, text, checked, …), found ${this.describeNext()}`);
    const name = word.word;
    if (queryAtoms.has(name)) {
      const query = this.parseQueryArgument(name);
      return { kind: name as 'exists', query };
    }
    if (name === 'count') {
      const query = this.parseQueryArgument(name);
      const op = this.parseCountOp();
      const value = this.parseInteger('after the count operator');
      return { kind: 'count', query, op, value };
    }
    if (name === 'text') {
      const query = this.parseQueryArgument(name);
      return { kind: 'text', query, match: this.parseMatch('text(…)') };
    }
    if (deltaAtoms.has(name)) return { kind: name as 'screenChanged' };
    if (name === 'package' || name === 'activity') return { kind: name, match: this.parseMatch(name) };
    return this.fail(`unknown predicate "${name}" (expected exists, absent, unique, count, text, checked, selected, enabled, focused, filled, screenChanged, newSurface, dismissedSurface, package, activity, not)`, word.start);
  }

  parseQueryArgument(atom: string): Query {
    this.expectChar('(', `after "${atom}"`);
    const query = this.parseQuery();
    this.expectChar(')', `to close "${atom}("`);
    return query;
  }

  parseCountOp(): CountOp {
    this.skipSpace();
    // Longest operators first so "<=" is not read as "<".
    for (const op of [...countOps].sort((a, b) => b.length - a.length)) {
      if (this.source.startsWith(op, this.position)) {
        this.position += op.length;
        return op;
      }
    }
    return this.fail(`expected a comparison (${countOps.join(' ')}), found ${this.describeNext()}`);
  }

  parseInteger(context: string): number {
    this.skipSpace();
    const match = /^\d+/.exec(this.source.slice(this.position));
    if (!match) this.fail(`expected a whole number ${context}, found ${this.describeNext()}`);
    const value = Number(match[0]);
    if (!Number.isSafeInteger(value)) this.fail(`number ${match[0]} is too large`);
    this.position += match[0].length;
    return value;
  }

  parseMatchOp(context: string): MatchOp {
    this.skipSpace();
    for (const op of ['=~', '#=', '=', '~'] as const) {
      if (this.source.startsWith(op, this.position)) {
        this.position += op.length;
        return op;
      }
    }
    return this.fail(`expected = ~ =~ or #= after ${context}, found ${this.describeNext()}`);
  }

  parseMatch(context: string): StringMatch {
    const op = this.parseMatchOp(context);
    if (op === '=~') {
      const { pattern, flags } = this.parseRegex();
      return flags === '' ? { op: 'matches', pattern } : { op: 'matches', pattern, flags };
    }
    const { value, ignoreCase, flagOffset } = this.parseString(context);
    if (op === '#=') {
      if (ignoreCase) this.fail('a trailing "i" has no meaning for #= (digits only)', flagOffset);
      return { op: 'digits', value };
    }
    const kind = op === '=' ? 'equals' : 'contains';
    return ignoreCase ? { op: kind, value, ignoreCase: true } : { op: kind, value };
  }

  parseString(context: string): { value: string; ignoreCase: boolean; flagOffset: number } {
    this.skipSpace();
    const start = this.position;
    if (this.source[start] !== '"') this.fail(`expected a "quoted string" after ${context}, found ${this.describeNext()}`);
    let index = start + 1;
    while (index < this.source.length && this.source[index] !== '"') {
      if (this.source[index] === '\\') index++;
      index++;
    }
    if (index >= this.source.length) this.fail('unterminated string (missing closing ")', start);
    const literal = this.source.slice(start, index + 1);
    let value: unknown;
    try {
      value = JSON.parse(literal);
    } catch {
      // JSON.parse does not say where; find the bad escape for the caret.
      const bad = /\\(?!["\\/bfnrt]|u[0-9a-fA-F]{4})/.exec(literal);
      const controlChar = /[\u0000-\u001f]/.exec(literal);
      const offset = start + (bad?.index ?? controlChar?.index ?? 0);
      this.fail(bad ? 'invalid escape in string (use \\" \\\\ \\n \\t \\uXXXX)' : 'control character in string (escape it, e.g. \\n)', offset);
    }
    this.position = index + 1;
    const flagOffset = this.position;
    const ignoreCase = this.source[this.position] === 'i' && !/[\w]/.test(this.source[this.position + 1] ?? '');
    if (ignoreCase) this.position++;
    return { value: value as string, ignoreCase, flagOffset };
  }

  parseRegex(): { pattern: string; flags: string } {
    this.skipSpace();
    const start = this.position;
    if (this.source[start] !== '/') this.fail(`expected a /regex/ after =~, found ${this.describeNext()}`);
    let index = start + 1;
    while (index < this.source.length && this.source[index] !== '/') {
      if (this.source[index] === '\\') index++;
      index++;
    }
    if (index >= this.source.length) this.fail('unterminated regex (missing closing /)', start);
    const pattern = this.source.slice(start + 1, index);
    index++;
    const flagsMatch = /^[A-Za-z]*/.exec(this.source.slice(index));
    const flags = flagsMatch?.[0] ?? '';
    const problem = checkRegex(pattern, flags);
    if (problem !== undefined) this.fail(`invalid regex: ${problem}`, start);
    this.position = index + flags.length;
    return { pattern, flags };
  }

  parseQuery(): Query {
    const query: Query = {};
    const seen = new Set<string>();
    do {
      const word = this.readWord();
      if (!word) this.fail(`expected a selector (is, text, desc, id, hint, label, within, near, nth), found ${this.describeNext()}`);
      const name = word.word;
      if (seen.has(name)) this.fail(`selector "${name}" given twice in one query`, word.start);
      seen.add(name);
      if (name === 'is') {
        this.expectChar('=', 'after "is"');
        const role = this.readWord();
        if (!role) this.fail(`expected a role or class name after "is=", found ${this.describeNext()}`);
        query.is = role.word;
      } else if (fieldNames.has(name)) {
        query[name as QueryField] = this.parseMatch(`"${name}"`);
      } else if (name === 'within' || name === 'near') {
        this.expectChar('(', `after "${name}"`);
        query[name] = this.nested(() => this.parseQuery());
        this.expectChar(')', `to close "${name}("`);
      } else if (name === 'nth') {
        this.expectChar('=', 'after "nth"');
        const offset = this.position;
        const value = this.parseInteger('after "nth="');
        if (value < 1) this.fail('nth counts from 1', offset);
        query.nth = value;
      } else {
        this.fail(`unknown selector "${name}" (expected is, text, desc, id, hint, label, within, near, nth)`, word.start);
      }
    } while (this.eatChar(','));
    return query;
  }
}

/**
 * Parses the text form of a predicate (docs/predicates.md) into the value
 * `predicateSchema` describes. Throws `PredicateParseError` with the column and a caret
 * excerpt; `safeParsePredicate` returns the error instead.
 */
export function parsePredicate(text: string): Predicate {
  return new Parser(text).parsePredicate();
}

/** `parsePredicate` that returns a `Result` instead of throwing on bad syntax. */
export function safeParsePredicate(text: string): Result<Predicate, PredicateParseError> {
  try {
    return { success: true, value: parsePredicate(text) };
  } catch (error) {
    if (PredicateParseError.isInstance(error)) return { success: false, error };
    throw error;
  }
}

/** Parses the text form of a query alone (e.g. `is=switch, near(text="Wi-Fi")`) for targeting. */
export function parseQuery(text: string): Query {
  const parser = new Parser(text);
  const query = parser.parseQuery();
  if (!parser.atEnd()) parser.fail(`expected "," or the end of the query, found ${parser.describeNext()}`);
  return query;
}

/**
 * How deeply `value` (parsed JSON) nests objects and arrays, counted without recursion and
 * stopping at `limit + 1`: a check to run before a recursive schema walks it.
 */
export function jsonDepth(value: unknown, limit = maxPredicateJsonDepth): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (typeof item !== 'object' || item === null) continue;
    deepest = Math.max(deepest, depth);
    if (deepest > limit) return deepest;
    for (const child of Array.isArray(item) ? item : Object.values(item)) stack.push([child, depth + 1]);
  }
  return deepest;
}
