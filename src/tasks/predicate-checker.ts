import { parsePredicate, parseQuery } from '../verify/parse-predicate.js';
import { PredicateParseError } from '../verify/predicate-parse-error.js';

/**
 * Checks the text of predicates (success checks, expectations) and target queries in
 * task files. Returns the problem, or undefined when the text is valid.
 */
export interface PredicateChecker {
  predicate(text: string): string | undefined;
  query(text: string): string | undefined;
}

function problemOf(parse: () => unknown): string | undefined {
  try {
    parse();
    return undefined;
  } catch (error) {
    if (PredicateParseError.isInstance(error)) return `invalid predicate syntax: ${error.problem} at column ${error.column}`;
    throw error;
  }
}

/** The checker the loaders use by default: the verify layer's parser (docs/predicates.md). */
export const defaultPredicateChecker: PredicateChecker = {
  predicate: (text) => problemOf(() => parsePredicate(text)),
  query: (text) => problemOf(() => parseQuery(text)),
};
