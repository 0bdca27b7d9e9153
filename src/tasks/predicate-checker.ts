/**
 * Checks the text of predicates (success checks, expectations) and target queries in
 * task files. Returns the problem, or undefined when the text is valid.
 */
export interface PredicateChecker {
  predicate(text: string): string | undefined;
  query(text: string): string | undefined;
}

/**
 * Lexical check used until the verify layer's parser is wired in: quotes and regex
 * literals closed, parentheses balanced. Catches the typical slips in hand-written YAML.
 */
export function checkPredicateLexically(text: string): string | undefined {
  let depth = 0;
  for (let index = 0; index < text.length; index++) {
    const character = text[index];
    if (character === '"') {
      const end = findClosing(text, index, '"');
      if (end === -1) return `unclosed string starting at column ${index + 1}`;
      index = end;
    } else if (character === '/' && text[index - 1] === '~') {
      const end = findClosing(text, index, '/');
      if (end === -1) return `unclosed regex starting at column ${index + 1}`;
      index = end;
    } else if (character === '(') {
      depth++;
    } else if (character === ')') {
      depth--;
      if (depth < 0) return `unmatched ")" at column ${index + 1}`;
    }
  }
  return depth === 0 ? undefined : `${depth} unclosed "(" in the text`;
}

function findClosing(text: string, start: number, quote: string): number {
  for (let index = start + 1; index < text.length; index++) {
    if (text[index] === '\\') index++;
    else if (text[index] === quote) return index;
  }
  return -1;
}

/** The checker the loaders use by default. */
export const defaultPredicateChecker: PredicateChecker = {
  predicate: checkPredicateLexically,
  query: checkPredicateLexically,
};
