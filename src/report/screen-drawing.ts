import type { Bounds, UiNode, UiTree } from '../ui/ui-tree.js';
import { html, type SafeHtml } from './safe-html.js';

/** Labels longer than this are cut in the drawing (the full text is in the node's tooltip). */
const maxLabelChars = 40;

/** A generous average glyph width, as a share of the font size (sans-serif text runs narrower). */
const glyphWidthShare = 0.6;

/** A label cut to fewer characters than this says nothing: the node is drawn without one. */
const minLabelChars = 4;

/** A screen drawn once per page as an SVG `<symbol>`, shown by reference in any number of panels. */
export interface ScreenSymbol {
  /** The element id panels refer to (`#id`). */
  readonly id: string;
  readonly width: number;
  readonly height: number;
  /** `<symbol id=… viewBox=…>` with one rectangle per drawn node. */
  readonly markup: SafeHtml;
}

/**
 * Draws a hierarchy as an SVG symbol in device pixels: one rectangle per visible node
 * that can be acted on or carries text (bare layout containers add bytes, not meaning);
 * clickable nodes outlined blue, editable green, scrollable dashed, checked or selected
 * ones filled, and the node's text (or content-desc, or hint) as a label cut at 40
 * characters and in full as its tooltip. All text is escaped. Undefined when nothing is
 * visible.
 */
export function drawScreenSymbol(tree: UiTree, id: string): ScreenSymbol | undefined {
  const nodes = tree.nodes.filter((node) => node.displayed && node.bounds[2] > node.bounds[0] && node.bounds[3] > node.bounds[1]
    && (node.clickable || node.longClickable || node.checkable || node.editable || node.scrollable || node.text !== '' || node.contentDesc !== '' || node.hint !== ''));
  if (nodes.length === 0 || tree.width <= 0 || tree.height <= 0) return undefined;
  const fontSize = Math.max(12, Math.round(tree.width / 36));
  return {
    id,
    width: tree.width,
    height: tree.height,
    markup: html`<symbol id="${id}" viewBox="0 0 ${tree.width} ${tree.height}"><rect class="screen" x="0" y="0" width="${tree.width}" height="${tree.height}"/>${nodes.map((node) => drawNode(node, fontSize))}</symbol>`,
  };
}

function drawNode(node: UiNode, fontSize: number): SafeHtml {
  const [left, top, right, bottom] = node.bounds;
  const kind = node.editable ? 'editable' : node.clickable || node.longClickable || node.checkable ? 'clickable' : node.scrollable ? 'scrollable' : 'plain';
  const label = nodeText(node);
  const shortLabel = fitLabel(label, right - left, fontSize);
  const tooltip = [node.className, node.resourceId, label].filter((part) => part !== '').join(' · ');
  const on = node.checked || node.selected ? ' on' : '';
  return html`<g><title>${tooltip}</title><rect class="${`node ${kind}${on}`}" x="${left}" y="${top}" width="${right - left}" height="${bottom - top}"/>${shortLabel === '' ? '' : html`<text x="${left + 4}" y="${Math.min(bottom - 4, top + fontSize + 2)}" font-size="${fontSize}">${shortLabel}</text>`}</g>`;
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
 * One panel of a step: the screen (a drawn symbol, or a screenshot drawn in the same
 * coordinates) with the marks on top, under a caption. `image.href` is a relative URL
 * of a PNG in the run folder.
 */
export function renderPanel(options: {
  readonly caption: string;
  readonly screen?: ScreenSymbol;
  readonly image?: { readonly href: string; readonly width: number; readonly height: number };
  readonly marks?: PanelMarks;
  readonly missing?: string;
}): SafeHtml {
  const width = options.image?.width ?? options.screen?.width;
  const height = options.image?.height ?? options.screen?.height;
  if (width === undefined || height === undefined) {
    return html`<figure class="panel"><figcaption>${options.caption}</figcaption><div class="missing">${options.missing ?? 'no screen recorded'}</div></figure>`;
  }
  const marks = options.marks ?? {};
  const radius = Math.max(14, Math.round(width / 30));
  const line = Math.max(4, Math.round(width / 180));
  const box = (className: string, bounds: Bounds, strokeWidth: number): SafeHtml => html`<rect class="${className}" x="${bounds[0]}" y="${bounds[1]}" width="${Math.max(0, bounds[2] - bounds[0])}" height="${Math.max(0, bounds[3] - bounds[1])}" stroke-width="${strokeWidth}"/>`;
  return html`<figure class="panel"><figcaption>${options.caption}</figcaption><svg class="screen" viewBox="0 0 ${width} ${height}" role="img" aria-label="${options.caption}">${
    options.image === undefined
      ? html`<use href="${`#${options.screen?.id ?? ''}`}" width="${width}" height="${height}"/>`
      : html`<image href="${options.image.href}" x="0" y="0" width="${width}" height="${height}" preserveAspectRatio="none"/>`
  }${(marks.changed ?? []).map((bounds) => box('changed', bounds, line))}${(marks.targets ?? []).map((bounds) => box('target', bounds, line * 1.5))}${
    (marks.strokes ?? []).map(([from, to]) => html`<line class="stroke" x1="${from[0]}" y1="${from[1]}" x2="${to[0]}" y2="${to[1]}" stroke-width="${line * 2}"/><circle class="tap" cx="${to[0]}" cy="${to[1]}" r="${radius / 2}" stroke-width="${line}"/>`)
  }${
    (marks.points ?? []).map((point) => html`<circle class="tap" cx="${point[0]}" cy="${point[1]}" r="${radius}" stroke-width="${line}"/><circle class="tap-dot" cx="${point[0]}" cy="${point[1]}" r="${line * 1.5}"/>`)
  }</svg></figure>`;
}
