import { escapeHtml } from './escape-html.js';

const safeHtmlMarker = Symbol('senseact.safe-html');

/** Markup built by `html` (its interpolations escaped); only such values are inserted unescaped. */
export interface SafeHtml {
  readonly [safeHtmlMarker]: true;
  readonly markup: string;
}

/** What may be interpolated: text (escaped), numbers, SafeHtml, lists of those, or nothing. */
export type HtmlValue = string | number | boolean | SafeHtml | null | undefined | readonly HtmlValue[];

/**
 * Tagged template for report markup. Every interpolated string or number is escaped with
 * `escapeHtml`; `SafeHtml` from another `html` call is inserted as is; arrays are
 * concatenated; null and undefined render nothing. Use it for text and for quoted
 * attribute values, never for unquoted attributes, URLs with schemes, or inside
 * `<script>`/`<style>`.
 */
export function html(strings: TemplateStringsArray, ...values: readonly HtmlValue[]): SafeHtml {
  let markup = strings[0] ?? '';
  values.forEach((value, index) => {
    markup += render(value) + (strings[index + 1] ?? '');
  });
  return safeHtml(markup);
}

/** Joins fragments with `separator` (escaped like any text). */
export function joinHtml(values: readonly HtmlValue[], separator = ''): SafeHtml {
  return safeHtml(values.map(render).join(escapeHtml(separator)));
}

/** Whether `value` is markup built by `html`. */
export function isSafeHtml(value: unknown): value is SafeHtml {
  return typeof value === 'object' && value !== null && safeHtmlMarker in value;
}

function render(value: HtmlValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return escapeHtml(value);
  if (typeof value === 'number' || typeof value === 'boolean') return escapeHtml(String(value));
  if (isSafeHtml(value)) return value.markup;
  if (Array.isArray(value)) return (value as readonly HtmlValue[]).map(render).join('');
  // Only markup built here is trusted; anything else that looks like it is a bug.
  throw new TypeError(`html: cannot interpolate a ${Object.prototype.toString.call(value)}; pass text, a number, or html\`…\``);
}

function safeHtml(markup: string): SafeHtml {
  return { [safeHtmlMarker]: true, markup };
}
