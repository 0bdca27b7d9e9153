// The predicate parser bounds its nesting: up to the limit parses (and evaluates), one
// level more is a PredicateParseError at the column where the limit was crossed.
import { describe, expect, it } from 'vitest';
import { evaluatePredicate } from '../../../src/verify/evaluate-predicate.js';
import { jsonDepth, maxPredicateDepth, parsePredicate, parseQuery, safeParsePredicate } from '../../../src/verify/parse-predicate.js';
import { parseHierarchy } from '../../../src/ui/parse-hierarchy.js';

const screen = parseHierarchy('<hierarchy rotation="0"><node index="0" text="OK" class="android.widget.Button" package="com.example" clickable="true" bounds="[0,0][100,100]"/></hierarchy>');

describe('predicate nesting limit', () => {
  it('parses and evaluates nesting up to the limit', () => {
    expect(evaluatePredicate(parsePredicate(`${'not '.repeat(maxPredicateDepth)}exists(text="OK")`), { after: screen }).outcome).toBe('pass');
    expect(parsePredicate(`${'('.repeat(maxPredicateDepth)}exists(text="OK")${')'.repeat(maxPredicateDepth)}`)).toEqual({ kind: 'exists', query: { text: { op: 'equals', value: 'OK' } } });
    expect(parseQuery(`${'within('.repeat(maxPredicateDepth)}text="OK"${')'.repeat(maxPredicateDepth)}`)).toBeDefined();
  });

  it('refuses one level more, naming the limit and the column', () => {
    for (const text of [`${'not '.repeat(maxPredicateDepth + 1)}exists(text="OK")`, `exists(${'near('.repeat(maxPredicateDepth + 1)}text="OK"${')'.repeat(maxPredicateDepth + 1)})`]) {
      const parsed = safeParsePredicate(text);
      expect(parsed.success).toBe(false);
      if (!parsed.success) {
        expect(parsed.error.problem).toBe(`nested deeper than ${maxPredicateDepth} levels (not, parentheses, within, near); write a flatter predicate`);
        expect(parsed.error.column).toBeGreaterThan(maxPredicateDepth);
      }
    }
  });

  it('measures JSON depth without recursion', () => {
    let deep: unknown = 1;
    for (let level = 0; level < 100_000; level++) deep = [deep];
    expect(jsonDepth(deep, 300)).toBe(301);
    expect(jsonDepth({ a: [{ b: 1 }] })).toBe(3);
    expect(jsonDepth('text')).toBe(0);
  });
});
