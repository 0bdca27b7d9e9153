import type { LaidNode } from './layout-window.js';

/** The two XML dialects a real device gives. */
export type PageSourceDialect = 'appium-uia2' | 'uiautomator-dump';

/** Escapes text for an XML attribute value (what Android's XmlSerializer escapes, plus quotes). */
const needsEscape = /[&<>"\u0000-\u001f]/;

/** Escapes text for an XML attribute value: `& < > "` and control characters (newline, tab as character references). */
export function escapeXmlAttribute(value: string): string {
  if (!needsEscape.test(value)) return value;
  let out = '';
  for (const ch of value) {
    switch (ch) {
      case '&':
        out += '&amp;';
        break;
      case '<':
        out += '&lt;';
        break;
      case '>':
        out += '&gt;';
        break;
      case '"':
        out += '&quot;';
        break;
      case '\n':
        out += '&#10;';
        break;
      case '\r':
        out += '&#13;';
        break;
      case '\t':
        out += '&#9;';
        break;
      default: {
        const code = ch.codePointAt(0) ?? 0;
        // XML 1.0 forbids most control characters; Android writes them as '?'.
        out += code < 0x20 ? '?' : ch;
      }
    }
  }
  return out;
}

function boundsText(node: LaidNode): string {
  const [l, t, r, b] = node.bounds;
  return `[${l},${t}][${r},${b}]`;
}

/** UiAutomator's "not accessibility friendly" test: clickable, but no text anywhere below. */
function isNaf(node: LaidNode): boolean {
  if (!(node.clickable || node.checkable) || !node.enabled) return false;
  if (node.text !== '' || node.desc !== '') return false;
  const stack = [...node.children];
  while (stack.length > 0) {
    const child = stack.pop() as LaidNode;
    if (child.text !== '' || child.desc !== '') return false;
    stack.push(...child.children);
  }
  return true;
}

function dumpNode(node: LaidNode, out: string[]): void {
  const a = escapeXmlAttribute;
  const naf = isNaf(node) ? 'NAF="true" ' : '';
  out.push(
    `<node ${naf}index="${node.index}" text="${a(node.text)}" resource-id="${a(node.resourceId)}" class="${a(node.cls)}" package="${a(node.pkg)}" content-desc="${a(node.desc)}" checkable="${node.checkable}" checked="${node.checked}" clickable="${node.clickable}" enabled="${node.enabled}" focusable="${node.focusable}" focused="${node.focused}" scrollable="${node.scrollable}" long-clickable="${node.longClickable}" password="${node.password}" selected="${node.selected}" bounds="${boundsText(node)}" drawing-order="${node.drawingOrder}" hint="${a(node.hint)}"`,
  );
  if (node.children.length === 0) {
    out.push(' />');
    return;
  }
  out.push('>');
  for (const child of node.children) dumpNode(child, out);
  out.push('</node>');
}

function appiumNode(node: LaidNode, depth: number, out: string[]): void {
  const a = escapeXmlAttribute;
  const pad = '  '.repeat(depth);
  const tag = node.cls.replace(/[^A-Za-z0-9_.-]/g, '_');
  const desc = node.desc === '' ? '' : ` content-desc="${a(node.desc)}"`;
  const rid = node.resourceId === '' ? '' : ` resource-id="${a(node.resourceId)}"`;
  const hint = node.hint === '' ? '' : ` hint="${a(node.hint)}"`;
  const important = node.clickable || node.text !== '' || node.desc !== '' || node.focusable;
  const open = `${pad}<${tag} index="${node.index}" package="${a(node.pkg)}" class="${a(node.cls)}" text="${a(node.text)}"${desc}${rid} checkable="${node.checkable}" checked="${node.checked}" clickable="${node.clickable}" enabled="${node.enabled}" focusable="${node.focusable}" focused="${node.focused}" long-clickable="${node.longClickable}" password="${node.password}" scrollable="${node.scrollable}" selected="${node.selected}" bounds="${boundsText(node)}" displayed="true"${hint} a11y-important="${important}" screen-reader-focusable="false" drawing-order="${node.drawingOrder}" showing-hint="${node.showingHint}" text-entry-key="false" dismissable="false" a11y-focused="false" heading="false" live-region="0" context-clickable="false" content-invalid="false"`;
  if (node.children.length === 0) {
    out.push(`${open} />\n`);
    return;
  }
  out.push(`${open}>\n`);
  for (const child of node.children) appiumNode(child, depth + 1, out);
  out.push(`${pad}</${tag}>\n`);
}

/**
 * Renders window roots (topmost first) as XML in the chosen dialect:
 * - `uiautomator-dump`: one line, `<?xml …?><hierarchy rotation="0">` then `<node>`
 *   elements with the 17 classic attributes (always present) plus `drawing-order` and
 *   `hint` (API 29+), and `NAF="true"` first on unlabelled clickable nodes.
 * - `appium-uia2`: pretty-printed, `<hierarchy index="0" class="hierarchy" rotation="0"
 *   width height>`, elements named by class, `content-desc`/`resource-id`/`hint` omitted
 *   when empty (null on the device), `text` always present, `displayed="true"`, then the
 *   newer UiAutomator2 server attributes (`a11y-important` … `content-invalid`).
 * Every window root has `index="0"`, as on a multi-window device.
 */
export function renderPageSource(windows: readonly LaidNode[], dialect: PageSourceDialect, size: { width: number; height: number }): string {
  const out: string[] = [];
  if (dialect === 'uiautomator-dump') {
    out.push(`<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="0">`);
    for (const root of windows) dumpNode(root, out);
    out.push('</hierarchy>');
    return out.join('');
  }
  out.push(`<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>\n<hierarchy index="0" class="hierarchy" rotation="0" width="${size.width}" height="${size.height}">\n`);
  for (const root of windows) appiumNode(root, 1, out);
  out.push('</hierarchy>');
  return out.join('');
}
