import { glyphAdvance, glyphHeight, glyphRows } from './bitmap-font.js';
import { encodeIndexedPng, indexedScanlines, type Rgb } from './encode-indexed-png.js';
import type { LaidNode, PixelRect } from './layout-window.js';
import { escapeXmlAttribute } from './render-page-source.js';

interface Palette {
  readonly background: Rgb;
  readonly filled: Rgb;
  readonly card: Rgb;
  readonly border: Rgb;
  readonly faint: Rgb;
  readonly text: Rgb;
  readonly hint: Rgb;
  readonly system: Rgb;
}
const lightPalette: Palette = {
  background: [250, 250, 250],
  filled: [214, 227, 255],
  card: [240, 242, 247],
  border: [120, 124, 135],
  faint: [205, 208, 214],
  text: [28, 28, 32],
  hint: [130, 130, 140],
  system: [232, 234, 240],
};
/** Dark theme (Settings → Display → Dark theme) paints light on dark, so pixels show it. */
const darkPalette: Palette = {
  background: [24, 24, 28],
  filled: [40, 60, 110],
  card: [38, 40, 46],
  border: [150, 154, 165],
  faint: [70, 72, 80],
  text: [232, 232, 236],
  hint: [140, 140, 150],
  system: [16, 16, 20],
};

/** Screenshot options. */
export interface ScreenshotOptions {
  /** Paint with the dark palette. */
  readonly dark?: boolean | undefined;
  /** Index (in the topmost-first window list) of a modal window: everything below it is dimmed. */
  readonly scrimBelow?: number | undefined;
}

interface Painter {
  fill(rect: PixelRect, color: Rgb): void;
  stroke(rect: PixelRect, color: Rgb): void;
  text(x: number, y: number, text: string, size: number, color: Rgb, maxX: number): void;
  icon(rect: PixelRect, name: string): void;
  /** Dims everything painted so far (the scrim behind a dialog). */
  dim(): void;
}

function paintNode(node: LaidNode, painter: Painter, isRoot: boolean, colors: Palette): void {
  const w = node.widget;
  const b = node.bounds;
  if (isRoot) painter.fill(b, node.pkg === 'com.android.systemui' ? colors.system : colors.background);
  switch (w.look) {
    case 'filled':
      painter.fill(b, colors.filled);
      break;
    case 'card':
      painter.fill(b, colors.card);
      painter.stroke(b, colors.faint);
      break;
    case 'outlined':
      painter.stroke(b, colors.border);
      break;
    default:
      if (node.clickable && node.children.length === 0 && w.icon === undefined) painter.stroke(b, colors.faint);
  }
  if (w.icon !== undefined) {
    const size = Math.min(b[2] - b[0], b[3] - b[1], 72);
    const cx = Math.round((b[0] + b[2]) / 2);
    const hasText = (w.text ?? '') !== '';
    const cy = hasText && b[3] - b[1] > size * 2 ? b[1] + Math.round(size * 0.6) : Math.round((b[1] + b[3]) / 2);
    const half = Math.round(size / 3);
    painter.icon([cx - half, cy - half, cx + half, cy + half], w.icon);
  }
  const shown = w.text ?? '';
  const text = shown !== '' ? shown : (w.hint ?? '');
  if (text !== '') {
    const fontPx = (w.fontSize ?? 16) * 2.625;
    const y = w.icon !== undefined && b[3] - b[1] > 120 ? b[3] - fontPx * 1.3 : Math.round((b[1] + b[3]) / 2 - fontPx / 2);
    painter.text(b[0] + 12, Math.max(b[1], Math.round(y)), text, fontPx, shown !== '' ? colors.text : colors.hint, b[2]);
  }
  for (const child of node.children) paintNode(child, painter, false, colors);
}

function paintWindows(windows: readonly LaidNode[], painter: Painter, colors: Palette, scrimBelow: number | undefined): void {
  // Windows arrive topmost first; paint bottom-up.
  for (let i = windows.length - 1; i >= 0; i--) {
    if (i === scrimBelow) painter.dim();
    paintNode(windows[i] as LaidNode, painter, true, colors);
  }
}

/**
 * Renders a deterministic wireframe PNG of the windows (topmost first) at the screen's own
 * pixel size (1080×2400 for the default phone): boxes for filled/outlined/card widgets, text
 * in a built-in 3×5 bitmap font scaled to the font size, simple icon glyphs. Painted as
 * palette indices and written as a palette PNG (encodeIndexedPng), so a full-size
 * screenshot stays cheap; the simulator renders one only when a screenshot is asked for.
 */
export function renderScreenshotPng(windows: readonly LaidNode[], screen: { width: number; height: number }, options: ScreenshotOptions = {}): Uint8Array {
  const colors = options.dark === true ? darkPalette : lightPalette;
  const { width, height } = screen;
  const stride = width + 1;
  const pixels = indexedScanlines(width, height);
  const palette: Rgb[] = [];
  const indexOf = new Map<number, number>();
  const index = (c: Rgb): number => {
    const key = (c[0] << 16) | (c[1] << 8) | c[2];
    let found = indexOf.get(key);
    if (found === undefined) {
      found = palette.length;
      palette.push(c);
      indexOf.set(key, found);
    }
    return found;
  };
  const fillPx = (l: number, t: number, r: number, b: number, c: Rgb): void => {
    const x0 = Math.max(0, Math.round(l));
    const x1 = Math.min(width, Math.round(r));
    if (x1 <= x0) return;
    const value = index(c);
    for (let y = Math.max(0, Math.round(t)); y < Math.min(height, Math.round(b)); y++) pixels.fill(value, y * stride + 1 + x0, y * stride + 1 + x1);
  };
  // Lines and glyph pixels keep the weight they had on the 360-px-wide wireframe: 3 px a dot at 1080.
  const dot = Math.max(1, Math.round(width / 360));
  const painter: Painter = {
    fill: (rect, c) => fillPx(rect[0], rect[1], rect[2], rect[3], c),
    stroke: ([l, t, r, b], c) => {
      fillPx(l, t, r, t + dot, c);
      fillPx(l, b - dot, r, b, c);
      fillPx(l, t, l + dot, b, c);
      fillPx(r - dot, t, r, b, c);
    },
    text: (x, y, text, size, c, maxX) => {
      let cx = x;
      const first = text.split('\n')[0] ?? '';
      // Shrink the glyphs rather than cut the text when the box is narrow.
      const fits = Math.floor((maxX - cx) / Math.max(1, first.length * glyphAdvance));
      const unit = Math.max(1, Math.min(Math.round(size / (glyphHeight + 2)), fits));
      for (const ch of first) {
        if (cx + glyphAdvance * unit > maxX) break;
        glyphRows(ch).forEach((bits, ry) => {
          for (let rx = 0; rx < 3; rx++) if ((bits >> (2 - rx)) & 1) fillPx(cx + rx * unit, y + ry * unit, cx + (rx + 1) * unit, y + (ry + 1) * unit, c);
        });
        cx += glyphAdvance * unit;
      }
    },
    icon: (rect, name) => paintIcon(rect, name, fillPx, colors, dot),
    dim: () => {
      // The scrim halves every colour painted so far: each palette entry gets its dimmed twin.
      const twins = palette.map((c) => index([c[0] >> 1, c[1] >> 1, c[2] >> 1]));
      for (let y = 0; y < height; y++) for (let i = y * stride + 1; i < (y + 1) * stride; i++) pixels[i] = twins[pixels[i] ?? 0] ?? 0;
    },
  };
  fillPx(0, 0, width, height, [20, 20, 20]);
  paintWindows(windows, painter, colors, options.scrimBelow);
  return encodeIndexedPng(pixels, width, height, palette);
}

type FillPx = (l: number, t: number, r: number, b: number, c: Rgb) => void;

/** An icon glyph in `rect` (screen pixels); `dot` is one wireframe pixel. */
function paintIcon(rect: PixelRect, name: string, fillPx: FillPx, colors: Palette, dot: number): void {
  const [l, t, r, b] = rect;
  const mx = Math.round((l + r) / 2);
  const my = Math.round((t + b) / 2);
  const c = colors.text;
  const glyph = (ch: string, x: number, y: number, size: number): void =>
    glyphRows(ch).forEach((bits, ry) => {
      for (let rx = 0; rx < 3; rx++) if ((bits >> (2 - rx)) & 1) fillPx(x + rx * size, y + ry * size, x + (rx + 1) * size, y + (ry + 1) * size, c);
    });
  if (name === 'add') {
    fillPx(mx - dot, t, mx + dot, b, c);
    fillPx(l, my - dot, r, my + dot, c);
  } else if (name === 'switch-on' || name === 'checkbox-on' || name === 'radio-on') {
    fillPx(l, t + 2 * dot, r, b - 2 * dot, colors.border);
  } else if (name === 'switch-off' || name === 'checkbox-off' || name === 'radio-off') {
    fillPx(l, t + 2 * dot, r, t + 3 * dot, colors.border);
    fillPx(l, b - 3 * dot, r, b - 2 * dot, colors.border);
    fillPx(l, t + 2 * dot, l + dot, b - 2 * dot, colors.border);
    fillPx(r - dot, t + 2 * dot, r, b - 2 * dot, colors.border);
  } else if (name.startsWith('key:')) {
    glyph(name.slice(4), mx - 3 * dot, my - 5 * dot, 2 * dot);
  } else {
    // Generic glyph: a ring with the icon's initial, so icons differ visually.
    fillPx(l, t, r, t + dot, c);
    fillPx(l, b - dot, r, b, c);
    fillPx(l, t, l + dot, b, c);
    fillPx(r - dot, t, r, b, c);
    glyph(name.charAt(0), mx - dot, my - 2 * dot, dot);
  }
}

/** The same wireframe as SVG at full pixel coordinates (text as `<text>`, escaped). */
export function renderScreenshotSvg(windows: readonly LaidNode[], screen: { width: number; height: number }, options: ScreenshotOptions = {}): string {
  const colors = options.dark === true ? darkPalette : lightPalette;
  const parts: string[] = [];
  const hex = (c: Rgb): string => `#${c.map((v) => v.toString(16).padStart(2, '0')).join('')}`;
  const painter: Painter = {
    fill: (r, c) => parts.push(`<rect x="${r[0]}" y="${r[1]}" width="${r[2] - r[0]}" height="${r[3] - r[1]}" fill="${hex(c)}"/>`),
    stroke: (r, c) => parts.push(`<rect x="${r[0] + 1}" y="${r[1] + 1}" width="${Math.max(0, r[2] - r[0] - 2)}" height="${Math.max(0, r[3] - r[1] - 2)}" fill="none" stroke="${hex(c)}" stroke-width="3"/>`),
    text: (x, y, text, size, c) =>
      parts.push(`<text x="${x}" y="${Math.round(y + size)}" font-family="sans-serif" font-size="${Math.round(size)}" fill="${hex(c)}">${escapeXmlAttribute(text.split('\n')[0] ?? '')}</text>`),
    icon: (r, name) =>
      parts.push(`<g class="icon" data-icon="${escapeXmlAttribute(name)}"><circle cx="${(r[0] + r[2]) / 2}" cy="${(r[1] + r[3]) / 2}" r="${(r[2] - r[0]) / 2}" fill="none" stroke="${hex(colors.text)}" stroke-width="4"/></g>`),
    dim: () => parts.push(`<rect class="scrim" width="100%" height="100%" fill="#000000" fill-opacity="0.5"/>`),
  };
  paintWindows(windows, painter, colors, options.scrimBelow);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${screen.width}" height="${screen.height}" viewBox="0 0 ${screen.width} ${screen.height}"><rect width="100%" height="100%" fill="#141414"/>${parts.join('')}</svg>`;
}
