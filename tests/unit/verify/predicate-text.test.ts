import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parsePredicate, parseQuery, safeParsePredicate } from '../../../src/verify/parse-predicate.js';
import { PredicateParseError } from '../../../src/verify/predicate-parse-error.js';
import { predicateSchema, querySchema } from '../../../src/verify/predicate.js';
import { predicateArbitrary } from './predicate-arbitrary.js';
import { printPredicate, printQuery } from '../../../src/verify/print-predicate.js';

function parseError(text: string): PredicateParseError {
  const result = safeParsePredicate(text);
  if (result.success) throw new Error(`expected a parse error for ${text}`);
  return result.error;
}

describe('parsePredicate', () => {
  it('parses the documented example', () => {
    expect(parsePredicate('checked(is=switch, near(text="Wi-Fi")) and package = "com.android.settings"')).toEqual({
      kind: 'and',
      operands: [
        { kind: 'checked', query: { is: 'switch', near: { text: { op: 'equals', value: 'Wi-Fi' } } } },
        { kind: 'package', match: { op: 'equals', value: 'com.android.settings' } },
      ],
    });
  });

  it('parses every selector operator and the case-insensitive suffix', () => {
    expect(parseQuery('text~"wi"i, desc=~/^Wi.?Fi$/i, id~"alarm_label", hint="Name", label#="555 1234", nth=2')).toEqual({
      text: { op: 'contains', value: 'wi', ignoreCase: true },
      desc: { op: 'matches', pattern: '^Wi.?Fi$', flags: 'i' },
      id: { op: 'contains', value: 'alarm_label' },
      hint: { op: 'equals', value: 'Name' },
      label: { op: 'digits', value: '555 1234' },
      nth: 2,
    });
  });

  it('parses count, text and the delta atoms', () => {
    expect(parsePredicate('count(is=checkbox) >= 2')).toEqual({ kind: 'count', query: { is: 'checkbox' }, op: '>=', value: 2 });
    expect(parsePredicate('text(id~"title") ~ "Alarm"')).toEqual({ kind: 'text', query: { id: { op: 'contains', value: 'title' } }, match: { op: 'contains', value: 'Alarm' } });
    expect(parsePredicate('screenChanged or newSurface or dismissedSurface')).toEqual({
      kind: 'or', operands: [{ kind: 'screenChanged' }, { kind: 'newSurface' }, { kind: 'dismissedSurface' }],
    });
  });

  it('gives not > and > or precedence and keeps explicit grouping', () => {
    expect(parsePredicate('not newSurface and screenChanged or dismissedSurface')).toEqual({
      kind: 'or',
      operands: [
        { kind: 'and', operands: [{ kind: 'not', operand: { kind: 'newSurface' } }, { kind: 'screenChanged' }] },
        { kind: 'dismissedSurface' },
      ],
    });
    const grouped = parsePredicate('(screenChanged and newSurface) and dismissedSurface');
    expect(grouped).toEqual({ kind: 'and', operands: [{ kind: 'and', operands: [{ kind: 'screenChanged' }, { kind: 'newSurface' }] }, { kind: 'dismissedSurface' }] });
    expect(printPredicate(grouped)).toBe('(screenChanged and newSurface) and dismissedSurface');
  });

  it.each([
    ['exists(text="Wi-Fi"', 20, 'expected ")"'],
    ['exists(txt="a")', 8, 'unknown selector "txt"'],
    ['exits(text="a")', 1, 'unknown predicate "exits"'],
    ['count(is=switch) 2', 18, 'expected a comparison'],
    ['count(is=switch) => 2', 19, 'expected a whole number'],
    ['text(is=edit) = "abc', 17, 'unterminated string'],
    ['exists(text=~/a(/)', 14, 'invalid regex'],
    ['exists(text=~/a/g)', 14, 'flag "g" is not allowed'],
    ['exists(is=switch, is=button)', 19, 'given twice'],
    ['screenChanged newSurface', 15, 'expected "and", "or" or the end'],
    ['exists(nth=0)', 12, 'nth counts from 1'],
    ['exists(label#="1"i)', 18, 'no meaning for #='],
    ['', 1, 'expected a predicate'],
  ])('reports %j at column %i', (text, column, problem) => {
    const error = parseError(text);
    expect(error.column).toBe(column);
    expect(error.problem).toContain(problem);
    expect(error.message).toContain(`column ${column}`);
    const caretLine = error.excerpt.split('\n')[1] ?? '';
    expect(caretLine.indexOf('^') - 2).toBe(column - 1);
  });

  it('is also exposed as a throwing parser with a marker-checked error', () => {
    expect(() => parsePredicate('exists(')).toThrow(PredicateParseError);
    try {
      parsePredicate('exists(');
    } catch (error) {
      expect(PredicateParseError.isInstance(error)).toBe(true);
    }
  });
});

describe('predicateSchema', () => {
  it('validates model JSON with the same definition the parser produces', () => {
    const value = parsePredicate('not (exists(is=dialog) or text(near(hint="Email")) =~ /@/)');
    expect(predicateSchema.parse(JSON.parse(JSON.stringify(value)))).toEqual(value);
  });

  it('rejects bad model JSON with a path', () => {
    const empty = predicateSchema.safeParse({ kind: 'exists', query: { within: {} } });
    expect(empty.success).toBe(false);
    expect(empty.error?.issues[0]?.path).toEqual(['query', 'within']);
    expect(predicateSchema.safeParse({ kind: 'and', operands: [{ kind: 'screenChanged' }] }).success).toBe(false);
    expect(predicateSchema.safeParse({ kind: 'text', query: { is: 'edit' }, match: { op: 'matches', pattern: '(' } }).success).toBe(false);
    expect(predicateSchema.safeParse({ kind: 'exists', query: { is: 'edit', colour: 'red' } }).success).toBe(false);
  });
});

describe('printPredicate', () => {
  it('round-trips: parse(print(p)) = p and parse → print → parse is the identity on 1,500 generated expressions', () => {
    let checked = 0;
    fc.assert(fc.property(predicateArbitrary, (value) => {
      expect(predicateSchema.safeParse(value).success).toBe(true);
      const text = printPredicate(value);
      const parsed = parsePredicate(text);
      expect(parsed).toEqual(value);
      expect(parsePredicate(printPredicate(parsed))).toEqual(parsed);
      checked++;
    }), { numRuns: 1500, seed: 20261122 });
    expect(checked).toBe(1500);
  });

  it('prints queries canonically and escapes a slash in a model-written regex', () => {
    expect(printQuery({ nth: 1, is: 'switch', near: { text: { op: 'equals', value: 'Wi-Fi' } } })).toBe('is=switch, near(text="Wi-Fi"), nth=1');
    const fromModel = querySchema.parse({ text: { op: 'matches', pattern: 'a/b' } });
    expect(printQuery(fromModel)).toBe('text=~/a\\/b/');
    expect(new RegExp((parseQuery(printQuery(fromModel)).text as { pattern: string }).pattern).test('a/b')).toBe(true);
  });
});
