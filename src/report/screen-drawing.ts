import type { Bounds, UiNode, UiTree } from '../ui/ui-tree.js';
import { html, type SafeHtml } from './safe-html.js';

/** Labels longer than this are cut in the drawing (the full text is in the node's tooltip). */
const maxLabelChars = 40;

/** A generous average glyph width, as a share of the font size (sans-serif text runs narrower). */
const glyphWidthShare = 0.6;

/** A label cut to fewer characters than this says nothing: the node is drawn without one. */
const minLabelChars = 4;

/** A screen drawn in device pixels: what a sprite file holds once, however many panels show it. */
export interface ScreenDrawing {
  readonly width: number;
  readonly height: number;
  /** A group setting the labels' font size: the screen's rectangle, then one `<g>` per drawn node (its rectangle, label and tooltip). */
  readonly markup: SafeHtml;
}

/**
 * Draws a hierarchy in device pixels: one rectangle per visible node that can be acted
 * on or carries text (bare layout containers add bytes, not meaning); clickable nodes
 * outlined blue, editable green, scrollable dashed, checked or selected ones filled, and
 * the node's text (or content-desc, or hint) as a label cut at 40 characters and in full
 * as its tooltip. The classes are styled by the sprite file that holds the drawing
 * (`screen-sprites.ts`). All text is escaped, and characters XML does not allow are
 * replaced, so the drawing is well-formed SVG. Undefined when nothing is visible.
 */
export function drawScreen(tree: UiTree): ScreenDrawing | undefined {
  const nodes = tree.nodes.filter((node) => node.displayed && node.bounds[2] > node.bounds[0] && node.bounds[3] > node.bounds[1]
    && (node.clickable || node.longClickable || node.checkable || node.editable || node.scrollable || node.text !== '' || node.contentDesc !== '' || node.hint !== ''));
  if (nodes.length === 0 || tree.width <= 0 || tree.height <= 0) return undefined;
  const fontSize = Math.max(12, Math.round(tree.width / 36));
  return {
    width: tree.width,
    height: tree.height,
    markup: html`<g font-size="${fontSize}"><rect class="screen" x="0" y="0" width="${tree.width}" height="${tree.height}"/>${nodes.map((node) => drawNode(node, fontSize))}</g>`,
  };
}

function drawNode(node: UiNode, fontSize: number): SafeHtml {
  const [left, top, right, bottom] = node.bounds;
  const kind = node.editable ? 'editable' : node.clickable || node.longClickable || node.checkable ? 'clickable' : node.scrollable ? 'scrollable' : 'plain';
  const label = xmlText(nodeText(node));
  const shortLabel = fitLabel(label, right - left, fontSize);
  const tooltip = [xmlText(node.className), xmlText(node.resourceId), label].filter((part) => part !== '').join(' · ');
  const on = node.checked || node.selected ? ' on' : '';
  return html`<g><title>${tooltip}</title><rect class="${`node ${kind}${on}`}" x="${left}" y="${top}" width="${right - left}" height="${bottom - top}"/>${shortLabel === '' ? '' : html`<text x="${left + 4}" y="${Math.min(bottom - 4, top + fontSize + 2)}">${shortLabel}</text>`}</g>`;
}

/**
 * The label as drawn inside a node `width` pixels wide: whole when it fits, else cut with
 * `…`, and nothing when fewer than four characters would fit (a status-bar icon 47 px
 * wide); labels drawn past their node's edge overlap their neighbours'. The tooltip keeps
 * the whole text.
 */
export function fitLabel(label: string, width: number, fontSize: number): string {
  const fits = Math.min(maxLabelChars, Math.floor((width - 8) / (fontSize * glyphWidthShare)));
  if (label.length <= fits) return label;
  return fits < minLabelChars ? '' : `${label.slice(0, fits - 1)}…`;
}

/**
 * Text XML 1.0 can hold: control characters (other than tab and line breaks), U+FFFE,
 * U+FFFF and unpaired surrogates become U+FFFD. One such character in an app's label
 * would otherwise make the whole sprite file unreadable, and every screen in it blank.
 */
export function xmlText(text: string): string {
  return text.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
}

/** A node's own words: text, else content-desc, else hint. */
export function nodeText(node: UiNode): string {
  return node.text !== '' ? node.text : node.contentDesc !== '' ? node.contentDesc : node.hint;
}

/** What to mark on a panel, in device pixels. */
export interface PanelMarks {
  /** Where taps (long presses, a typed field's tap) landed. */
  readonly points?: readonly (readonly [number, number])[];
  /** Swipes and scrolls: from, to (the finger's path). */
  readonly strokes?: readonly (readonly [readonly [number, number], readonly [number, number]])[];
  /** The units the actions targeted. */
  readonly targets?: readonly Bounds[];
  /** Nodes that changed (after panel). */
  readonly changed?: readonly Bounds[];
}

/**
 * One panel of a step: the screen (its drawing in a sprite file, or a screenshot, both
 * shown as an image in device coordinates) with the marks drawn over it, under a caption.
 * `screen.href` is the image's URL relative to the page (a sprite file with its view's
 * fragment, or a PNG in the run folder); the image links to it, where the drawing's
 * tooltips (class, resource id, whole label) show on hover.
 */
export function renderPanel(options: {
  readonly caption: string;
  readonly screen?: { readonly href: string; readonly width: number; readonly height: number };
  readonly marks?: PanelMarks;
  readonly missing?: string;
}): SafeHtml {
  const screen = options.screen;
  if (screen === undefined) {
    return html`<figure class="panel"><figcaption>${options.caption}</figcaption><div class="missing">${options.missing ?? 'no screen recorded'}</div></figure>`;
  }
  const { width, height } = screen;
  const marks = options.marks ?? {};
  const radius = Math.max(14, Math.round(width / 30));
  const line = Math.max(4, Math.round(width / 180));
  // Marks take the line width of the panel's SVG unless they set their own.
  const box = (className: string, bounds: Bounds, strokeWidth?: number): SafeHtml => html`<rect class="${className}" x="${bounds[0]}" y="${bounds[1]}" width="${Math.max(0, bounds[2] - bounds[0])}" height="${Math.max(0, bounds[3] - bounds[1])}"${strokeWidth === undefined ? '' : html` stroke-width="${strokeWidth}"`}/>`;
  // The marks' SVG (in flow) sizes the panel and the image fills it: an SVG image sized by
  // its own aspect would show its whole sprite file, not the view its URL names.
  return html`<figure class="panel"><figcaption>${options.caption}</figcaption><div class="screen"><a href="${screen.href}"><img src="${screen.href}" width="${width}" height="${height}" alt="${options.caption}"></a><svg class="marks" viewBox="0 0 ${width} ${height}" stroke-width="${line}" aria-hidden="true">${
    (marks.changed ?? []).map((bounds) => box('changed', bounds))
  }${(marks.targets ?? []).map((bounds) => box('target', bounds, line * 1.5))}${
    (marks.strokes ?? []).map(([from, to]) => html`<line class="stroke" x1="${from[0]}" y1="${from[1]}" x2="${to[0]}" y2="${to[1]}" stroke-width="${line * 2}"/><circle class="tap" cx="${to[0]}" cy="${to[1]}" r="${radius / 2}"/>`)
  }${
    (marks.points ?? []).map((point) => html`<circle class="tap" cx="${point[0]}" cy="${point[1]}" r="${radius}"/><circle class="tap-dot" cx="${point[0]}" cy="${point[1]}" r="${line * 1.5}"/>`)
  }</svg></div></figure>`;
}
