import { escapeHtml, escapeText } from './escape-html.js';

const safeHtmlMarker = Symbol('senseact.safe-html');

/** Markup built by `html` (its interpolations escaped); only such values are inserted unescaped. */
export interface SafeHtml {
  readonly [safeHtmlMarker]: true;
  readonly markup: string;
}

/** What may be interpolated: text (escaped), numbers, SafeHtml, lists of those, or nothing. */
export type HtmlValue = string | number | boolean | SafeHtml | null | undefined | readonly HtmlValue[];

/**
 * Tagged template for report markup. An interpolated string or number between tags is
 * escaped with `escapeText` (`& < >`), anywhere inside a tag with `escapeHtml` (quotes
 * and the backtick too). `SafeHtml` from another `html` call is inserted as is between
 * tags and between a tag's attributes (a fragment of attributes), and with its quotes
 * escaped inside a quoted attribute value, which it cannot end. Arrays are concatenated;
 * null and undefined render nothing. Use it for text and for quoted attribute values,
 * never for unquoted attributes, URLs with schemes, or inside `<script>`/`<style>`.
 */
export function html(strings: TemplateStringsArray, ...values: readonly HtmlValue[]): SafeHtml {
  const places = placesOf(strings);
  let markup = strings[0] ?? '';
  values.forEach((value, index) => {
    const place = places[index] ?? 'value';
    markup += (place === 'value' ? renderInValue(value) : render(value, place === 'text' ? escapeText : escapeHtml)) + (strings[index + 1] ?? '');
  });
  return safeHtml(markup);
}

/** Where an interpolation stands: between tags, inside a tag between its attributes, or inside a quoted attribute value. */
type Place = 'text' | 'tag' | 'value';

/** Per template (the same array at every call of one call site): where each interpolation stands. */
const places = new WeakMap<TemplateStringsArray, readonly Place[]>();

/**
 * Where each interpolation of a template stands, read from its literal parts alone: `<`
 * followed by a letter, `/` or `!` opens a tag, `>` outside quotes closes it, and a quote
 * inside a tag opens a value that only the same quote closes (so a `>` written in a
 * literal attribute value does not end the tag).
 */
function placesOf(strings: TemplateStringsArray): readonly Place[] {
  const known = places.get(strings);
  if (known !== undefined) return known;
  const found: Place[] = [];
  let state: 'text' | 'tag' | '"' | "'" = 'text';
  strings.forEach((literal, index) => {
    for (let at = 0; at < literal.length; at++) {
      const character = literal[at];
      if (state === 'text') {
        if (character === '<' && /[A-Za-z/!]/.test(literal[at + 1] ?? '')) state = 'tag';
      } else if (state === 'tag') {
        if (character === '>') state = 'text';
        else if (character === '"' || character === "'") state = character;
      } else if (character === state) {
        state = 'tag';
      }
    }
    if (index < strings.length - 1) found.push(state === 'text' || state === 'tag' ? state : 'value');
  });
  places.set(strings, found);
  return found;
}

/** Joins fragments with `separator` (escaped like any text). */
export function joinHtml(values: readonly HtmlValue[], separator = ''): SafeHtml {
  return safeHtml(values.map((value) => render(value, escapeHtml)).join(escapeHtml(separator)));
}

/** Whether `value` is markup built by `html`. */
export function isSafeHtml(value: unknown): value is SafeHtml {
  return typeof value === 'object' && value !== null && safeHtmlMarker in value;
}

function render(value: HtmlValue, escape: (text: string) => string): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return escape(value);
  if (typeof value === 'number' || typeof value === 'boolean') return escape(String(value));
  if (isSafeHtml(value)) return value.markup;
  if (Array.isArray(value)) return (value as readonly HtmlValue[]).map((item) => render(item, escape)).join('');
  // Only markup built here is trusted; anything else that looks like it is a bug.
  throw new TypeError(`html: cannot interpolate a ${Object.prototype.toString.call(value)}; pass text, a number, or html\`…\``);
}

/** Inside a quoted value: text fully escaped; markup keeps its character references but not its quotes, which would end the value. */
function renderInValue(value: HtmlValue): string {
  if (isSafeHtml(value)) return value.markup.replace(/[<>"'`]/g, (character) => escapeHtml(character));
  if (Array.isArray(value)) return (value as readonly HtmlValue[]).map(renderInValue).join('');
  return render(value, escapeHtml);
}

function safeHtml(markup: string): SafeHtml {
  return { [safeHtmlMarker]: true, markup };
}
