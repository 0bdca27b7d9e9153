import type { ScreenDrawing } from './screen-drawing.js';
import { html, type SafeHtml } from './safe-html.js';
import { styleSheet } from './report-style.js';

/** Where a drawn screen lies: a sprite file of the report's shared folder and its view there. */
export interface SpriteRef {
  /** The sprite file's name inside the shared folder (`screens-0.svg`). */
  readonly file: string;
  /** The `<view>` element that frames the screen (`s12`): the image URL is `<file>#<id>`. */
  readonly id: string;
  readonly width: number;
  readonly height: number;
}

/** A sprite file is closed once it holds this many bytes of drawings: a page loads the few files its screens lie in. */
const defaultFileBytes = 256_000;

/** Room between two screens of a file, so that no stroke of one shows in the next one's view. */
const gap = 40;

/** The drawing's own style: an SVG shown as an image sees none of the page's. */
const spriteStyle = `
rect.screen{fill:#fbfbfd;stroke:#999;stroke-width:2}
rect.node{fill:none;stroke:#c3c8d2;stroke-width:2}
rect.clickable{stroke:#2b6cb0;stroke-width:3}rect.editable{stroke:#2f855a;stroke-width:3}
rect.scrollable{stroke:#b7791f;stroke-dasharray:8 6}rect.on{fill:#bee3f8;fill-opacity:.6}
text{fill:#333;font-family:system-ui,sans-serif}
`;

interface OpenFile {
  readonly name: string;
  readonly parts: SafeHtml[];
  bytes: number;
  width: number;
  height: number;
}

/**
 * The report's screen drawings, each distinct one kept once: drawings are laid one under
 * another in SVG sprite files (`screens-<n>.svg`, a `<view>` per screen), in the order
 * pages first show them, a new file begun when one reaches about 256 KB. A page shows a
 * screen as `<img src="…/screens-3.svg#s12">` — an image, so it loads from file:// in
 * Chromium, where an SVG `<use>` of another file is refused, and runs nothing.
 */
export class ScreenSprites {
  readonly #byContent = new Map<string, SpriteRef>();
  readonly #files: OpenFile[] = [];
  readonly #fileBytes: number;

  constructor(options: { readonly fileBytes?: number } = {}) {
    this.#fileBytes = options.fileBytes ?? defaultFileBytes;
  }

  /** The drawing's place, added to the open sprite file when no identical drawing is there yet. */
  add(drawing: ScreenDrawing): SpriteRef {
    const key = `${drawing.width}x${drawing.height}:${drawing.markup.markup}`;
    const known = this.#byContent.get(key);
    if (known !== undefined) return known;
    let file = this.#files.at(-1);
    if (file === undefined || file.bytes >= this.#fileBytes) {
      file = { name: `screens-${this.#files.length}.svg`, parts: [], bytes: 0, width: 0, height: 0 };
      this.#files.push(file);
    }
    const id = `s${this.#byContent.size}`;
    const top = file.height === 0 ? 0 : file.height + gap;
    file.parts.push(html`<view id="${id}" viewBox="0 ${top} ${drawing.width} ${drawing.height}"/><g transform="${`translate(0 ${top})`}">${drawing.markup}</g>\n`);
    file.bytes += drawing.markup.markup.length;
    file.width = Math.max(file.width, drawing.width);
    file.height = top + drawing.height;
    const ref: SpriteRef = { file: file.name, id, width: drawing.width, height: drawing.height };
    this.#byContent.set(key, ref);
    return ref;
  }

  /** Distinct drawings kept. */
  get count(): number {
    return this.#byContent.size;
  }

  /** Each sprite file's name and its SVG document. */
  files(): { readonly name: string; readonly markup: string }[] {
    return this.#files.map((file) => ({
      name: file.name,
      markup: html`<svg xmlns="http://www.w3.org/2000/svg" width="${file.width}" height="${file.height}" viewBox="${`0 0 ${file.width} ${file.height}`}"><style>${styleSheet(spriteStyle)}</style>\n${file.parts}</svg>\n`.markup,
    }));
  }
}
