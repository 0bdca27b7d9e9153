import type { Predicate, StringMatch } from '../verify/predicate.js';
import { printPredicate } from '../verify/print-predicate.js';
import { assertNever } from '../util/assert-never.js';
import { jsText, wdioSelector, wdioXpath } from './wdio-selector.js';

/** Assertions (lines of a spec) for an expectation, and the parts that became comments. */
export interface WdioAssertions {
  readonly lines: string[];
  readonly comments: string[];
}

function textMatcher(match: StringMatch): string {
  switch (match.op) {
    case 'equals':
      return match.ignoreCase === true ? `${jsText(match.value)}, { ...settle, ignoreCase: true }` : `${jsText(match.value)}, settle`;
    case 'contains':
      return `${jsText(match.value)}, { ...settle, containing: true${match.ignoreCase === true ? ', ignoreCase: true' : ''} }`;
    case 'digits':
      return `/^\\D*${match.value.replace(/\D/g, '').split('').join('\\D*')}\\D*$/, settle`;
    case 'matches':
      return `new RegExp(${JSON.stringify(match.pattern)}, ${JSON.stringify(match.flags ?? '')}), settle`;
    default:
      return assertNever(match, 'string match');
  }
}

const countBounds: Record<string, (value: number) => string | undefined> = {
  '=': (value) => String(value),
  '>=': (value) => `{ gte: ${value} }`,
  '>': (value) => `{ gte: ${value + 1} }`,
  '<=': (value) => `{ lte: ${value} }`,
  '<': (value) => (value > 0 ? `{ lte: ${value - 1} }` : undefined),
  '!=': () => undefined,
};

/**
 * WebdriverIO assertions (expect-webdriverio matchers, each waiting up to the step's
 * settle) for an expectation: `exists` → toBeDisplayed, `absent` → not.toBeExisting,
 * `text` → toHaveText, `checked` / `selected` / `enabled` / `focused` → the node's state
 * (a row's one checkable node for `checked`), `unique` / `count` → the number of matches,
 * `and` → each, `not` of an atom → its negation. What a spec cannot check (`or`, a
 * change against the screen before, a query XPath cannot say) becomes a comment saying why.
 */
export function wdioAssertions(predicate: Predicate, negated = false): WdioAssertions {
  const out: WdioAssertions = { lines: [], comments: [] };
  const not = negated ? '.not' : '';
  const skip = (why: string): WdioAssertions => ({ lines: [], comments: [`${negated ? 'not ' : ''}${printPredicate(predicate)}: ${why}`] });
  switch (predicate.kind) {
    case 'and':
      if (negated) return skip('a negated "and" is an "or", which a spec cannot assert without branching');
      for (const operand of predicate.operands) {
        const part = wdioAssertions(operand);
        out.lines.push(...part.lines);
        out.comments.push(...part.comments);
      }
      return out;
    case 'or':
      return skip('an "or" of checks is not exported (a matcher asserts one thing)');
    case 'not':
      return wdioAssertions(predicate.operand, !negated);
    case 'screenChanged':
    case 'newSurface':
    case 'dismissedSurface':
      return skip('it compares the screen with the one before the action, which a spec does not keep');
    case 'package':
    case 'activity': {
      if (predicate.match.op !== 'equals') return skip('only an exact package or activity is exported');
      const read = predicate.kind === 'package' ? 'driver.getCurrentPackage()' : 'driver.getCurrentActivity()';
      return { lines: [`expect(await ${read})${not}.toBe(${jsText(predicate.match.value)});`], comments: [] };
    }
    case 'exists':
    case 'absent':
    case 'unique':
    case 'count':
    case 'text': {
      const selector = wdioSelector(predicate.query);
      if ('problem' in selector) return skip(selector.problem);
      const present = (predicate.kind === 'exists') !== negated;
      if (predicate.kind === 'exists' || predicate.kind === 'absent') return { lines: [present ? `await expect($(${selector.code})).toBeDisplayed(settle);` : `await expect($(${selector.code})).not.toBeExisting(settle);`], comments: [] };
      if (predicate.kind === 'text') return { lines: [`await expect($(${selector.code}))${not}.toHaveText(${textMatcher(predicate.match)});`], comments: [] };
      const bound = predicate.kind === 'count' ? countBounds[predicate.op]?.(predicate.value) : '1';
      if (bound === undefined || negated) return skip('this count comparison has no matcher');
      return { lines: [`await expect($$(${selector.code})).toBeElementsArrayOfSize(${bound}, settle);`], comments: [] };
    }
    case 'checked':
    case 'selected':
    case 'enabled':
    case 'focused':
    case 'filled':
      return stateAssertion(predicate.kind, predicate.query, negated, skip);
    default:
      return assertNever(predicate, 'predicate');
  }
}

function stateAssertion(kind: 'checked' | 'selected' | 'enabled' | 'focused' | 'filled', query: Parameters<typeof wdioXpath>[0], negated: boolean, skip: (why: string) => WdioAssertions): WdioAssertions {
  const xpath = wdioXpath(query);
  if ('problem' in xpath) return skip(xpath.problem);
  const not = negated ? '.not' : '';
  switch (kind) {
    // As the predicate language reads it: the node when checkable, else its one checkable node inside.
    case 'checked': return { lines: [`await expect($(checkableIn(${xpath.code}))).toHaveAttribute('checked', '${negated ? 'false' : 'true'}', settle);`], comments: [] };
    case 'selected': return { lines: [`await expect($(${xpath.code})).toHaveAttribute('selected', '${negated ? 'false' : 'true'}', settle);`], comments: [] };
    case 'enabled': return { lines: [`await expect($(${xpath.code}))${not}.toBeEnabled(settle);`], comments: [] };
    case 'focused': return { lines: [`await expect($(${xpath.code})).toHaveAttribute('focused', '${negated ? 'false' : 'true'}', settle);`], comments: [] };
    case 'filled': return { lines: [`await expect($(${xpath.code}))${negated ? '' : '.not'}.toHaveText('', settle);`], comments: [] };
    default: return assertNever(kind, 'state atom');
  }
}
