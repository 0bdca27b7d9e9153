import type { Query, StringMatch } from '../verify/predicate.js';
import { printQuery } from '../verify/print-predicate.js';

/** An XPath 1.0 selector for a query, or why the query has none. */
export type XpathResult = { readonly xpath: string } | { readonly problem: string };

/** An XPath 1.0 string literal for any text (`concat` when it holds both quote kinds). */
export function xpathLiteral(value: string): string {
  if (!value.includes('"')) return `"${value}"`;
  if (!value.includes("'")) return `'${value}'`;
  return `concat(${value.split('"').map((part) => `"${part}"`).join(`, '"', `)})`;
}

const lower = (expression: string): string => `translate(${expression}, "ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")`;

/** One attribute compared as the predicate language compares it (find-nodes.ts), in XPath 1.0. */
function compare(attribute: string, match: StringMatch): string | { problem: string } {
  switch (match.op) {
    case 'equals':
      return match.ignoreCase === true ? `${lower(attribute)}=${xpathLiteral(match.value.toLowerCase())}` : `${attribute}=${xpathLiteral(match.value)}`;
    case 'contains':
      return match.ignoreCase === true ? `contains(${lower(attribute)}, ${xpathLiteral(match.value.toLowerCase())})` : `contains(${attribute}, ${xpathLiteral(match.value)})`;
    case 'digits': {
      const digits = match.value.replace(/\D/g, '');
      if (digits === '') return { problem: `digits "${match.value}" holds no digit` };
      // The attribute with every non-digit removed: translate it by its own non-digits.
      return `translate(${attribute}, translate(${attribute}, "0123456789", ""), "")=${xpathLiteral(digits)}`;
    }
    case 'matches':
      return { problem: `a regular expression (/${match.pattern}/) has no XPath 1.0 form` };
  }
}

/** The class test of `is=`: a role (predicate.ts roleNames, as find-nodes.ts reads them) or a class name. */
function classTest(name: string): string | { problem: string } {
  const endsWith = (suffix: string): string => `substring(@class, string-length(@class) - ${suffix.length - 1})=${xpathLiteral(suffix)}`;
  const has = (part: string): string => `contains(@class, ${xpathLiteral(part)})`;
  switch (name.toLowerCase()) {
    case 'button': return `(${endsWith('Button')} and not(${has('RadioButton')}) and not(${has('ToggleButton')}) and not(${has('CompoundButton')}))`;
    case 'switch': return `(${has('Switch')} or ${has('ToggleButton')})`;
    case 'checkbox': return `(${has('CheckBox')} or ${has('CheckedTextView')})`;
    case 'radio': return has('RadioButton');
    case 'edit': return has('EditText');
    case 'text': return `(${endsWith('TextView')} and not(${has('CheckedTextView')}) and not(${has('EditText')}))`;
    case 'image': return `(${has('Image')} and not(${has('ImageButton')}))`;
    case 'list': return `(${has('ListView')} or ${has('RecyclerView')} or ${has('GridView')} or ${has('ScrollView')} or ${has('ViewPager')})`;
    case 'tab': return has('Tab');
    case 'spinner': return has('Spinner');
    case 'dialog': return { problem: 'is=dialog (a surface the perception finds) has no XPath form' };
    default:
      return name.includes('.') ? `@class=${xpathLiteral(name)}` : `(@class=${xpathLiteral(name)} or ${endsWith(`.${name}`)})`;
  }
}

/** The attribute tests of a query (not within / near / nth), joined by `and`. */
function selectorTests(query: Query): string[] | { problem: string } {
  const tests: (string | { problem: string })[] = [];
  if (query.is !== undefined) tests.push(classTest(query.is));
  if (query.text) tests.push(compare('@text', query.text));
  if (query.desc) tests.push(compare('@content-desc', query.desc));
  if (query.hint) tests.push(compare('@hint', query.hint));
  if (query.id) {
    const whole = compare('@resource-id', query.id);
    // `id="fab"` also names `com.x:id/fab`, as the predicate language reads it.
    const short = query.id.op === 'equals' ? compare('substring-after(@resource-id, ":id/")', query.id) : undefined;
    tests.push(typeof whole === 'string' && typeof short === 'string' ? `(${whole} or ${short})` : whole);
  }
  if (query.label) {
    const parts = ['@text', '@content-desc', '@hint'].map((attribute) => compare(attribute, query.label as StringMatch));
    const failed = parts.find((part) => typeof part !== 'string');
    tests.push(failed ?? `(${parts.join(' or ')})`);
  }
  const problem = tests.find((test): test is { problem: string } => typeof test !== 'string');
  return problem ?? (tests as string[]);
}

/**
 * An XPath 1.0 selector for the nodes a query finds, for Appium page sources (UiAutomator2
 * and the simulator's driver evaluate it alike). Attribute tests map one to one; `within(q)`
 * becomes "has an ancestor matching q"; `near(q)` becomes the query's own-row reading (the
 * nearest ancestor that holds a node matching q holds this node and no other like it), which
 * is how induced targets use it (src/skills/target-query.ts) but not the pixel distance the
 * predicate language measures; `nth` counts in document order, not reading order. A regex
 * (`matches`) and `is=dialog` have no XPath form: the result says so.
 */
export function queryToXpath(query: Query): XpathResult {
  const tests = selectorTests(query);
  if (!Array.isArray(tests)) return { problem: `${printQuery(query)}: ${tests.problem}` };
  const conditions = [...tests];
  if (query.within) {
    const within = selectorTests(query.within);
    if (!Array.isArray(within) || query.within.within || query.within.near || query.within.nth !== undefined) return { problem: `${printQuery(query)}: only a plain within(...) has an XPath form` };
    conditions.push(`ancestor::*[${within.join(' and ')}]`);
  }
  if (query.near) {
    const near = selectorTests(query.near);
    if (!Array.isArray(near) || query.near.within || query.near.near || query.near.nth !== undefined) return { problem: `${printQuery(query)}: only a plain near(...) has an XPath form` };
    const self = tests.length > 0 ? tests.join(' and ') : 'true()';
    conditions.push(`ancestor::*[.//*[${near.join(' and ')}]][1][count(.//*[${self}])=1]`);
  }
  const path = conditions.length > 0 ? `//*[${conditions.join(' and ')}]` : '//*';
  return { xpath: query.nth === undefined ? path : `(${path})[${query.nth}]` };
}
