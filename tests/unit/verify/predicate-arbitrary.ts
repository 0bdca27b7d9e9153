import fc from 'fast-check';
import type { Predicate, Query, StringMatch } from '../../../src/verify/predicate.js';

// Generators of predicate values in the canonical form the parser produces (no
// `ignoreCase: false`, no empty regex flags, no unescaped "/" in a regex), so that
// parse(print(p)) = p is the property to check. Shared by the test and scripts/bench-verify.ts.


const word = fc.stringMatching(/^[A-Za-z_][\w.$]{0,12}$/).filter((text) => !['and', 'or', 'not'].includes(text));
const anyText = fc.string({ unit: 'binary', maxLength: 12 });
const regexPattern = fc.constantFrom('^Wi.?Fi$', 'a\\/b', '\\d{3}-\\d{4}', '[a-z]+', 'x|y', '\\(ok\\)', '', '.*', 'caf\u00e9', '\\\\');
const stringMatch: fc.Arbitrary<StringMatch> = fc.oneof(
  fc.record({ op: fc.constant('equals' as const), value: anyText, ignoreCase: fc.constant(true as const) }, { requiredKeys: ['op', 'value'] }),
  fc.record({ op: fc.constant('contains' as const), value: anyText, ignoreCase: fc.constant(true as const) }, { requiredKeys: ['op', 'value'] }),
  fc.record({ op: fc.constant('digits' as const), value: anyText }),
  fc.record({ op: fc.constant('matches' as const), pattern: regexPattern, flags: fc.constantFrom('i', 'im', 'su', 'u') }, { requiredKeys: ['op', 'pattern'] }),
);

const { query } = fc.letrec<{ query: Query }>((tie) => ({
  query: fc.record({
    is: word,
    text: stringMatch,
    desc: stringMatch,
    id: stringMatch,
    hint: stringMatch,
    label: stringMatch,
    within: fc.oneof({ depthSize: 'small', withCrossShrink: true }, fc.constant(undefined), tie('query')),
    near: fc.oneof({ depthSize: 'small', withCrossShrink: true }, fc.constant(undefined), tie('query')),
    nth: fc.integer({ min: 1, max: 99 }),
  }, { requiredKeys: [] })
    .map((value) => Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as Query)
    .filter((value) => Object.keys(value).length > 0),
}));

const { predicate: predicateArbitraryValue } = fc.letrec<{ predicate: Predicate }>((tie) => ({
  predicate: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.record({ kind: fc.constantFrom('exists' as const, 'absent' as const, 'unique' as const, 'checked' as const, 'selected' as const, 'enabled' as const, 'focused' as const, 'filled' as const), query }),
    fc.record({ kind: fc.constant('count' as const), query, op: fc.constantFrom('=' as const, '!=' as const, '<' as const, '<=' as const, '>' as const, '>=' as const), value: fc.nat(1000) }),
    fc.record({ kind: fc.constant('text' as const), query, match: stringMatch }),
    fc.record({ kind: fc.constantFrom('screenChanged' as const, 'newSurface' as const, 'dismissedSurface' as const) }),
    fc.record({ kind: fc.constantFrom('package' as const, 'activity' as const), match: stringMatch }),
    fc.record({ kind: fc.constant('not' as const), operand: tie('predicate') }),
    fc.record({ kind: fc.constantFrom('and' as const, 'or' as const), operands: fc.array(tie('predicate'), { minLength: 2, maxLength: 4 }) }),
  ),
}));

/** Arbitrary predicates (depth-limited) in canonical parser form. */
export const predicateArbitrary: fc.Arbitrary<Predicate> = predicateArbitraryValue;
