import { assertNever } from '../util/assert-never.js';
import type { Predicate, Query, StringMatch } from './predicate.js';

/** Writes a regex body with every unescaped `/` escaped, so it survives `/…/`. */
function regexBody(pattern: string): string {
  let out = '';
  for (let index = 0; index < pattern.length; index++) {
    const char = pattern[index] ?? '';
    if (char === '\\') {
      out += char + (pattern[index + 1] ?? '');
      index++;
    } else if (char === '/') {
      out += '\\/';
    } else {
      out += char;
    }
  }
  return out;
}

/** Prints a comparison as its operator and value: `= "v"`, `~ "v"i`, `=~ /re/i`, `#= "v"`. */
export function printStringMatch(match: StringMatch, spaced = true): string {
  const gap = spaced ? ' ' : '';
  switch (match.op) {
    case 'equals':
      return `=${gap}${JSON.stringify(match.value)}${match.ignoreCase ? 'i' : ''}`;
    case 'contains':
      return `~${gap}${JSON.stringify(match.value)}${match.ignoreCase ? 'i' : ''}`;
    case 'digits':
      return `#=${gap}${JSON.stringify(match.value)}`;
    case 'matches':
      return `=~${gap}/${regexBody(match.pattern)}/${match.flags ?? ''}`;
    default:
      return assertNever(match, 'string match');
  }
}

/** Prints a query in canonical selector order: is, text, desc, id, hint, label, within, near, nth. */
export function printQuery(query: Query): string {
  const parts: string[] = [];
  if (query.is !== undefined) parts.push(`is=${query.is}`);
  for (const field of ['text', 'desc', 'id', 'hint', 'label'] as const) {
    const match = query[field];
    if (match !== undefined) parts.push(`${field}${printStringMatch(match, false)}`);
  }
  if (query.within !== undefined) parts.push(`within(${printQuery(query.within)})`);
  if (query.near !== undefined) parts.push(`near(${printQuery(query.near)})`);
  if (query.nth !== undefined) parts.push(`nth=${query.nth}`);
  return parts.join(', ');
}

function printOperand(predicate: Predicate, parent: 'and' | 'or' | 'not'): string {
  const text = printPredicate(predicate);
  // Parentheses keep the tree's shape: a nested and/or inside and/not, or a nested or inside or.
  const needsParentheses = (predicate.kind === 'or') || (predicate.kind === 'and' && parent !== 'or');
  return needsParentheses ? `(${text})` : text;
}

/**
 * Prints a predicate in the text form of docs/predicates.md. `parsePredicate` of the
 * result gives the same value back for every value `parsePredicate` produces (the
 * shape of nested and/or is kept with parentheses).
 */
export function printPredicate(predicate: Predicate): string {
  switch (predicate.kind) {
    case 'exists':
    case 'absent':
    case 'unique':
    case 'checked':
    case 'selected':
    case 'enabled':
    case 'focused':
    case 'filled':
      return `${predicate.kind}(${printQuery(predicate.query)})`;
    case 'count':
      return `count(${printQuery(predicate.query)}) ${predicate.op} ${predicate.value}`;
    case 'text':
      return `text(${printQuery(predicate.query)}) ${printStringMatch(predicate.match)}`;
    case 'screenChanged':
    case 'newSurface':
    case 'dismissedSurface':
      return predicate.kind;
    case 'package':
    case 'activity':
      return `${predicate.kind} ${printStringMatch(predicate.match)}`;
    case 'not':
      return `not ${printOperand(predicate.operand, 'not')}`;
    case 'and':
    case 'or':
      return predicate.operands.map((operand) => printOperand(operand, predicate.kind)).join(` ${predicate.kind} `);
    default:
      return assertNever(predicate, 'predicate');
  }
}
