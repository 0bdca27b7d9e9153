import type { Query, StringMatch } from '../verify/predicate.js';
import { printQuery } from '../verify/print-predicate.js';

const placeholderPattern = /\{([a-z][a-z0-9]*)(?:\.([a-z0-9]+))?\}/g;

/** The Maestro env name of a skill placeholder key: `time.hour` → `TIME_HOUR`. */
export function maestroEnvName(key: string): string {
  return key.replace(/\./g, '_').toUpperCase();
}

/** A literal as a Maestro text (no regex), skill placeholders as `${NAME}` env references. */
export function maestroText(text: string): string {
  return text.replace(placeholderPattern, (_whole, name: string, projection: string | undefined) => `\${${maestroEnvName(projection === undefined ? name : `${name}.${projection}`)}}`);
}

/** A literal as a whole-value Maestro regex: metacharacters escaped, placeholders as `${NAME}`. */
export function maestroRegex(text: string): string {
  const parts: string[] = [];
  let last = 0;
  for (const match of text.matchAll(placeholderPattern)) {
    parts.push(escapeRegex(text.slice(last, match.index)));
    parts.push(`\${${maestroEnvName(match[2] === undefined ? match[1] ?? '' : `${match[1]}.${match[2]}`)}}`);
    last = match.index + match[0].length;
  }
  parts.push(escapeRegex(text.slice(last)));
  return parts.join('');
}

function escapeRegex(text: string): string {
  return text.replace(/[\\^$.|?*+()[\]{}]/g, '\\$&');
}

/** A string comparison as a Maestro regex (Maestro matches the whole value), or why it has none. */
function regexOf(match: StringMatch): string | { problem: string } {
  switch (match.op) {
    case 'equals': return `${match.ignoreCase === true ? '(?i)' : ''}${maestroRegex(match.value)}`;
    case 'contains': return `${match.ignoreCase === true ? '(?i)' : ''}.*${maestroRegex(match.value)}.*`;
    case 'digits': return `\\D*${match.value.replace(/\D/g, '').split('').join('\\D*')}\\D*`;
    case 'matches': return match.flags !== undefined && match.flags !== '' ? { problem: `regex flags "${match.flags}"` } : `.*(?:${match.pattern}).*`;
  }
}

/** A Maestro selector map. */
export type MaestroSelector = { text?: string; id?: string; index?: number; checked?: boolean; childOf?: MaestroSelector };

/**
 * A Maestro selector for a query: `id` (resource-id, with or without its package part) and
 * `text` (Maestro's text matches the text or the accessibility text, so content-desc,
 * hint and label map to it too), `within` → `childOf`, `nth` → `index`. A class (`is=`),
 * `near`, or two different labels have no Maestro form: the result says so, and `lossy`
 * lists what was dropped when the rest still names a node (a class beside a label).
 */
export function maestroSelector(query: Query): { selector: MaestroSelector; lossy: string[] } | { problem: string } {
  const lossy: string[] = [];
  const selector: MaestroSelector = {};
  if (query.near) return { problem: `${printQuery(query)}: near(...) has no Maestro form` };
  const labels = [query.text, query.desc, query.hint, query.label].filter((match): match is StringMatch => match !== undefined);
  if (labels.length > 1) return { problem: `${printQuery(query)}: two labels, and Maestro's text matches one` };
  const label = labels[0];
  if (label) {
    const regex = regexOf(label);
    if (typeof regex !== 'string') return { problem: `${printQuery(query)}: ${regex.problem} has no Maestro form` };
    selector.text = regex;
  }
  if (query.id) {
    const regex = regexOf(query.id);
    if (typeof regex !== 'string') return { problem: `${printQuery(query)}: ${regex.problem} has no Maestro form` };
    selector.id = query.id.op === 'equals' && !query.id.value.includes(':id/') ? `(.+:id/)?${regex}` : regex;
  }
  if (query.is !== undefined) {
    if (selector.text === undefined && selector.id === undefined) return { problem: `${printQuery(query)}: a class alone (is=${query.is}) has no Maestro selector` };
    lossy.push(`is=${query.is} (Maestro has no class selector)`);
  }
  if (query.within) {
    const parent = maestroSelector(query.within);
    if ('problem' in parent) return parent;
    selector.childOf = parent.selector;
    lossy.push(...parent.lossy);
  }
  if (query.nth !== undefined) selector.index = query.nth - 1;
  return { selector, lossy };
}

/** The shorthand (a bare text regex) when the selector is only a text, else the map. */
export function compactSelector(selector: MaestroSelector): string | MaestroSelector {
  const keys = Object.keys(selector);
  return keys.length === 1 && selector.text !== undefined ? selector.text : selector;
}
