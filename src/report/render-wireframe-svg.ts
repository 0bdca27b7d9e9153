import { safeParseHierarchy } from '../ui/parse-hierarchy.js';
import type { UiNode } from '../ui/ui-tree.js';
import { html, type SafeHtml } from './safe-html.js';

/** Labels longer than this are cut in the drawing (the full text is in the node's tooltip). */
const maxLabelChars = 40;

/**
 * Draws a hierarchy as an SVG wireframe in device pixels: one rectangle per visible node
 * with an area that is actionable or carries text; clickable nodes outlined blue,
 * editable green, checked ones filled, and the node's text (or content-desc) as a
 * label and tooltip. All text is escaped. Returns
 * the reason instead when the hierarchy does not parse or is empty.
 */
export function renderWireframeSvg(source: string, sourceName: string): { svg: SafeHtml } | { problem: string } {
  const parsed = safeParseHierarchy(source, { sourceName });
  if (!parsed.success) return { problem: parsed.error.message };
  const tree = parsed.value;
  // Bare layout containers add bytes, not meaning: draw what can be acted on or read.
  const nodes = tree.nodes.filter((node) => node.displayed && node.bounds[2] > node.bounds[0] && node.bounds[3] > node.bounds[1]
    && (node.clickable || node.longClickable || node.checkable || node.editable || node.scrollable || node.text !== '' || node.contentDesc !== '' || node.hint !== ''));
  if (nodes.length === 0 || tree.width <= 0 || tree.height <= 0) return { problem: `${sourceName} has no visible node to draw` };
  const fontSize = Math.max(12, Math.round(tree.width / 36));
  return {
    svg: html`<svg class="wireframe" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${tree.width} ${tree.height}" role="img" aria-label="${`wireframe of ${sourceName}`}"><rect class="screen" x="0" y="0" width="${tree.width}" height="${tree.height}"/>${nodes.map((node) => renderNode(node, fontSize))}</svg>`,
  };
}

function renderNode(node: UiNode, fontSize: number): SafeHtml {
  const [left, top, right, bottom] = node.bounds;
  const kind = node.editable ? 'editable' : node.clickable || node.longClickable || node.checkable ? 'clickable' : node.scrollable ? 'scrollable' : 'plain';
  const label = node.text !== '' ? node.text : node.contentDesc !== '' ? node.contentDesc : node.hint;
  const shortLabel = label.length > maxLabelChars ? `${label.slice(0, maxLabelChars - 1)}…` : label;
  const tooltip = [node.className, node.resourceId, label].filter((part) => part !== '').join(' · ');
  const checked = node.checked || node.selected ? ' on' : '';
  return html`<g><title>${tooltip}</title><rect class="${`node ${kind}${checked}`}" x="${left}" y="${top}" width="${right - left}" height="${bottom - top}"/>${shortLabel === '' ? '' : html`<text x="${left + 4}" y="${Math.min(bottom - 4, top + fontSize + 2)}" font-size="${fontSize}">${shortLabel}</text>`}</g>`;
}
