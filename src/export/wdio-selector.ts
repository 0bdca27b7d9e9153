import type { Query } from '../verify/predicate.js';
import { queryToXpath } from './query-xpath.js';

const placeholderPattern = /\{([a-z][a-z0-9]*)(?:\.([a-z0-9]+))?\}/g;

/**
 * A JavaScript expression for a text that may hold skill placeholders (`{time.hour}`): a
 * plain string literal, or a template literal reading `params['time.hour']`.
 */
export function jsText(text: string): string {
  if (!new RegExp(placeholderPattern.source).test(text)) return quoted(text);
  const parts: string[] = [];
  let last = 0;
  for (const match of text.matchAll(placeholderPattern)) {
    parts.push(escapeTemplate(text.slice(last, match.index)));
    const key = match[2] === undefined ? match[1] : `${match[1]}.${match[2]}`;
    parts.push(`\${params[${JSON.stringify(key)}]}`);
    last = match.index + match[0].length;
  }
  parts.push(escapeTemplate(text.slice(last)));
  return `\`${parts.join('')}\``;
}

/** A string literal, in single quotes when the text holds double ones (XPath) and no single one. */
function quoted(text: string): string {
  if (!text.includes('"') || text.includes("'")) return JSON.stringify(text);
  return `'${JSON.stringify(text).slice(1, -1).replace(/\\"/g, '"')}'`;
}

function escapeTemplate(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/`/g, '\\`').replace(/\$\{/g, '\\${');
}

/** The keys of the placeholders a text holds (`time`, `time.hour`). */
export function placeholderKeys(text: string): string[] {
  return [...text.matchAll(placeholderPattern)].map((match) => (match[2] === undefined ? match[1] ?? '' : `${match[1]}.${match[2]}`));
}

/**
 * A WebdriverIO selector (as a JavaScript expression) for a query, resource-id first: a
 * query that is only a resource-id becomes `id=…` and one that is only a content-desc
 * `~…` (accessibility id); anything else an XPath that UiAutomator2 and the simulator's
 * driver both evaluate (`queryToXpath`). Returns the problem for a query XPath cannot say.
 */
export function wdioSelector(query: Query): { readonly code: string } | { readonly problem: string } {
  const keys = Object.entries(query).filter(([, value]) => value !== undefined).map(([key]) => key);
  const only = keys.length === 1 ? keys[0] : undefined;
  if (only === 'id' && query.id?.op === 'equals' && query.id.ignoreCase !== true) return { code: jsText(`id=${query.id.value}`) };
  if (only === 'desc' && query.desc?.op === 'equals' && query.desc.ignoreCase !== true) return { code: jsText(`~${query.desc.value}`) };
  const xpath = queryToXpath(query);
  return 'problem' in xpath ? xpath : { code: jsText(xpath.xpath) };
}

/** The XPath of a query as a JavaScript expression (toggles and state atoms walk from it to a checkable node). */
export function wdioXpath(query: Query): { readonly code: string } | { readonly problem: string } {
  const xpath = queryToXpath(query);
  return 'problem' in xpath ? xpath : { code: jsText(xpath.xpath) };
}
