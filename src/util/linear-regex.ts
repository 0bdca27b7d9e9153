import { RE2JS } from 're2js';

/**
 * Regexes from task files and from models run on RE2JS, a linear-time engine: no
 * pattern can make a match backtrack for minutes (`^(a+)+$` on 34 `a`s and a `b` answers
 * at once). The syntax is JavaScript's, less what needs backtracking: lookarounds and
 * backreferences are refused when the pattern is checked. `\s` keeps JavaScript's
 * meaning (Unicode spaces, e.g. the narrow no-break space of Android's "3:00 PM") and
 * `\uXXXX` is accepted.
 */

/** The longest pattern accepted (characters of source). Longer ones are refused when checked. */
export const maxRegexLength = 1000;

/** Flags a pattern may carry: `i`, `m`, `s`, and `u` (accepted; RE2 always reads code points). */
export const linearRegexFlags = 'imsu';

/** A compiled pattern: `test` runs in time linear in the text. */
export interface LinearRegex {
  readonly source: string;
  readonly flags: string;
  test(text: string): boolean;
}

const spaceClassBody = '\\t\\n\\x{0b}\\f\\r \\x{a0}\\x{1680}\\x{2000}-\\x{200a}\\x{2028}\\x{2029}\\x{202f}\\x{205f}\\x{3000}\\x{feff}';

class RegexSyntaxProblem extends Error {}

/** Rewrites the JavaScript spellings RE2 reads differently or not at all; throws on the refused ones. */
function toRe2Syntax(pattern: string): string {
  let out = '';
  let inClass = false;
  for (let index = 0; index < pattern.length; index++) {
    const char = pattern[index] as string;
    if (char === '\\') {
      const next = pattern[index + 1];
      if (next === undefined) throw new RegexSyntaxProblem('trailing \\ at the end of the pattern');
      if (next === 's') out += inClass ? spaceClassBody : `[${spaceClassBody}]`;
      else if (next === 'S' && !inClass) out += `[^${spaceClassBody}]`;
      else if (next === 'S') throw new RegexSyntaxProblem('\\S inside [...] is not supported: write (?:\\S|[...]) instead');
      else if (next === 'u') {
        const braced = /^\{([0-9a-fA-F]{1,6})\}/.exec(pattern.slice(index + 2));
        const plain = /^[0-9a-fA-F]{4}/.exec(pattern.slice(index + 2));
        if (braced) {
          out += `\\x{${braced[1]}}`;
          index += braced[0].length;
        } else if (plain) {
          out += `\\x{${plain[0]}}`;
          index += 4;
        } else throw new RegexSyntaxProblem('\\u needs 4 hex digits or {hex}');
      } else if (/[1-9k]/.test(next) && !inClass) throw new RegexSyntaxProblem(`backreference \\${next} is not supported (regexes run on a linear-time engine)`);
      else out += `\\${next}`;
      index++;
      continue;
    }
    if (!inClass && char === '(' && pattern[index + 1] === '?') {
      const rest = pattern.slice(index + 2, index + 4);
      if (rest.startsWith('=') || rest.startsWith('!') || rest === '<=' || rest === '<!') {
        throw new RegexSyntaxProblem('lookaround (?= (?! (?<= (?<! is not supported (regexes run on a linear-time engine)');
      }
    }
    if (char === '[' && !inClass) {
      inClass = true;
      out += char;
      // A `]` first in a class (after an optional `^`) is literal in RE2 but ends an empty class in JavaScript.
      if (pattern[index + 1] === '^') {
        out += '^';
        index++;
      }
      if (pattern[index + 1] === ']') throw new RegexSyntaxProblem('empty character class [] or [^] is not supported');
      continue;
    }
    if (char === ']' && inClass) inClass = false;
    out += char;
  }
  return out;
}

function re2Flags(flags: string): number {
  let bits = 0;
  if (flags.includes('i')) bits |= RE2JS.CASE_INSENSITIVE;
  if (flags.includes('m')) bits |= RE2JS.MULTILINE;
  if (flags.includes('s')) bits |= RE2JS.DOTALL;
  return bits;
}

function compile(pattern: string, flags: string): LinearRegex {
  for (const flag of flags) {
    if (!linearRegexFlags.includes(flag)) throw new RegexSyntaxProblem(`flag "${flag}" is not allowed (use ${linearRegexFlags})`);
  }
  if (new Set(flags).size !== flags.length) throw new RegexSyntaxProblem(`flag repeated in "${flags}"`);
  if (pattern.length > maxRegexLength) throw new RegexSyntaxProblem(`pattern is ${pattern.length} characters long; the limit is ${maxRegexLength}`);
  let compiled: RE2JS;
  try {
    compiled = RE2JS.compile(toRe2Syntax(pattern), re2Flags(flags));
  } catch (error) {
    if (error instanceof RegexSyntaxProblem) throw error;
    throw new RegexSyntaxProblem(error instanceof Error ? error.message : String(error));
  }
  return { source: pattern, flags, test: (text) => compiled.matcher(text).find() };
}

const cache = new Map<string, LinearRegex>();

/**
 * What is wrong with a pattern and its flags (too long, a refused flag or construct, a
 * syntax error), or undefined when `linearRegex` accepts them. Validation of task files
 * and model replies calls this, so a bad pattern is bad input before any run starts.
 */
export function linearRegexProblem(pattern: string, flags = ''): string | undefined {
  try {
    linearRegex(pattern, flags);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/**
 * Compiles (or takes from a small cache) a pattern for linear-time matching.
 * Throws an `Error` whose message is the problem when `linearRegexProblem` reports one.
 */
export function linearRegex(pattern: string, flags = ''): LinearRegex {
  const key = `${flags}/${pattern}`;
  let regex = cache.get(key);
  if (!regex) {
    regex = compile(pattern, flags);
    if (cache.size > 1000) cache.clear();
    cache.set(key, regex);
  }
  return regex;
}
