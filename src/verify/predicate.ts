import { z } from 'zod';
import { linearRegexFlags, linearRegexProblem } from '../util/linear-regex.js';

/**
 * The predicate language of docs/predicates.md as ONE zod schema. A model's JSON is validated
 * by `predicateSchema`; the evaluator, the text parser and the printer all work on the
 * inferred types. The text form is specified in docs/predicates.md.
 */

/** Regex flags a `matches` comparison may carry. Stateful flags (`g`, `y`) are refused. */
export const allowedRegexFlags = linearRegexFlags;

/**
 * Checks a regex pattern and flags; returns the problem, or undefined when both are
 * valid. Patterns run on a linear-time engine (util/linear-regex.ts): lookarounds,
 * backreferences and patterns over `maxRegexLength` characters are refused here.
 */
export function checkRegex(pattern: string, flags: string): string | undefined {
  return linearRegexProblem(pattern, flags);
}

/**
 * How a string attribute is compared: `equals` (`=`), `contains` (`~`), `digits`
 * (`#=`, digits-only equality for phone numbers), each optionally case-insensitive; or
 * `matches` (`=~ /re/flags`).
 */
export const stringMatchSchema = z.discriminatedUnion('op', [
  z.object({ op: z.literal('equals'), value: z.string(), ignoreCase: z.boolean().optional() }).strict(),
  z.object({ op: z.literal('contains'), value: z.string(), ignoreCase: z.boolean().optional() }).strict(),
  z.object({ op: z.literal('digits'), value: z.string() }).strict(),
  z.object({ op: z.literal('matches'), pattern: z.string(), flags: z.string().optional() }).strict()
    .superRefine((value, context) => {
      const problem = checkRegex(value.pattern, value.flags ?? '');
      if (problem !== undefined) context.addIssue({ code: 'custom', message: `invalid regex /${value.pattern}/: ${problem}` });
    }),
]);
export type StringMatch = z.infer<typeof stringMatchSchema>;

/** Roles `is=` accepts besides a class name (simple or fully qualified). */
export const roleNames = ['button', 'switch', 'checkbox', 'radio', 'edit', 'text', 'image', 'list', 'tab', 'spinner', 'dialog'] as const;

/** Node attributes a query can compare. `label` is any of text, content-desc, hint. */
export const queryFields = ['text', 'desc', 'id', 'hint', 'label'] as const;
export type QueryField = (typeof queryFields)[number];

const queryObjectSchema = z.object({
  is: z.string().regex(/^[A-Za-z_][\w.$]*$/, 'a role or class name (letters, digits, _ . $)').optional(),
  text: stringMatchSchema.optional(),
  desc: stringMatchSchema.optional(),
  id: stringMatchSchema.optional(),
  hint: stringMatchSchema.optional(),
  label: stringMatchSchema.optional(),
  get within() { return queryObjectSchema.optional(); },
  get near() { return queryObjectSchema.optional(); },
  nth: z.number().int().positive().optional(),
}).strict();

type QueryObject = z.infer<typeof queryObjectSchema>;

/** Paths (within/near chains) of empty queries: a query needs at least one selector. */
function emptyQueryPaths(query: QueryObject, path: (string | number)[]): (string | number)[][] {
  const found: (string | number)[][] = [];
  if (!Object.values(query).some((value) => value !== undefined)) found.push(path);
  if (query.within) found.push(...emptyQueryPaths(query.within, [...path, 'within']));
  if (query.near) found.push(...emptyQueryPaths(query.near, [...path, 'near']));
  return found;
}

/**
 * Which nodes? All given selectors must hold. `within` scopes to the subtree of the
 * first node matching the inner query, `near` keeps the candidate nearest to it,
 * `nth` (1-based) keeps one match in ranked (top-to-bottom, left-to-right) order.
 */
export const querySchema = queryObjectSchema.superRefine((query, context) => {
  for (const path of emptyQueryPaths(query, [])) {
    context.addIssue({ code: 'custom', path, message: 'a query needs at least one selector (is, text, desc, id, hint, label, within, near, nth)' });
  }
});
export type Query = z.infer<typeof querySchema>;

/** Comparison operators of `count(q) op n`. */
export const countOps = ['=', '!=', '<', '<=', '>', '>='] as const;
export const countOpSchema = z.enum(countOps);
export type CountOp = z.infer<typeof countOpSchema>;

/** Atoms that take only a query and test one node flag or the filled state. */
export const stateAtomKinds = ['checked', 'selected', 'enabled', 'focused', 'filled'] as const;
/** Atoms that need a before screen (or a delta). */
export const deltaAtomKinds = ['screenChanged', 'newSurface', 'dismissedSurface'] as const;

const notSchema = z.object({ kind: z.literal('not'), get operand() { return predicateSchema; } }).strict();
const junctionSchema = z.object({ kind: z.enum(['and', 'or']), get operands() { return z.array(predicateSchema).min(2); } }).strict();

/**
 * An expectation / success check: atoms combined with `not`, `and`, `or`. `and`/`or`
 * take at least two operands.
 */
export const predicateSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.enum(['exists', 'absent', 'unique']), query: querySchema }).strict(),
  z.object({ kind: z.literal('count'), query: querySchema, op: countOpSchema, value: z.number().int().nonnegative() }).strict(),
  z.object({ kind: z.literal('text'), query: querySchema, match: stringMatchSchema }).strict(),
  z.object({ kind: z.enum(stateAtomKinds), query: querySchema }).strict(),
  z.object({ kind: z.enum(deltaAtomKinds) }).strict(),
  z.object({ kind: z.enum(['package', 'activity']), match: stringMatchSchema }).strict(),
  notSchema,
  junctionSchema,
]);
export type Predicate = z.infer<typeof predicateSchema>;
