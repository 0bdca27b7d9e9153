import { jsonDepth, maxPredicateJsonDepth, safeParsePredicate } from '../verify/parse-predicate.js';
import { predicateSchema, type Predicate } from '../verify/predicate.js';
import type { Result } from '../util/result.js';

/**
 * A predicate as a client sends it: the text form of docs/predicates.md, or its JSON form
 * (a string starting with `{`), validated by `predicateSchema`. The error says what is
 * wrong and where.
 */
export function parsePredicateInput(text: string): Result<Predicate, Error> {
  if (!text.trimStart().startsWith('{')) return safeParsePredicate(text);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { success: false, error: new Error(`the predicate looks like JSON but does not parse: ${error instanceof Error ? error.message : String(error)}`) };
  }
  if (jsonDepth(value) > maxPredicateJsonDepth) return { success: false, error: new Error(`the JSON predicate nests deeper than ${maxPredicateJsonDepth} levels; write a flatter predicate`) };
  const checked = predicateSchema.safeParse(value);
  if (checked.success) return { success: true, value: checked.data };
  const issues = checked.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`).join('; ');
  return { success: false, error: new Error(`the JSON predicate does not match predicateSchema: ${issues}. The JSON form is in docs/predicates.md.`) };
}
