import type { Size, Widget } from './widget.js';

/** Pixel rectangle `[left, top, right, bottom]`, right/bottom exclusive. */
export type PixelRect = readonly [number, number, number, number];

/**
 * One laid-out node: what a renderer prints and what hit-testing walks. `bounds` are the
 * on-screen (clipped) pixel bounds, as UiAutomator reports them; `fullRect` is the
 * unclipped rectangle.
 */
export interface LaidNode {
  readonly widget: Widget;
  readonly cls: string;
  readonly pkg: string;
  readonly resourceId: string;
  text: string;
  desc: string;
  readonly hint: string;
  /** The node is an empty field whose hint is shown (Appium's `showing-hint`). */
  readonly showingHint: boolean;
  readonly clickable: boolean;
  readonly longClickable: boolean;
  readonly checkable: boolean;
  readonly checked: boolean;
  readonly enabled: boolean;
  readonly focusable: boolean;
  readonly focused: boolean;
  readonly selected: boolean;
  readonly scrollable: boolean;
  readonly password: boolean;
  readonly bounds: PixelRect;
  readonly fullRect: PixelRect;
  readonly index: number;
  readonly drawingOrder: number;
  readonly children: LaidNode[];
}

/** Scroll extents found during layout, by scroll key: how far each container can scroll (px). */
export type ScrollExtents = Map<string, { readonly max: number; readonly viewport: PixelRect }>;

/** What the layout needs besides the tree. */
export interface LayoutContext {
  /** px per dp (`density / 160`). */
  readonly scale: number;
  /** Package for nodes that do not override it. */
  readonly pkg: string;
  /** Scroll offsets (px) by scroll key. */
  readonly scrollOffsets: ReadonlyMap<string, number>;
  /** The focused field's key, if any. */
  readonly focusedField: string | undefined;
  /** Filled with each scroll container's extent. */
  readonly extents: ScrollExtents;
  /**
   * Empty text fields report their hint as `text` too (what real Android 8+ devices do:
   * TextView exposes the hint as accessibility text). Default false: `text=""`.
   */
  readonly hintAsText?: boolean | undefined;
  /**
   * Told where the focused field ended up (unclipped) and which scroll container holds
   * it, even when it is scrolled out of view; the engine uses it to scroll the field
   * into view as Android does when the keyboard opens.
   */
  readonly onFocusedField?: ((rect: PixelRect, scrollKey: string | undefined) => void) | undefined;
  /** Optional reordering of a scroll container's children (the `shuffle` fault). */
  readonly reorder?: ((scrollKey: string, count: number) => readonly number[] | undefined) | undefined;
}

const defaultFontSp = 16;
/** Average glyph advance as a share of the font size (Roboto is about 0.55). */
const glyphAdvance = 0.55;
const lineHeightFactor = 1.4;

interface Box {
  readonly x: number;
  readonly y: number;
  readonly w: number;
  readonly h: number;
}

function paddingOf(widget: Widget, scale: number): [number, number, number, number] {
  const p = widget.padding;
  if (p === undefined) return [0, 0, 0, 0];
  if (typeof p === 'number') {
    const v = Math.round(p * scale);
    return [v, v, v, v];
  }
  return [Math.round(p[0] * scale), Math.round(p[1] * scale), Math.round(p[2] * scale), Math.round(p[3] * scale)];
}

function fontPx(widget: Widget, scale: number): number {
  return (widget.fontSize ?? defaultFontSp) * scale;
}

function visibleText(widget: Widget): string {
  const text = widget.text ?? '';
  return text === '' ? (widget.hint ?? '') : text;
}

function textWidth(widget: Widget, scale: number): number {
  const text = visibleText(widget);
  const longest = text.split('\n').reduce((m, line) => Math.max(m, line.length), 0);
  return Math.ceil(longest * fontPx(widget, scale) * glyphAdvance);
}

function textLines(widget: Widget, innerWidth: number, scale: number): number {
  const text = visibleText(widget);
  if (text === '') return 0;
  const perLine = Math.max(1, Math.floor(innerWidth / (fontPx(widget, scale) * glyphAdvance)));
  return text.split('\n').reduce((n, line) => n + Math.max(1, Math.ceil(line.length / perLine)), 0);
}

function isLeaf(widget: Widget): boolean {
  return (widget.children ?? []).length === 0;
}

function mainAxis(widget: Widget): 'column' | 'row' | 'stack' {
  return widget.layout ?? 'column';
}

// Measurements are pure functions of (widget, width, scale); widgets are immutable and
// built fresh per render, so memoising by object identity keeps layout linear.
interface Measure {
  scale: number;
  width: number;
  value: number;
}
const widthMemo = new WeakMap<Widget, Measure>();
const heightMemo = new WeakMap<Widget, Measure>();

/** Width this widget wants when its parent lets it choose (`wrap`). */
function wrapWidth(widget: Widget, scale: number): number {
  const memo = widthMemo.get(widget);
  if (memo !== undefined && memo.scale === scale) return memo.value;
  const value = computeWrapWidth(widget, scale);
  widthMemo.set(widget, { scale, width: 0, value });
  return value;
}

function computeWrapWidth(widget: Widget, scale: number): number {
  const [pl, , pr] = paddingOf(widget, scale);
  if (isLeaf(widget)) {
    const iconPx = widget.icon !== undefined && visibleText(widget) === '' ? 24 * scale : 0;
    return Math.max(textWidth(widget, scale), iconPx) + pl + pr;
  }
  const children = widget.children ?? [];
  const gap = Math.round((widget.gap ?? 0) * scale);
  const sizes = children.map((child) => preferredWidth(child, scale, 0));
  const inner =
    mainAxis(widget) === 'row'
      ? sizes.reduce((a, b) => a + b, 0) + gap * Math.max(0, children.length - 1)
      : sizes.reduce((a, b) => Math.max(a, b), 0);
  return inner + pl + pr;
}

function preferredWidth(widget: Widget, scale: number, available: number): number {
  const w: Size = widget.width ?? 'wrap';
  if (typeof w === 'number') return Math.round(w * scale);
  if (w === 'fill') return available;
  return wrapWidth(widget, scale);
}

/** Height this widget wants at a given width (`wrap`). */
function wrapHeight(widget: Widget, width: number, scale: number): number {
  const memo = heightMemo.get(widget);
  if (memo !== undefined && memo.scale === scale && memo.width === width) return memo.value;
  const value = computeWrapHeight(widget, width, scale);
  if (memo === undefined) heightMemo.set(widget, { scale, width, value });
  else {
    memo.scale = scale;
    memo.width = width;
    memo.value = value;
  }
  return value;
}

function computeWrapHeight(widget: Widget, width: number, scale: number): number {
  const [pl, pt, pr, pb] = paddingOf(widget, scale);
  const innerW = Math.max(0, width - pl - pr);
  if (isLeaf(widget)) {
    const textH = Math.ceil(textLines(widget, innerW, scale) * fontPx(widget, scale) * lineHeightFactor);
    const iconH = widget.icon !== undefined ? 24 * scale : 0;
    return Math.max(textH, iconH) + pt + pb;
  }
  const children = widget.children ?? [];
  const gap = Math.round((widget.gap ?? 0) * scale);
  const axis = mainAxis(widget);
  if (axis === 'row') {
    const widths = rowWidths(widget, innerW, scale);
    const heights = children.map((child, i) => childHeight(child, widths[i] ?? 0, scale, undefined));
    return heights.reduce((a, b) => Math.max(a, b), 0) + pt + pb;
  }
  const heights = children.map((child) => childHeight(child, crossWidth(widget, child, innerW, scale), scale, undefined));
  const inner = axis === 'column' ? heights.reduce((a, b) => a + b, 0) + gap * Math.max(0, children.length - 1) : heights.reduce((a, b) => Math.max(a, b), 0);
  return inner + pt + pb;
}

function childHeight(child: Widget, width: number, scale: number, fillValue: number | undefined): number {
  const h: Size = child.height ?? 'wrap';
  if (typeof h === 'number') return Math.round(h * scale);
  if (h === 'fill' && fillValue !== undefined) return fillValue;
  return wrapHeight(child, width, scale);
}

function crossWidth(parent: Widget, child: Widget, innerW: number, scale: number): number {
  const align = parent.align ?? 'stretch';
  const w: Size = child.width ?? (align === 'stretch' ? 'fill' : 'wrap');
  if (typeof w === 'number') return Math.round(w * scale);
  if (w === 'fill') return innerW;
  return Math.min(innerW, wrapWidth(child, scale));
}

function rowWidths(widget: Widget, innerW: number, scale: number): number[] {
  const children = widget.children ?? [];
  const gap = Math.round((widget.gap ?? 0) * scale);
  const fixed = children.map((child) => {
    const w: Size = child.width ?? 'wrap';
    if (w === 'fill') return undefined;
    return typeof w === 'number' ? Math.round(w * scale) : wrapWidth(child, scale);
  });
  const used = fixed.reduce<number>((a, b) => a + (b ?? 0), 0) + gap * Math.max(0, children.length - 1);
  const fillCount = fixed.filter((v) => v === undefined).length;
  const share = fillCount > 0 ? Math.max(0, Math.floor((innerW - used) / fillCount)) : 0;
  return fixed.map((v) => v ?? share);
}

function intersect(a: PixelRect, b: PixelRect): PixelRect | undefined {
  const l = Math.max(a[0], b[0]);
  const t = Math.max(a[1], b[1]);
  const r = Math.min(a[2], b[2]);
  const bt = Math.min(a[3], b[3]);
  if (r <= l || bt <= t) return undefined;
  return [l, t, r, bt];
}

function resourceIdOf(widget: Widget, pkg: string): string {
  const id = widget.id;
  if (id === undefined || id === '') return '';
  return id.includes(':') ? id : `${pkg}:id/${id}`;
}

/**
 * Lays a window's widget tree out in `box` (pixels) and returns the root node. Children
 * of scroll containers that end up fully outside the viewport are left out, and partly
 * visible ones get clipped bounds, as UiAutomator reports only what is on screen.
 */
export function layoutWindow(root: Widget, box: PixelRect, context: LayoutContext): LaidNode {
  const node = place(root, { x: box[0], y: box[1], w: box[2] - box[0], h: box[3] - box[1] }, box, 0, 0, context, undefined);
  if (node === undefined) throw new Error(`layoutWindow: window root ${root.cls} has zero area in ${JSON.stringify(box)}`);
  return node;
}

function place(widget: Widget, box: Box, clip: PixelRect, index: number, drawingOrder: number, context: LayoutContext, scrollKey: string | undefined): LaidNode | undefined {
  const fullRect: PixelRect = [box.x, box.y, box.x + box.w, box.y + box.h];
  if (widget.field !== undefined && widget.field.key === context.focusedField) context.onFocusedField?.(fullRect, scrollKey);
  const bounds = intersect(fullRect, clip);
  if (bounds === undefined) {
    // Scrolled out of view: still say where the focused field is (its enclosing box will do).
    const focused = context.focusedField;
    if (focused !== undefined && context.onFocusedField !== undefined && holdsField(widget, focused)) context.onFocusedField(fullRect, scrollKey);
    return undefined;
  }
  const pkg = widget.pkg ?? context.pkg;
  const flags = widget.flags ?? {};
  const showingHint = (widget.text ?? '') === '' && (widget.hint ?? '') !== '';
  const node: LaidNode = {
    widget,
    cls: widget.cls,
    pkg,
    resourceId: resourceIdOf(widget, pkg),
    // A password field shows bullets, as Android reports it to accessibility.
    text: showingHint && context.hintAsText === true ? (widget.hint ?? '') : flags.password === true ? '•'.repeat([...(widget.text ?? '')].length) : (widget.text ?? ''),
    desc: widget.desc ?? '',
    hint: widget.hint ?? '',
    showingHint,
    clickable: flags.clickable ?? false,
    longClickable: flags.longClickable ?? widget.onLongPress !== undefined,
    checkable: flags.checkable ?? false,
    checked: flags.checked ?? false,
    enabled: flags.enabled ?? true,
    focusable: flags.focusable ?? false,
    focused: widget.field !== undefined && widget.field.key === context.focusedField,
    selected: flags.selected ?? false,
    scrollable: flags.scrollable ?? false,
    password: flags.password ?? false,
    bounds,
    fullRect,
    index,
    drawingOrder,
    children: [],
  };
  const children = widget.children ?? [];
  if (children.length === 0) return node;
  const scale = context.scale;
  const [pl, pt, pr, pb] = paddingOf(widget, scale);
  const inner: Box = { x: box.x + pl, y: box.y + pt, w: Math.max(0, box.w - pl - pr), h: Math.max(0, box.h - pt - pb) };
  const gap = Math.round((widget.gap ?? 0) * scale);
  const axis = mainAxis(widget);
  const childClip = widget.scroll !== undefined ? bounds : clip;
  const boxes: Box[] = [];
  let order: readonly number[] = children.map((_, i) => i);
  if (widget.scroll?.shuffle === true && context.reorder !== undefined) {
    order = context.reorder(widget.scroll.key, children.length) ?? order;
  }
  const ordered = order.map((i) => children[i] as Widget);
  const align = widget.align ?? 'stretch';
  if (axis === 'column') {
    const widths = ordered.map((child) => crossWidth(widget, child, inner.w, scale));
    const natural = ordered.map((child, i) => ((child.height ?? 'wrap') === 'fill' ? undefined : childHeight(child, widths[i] ?? 0, scale, undefined)));
    const isScroll = widget.scroll !== undefined;
    const used = natural.reduce<number>((a, b) => a + (b ?? 0), 0) + gap * Math.max(0, ordered.length - 1);
    const fillCount = natural.filter((v) => v === undefined).length;
    const fillEach = fillCount > 0 && !isScroll ? Math.max(0, Math.floor((inner.h - used) / fillCount)) : 0;
    const heights = ordered.map((child, i) => natural[i] ?? (isScroll ? wrapHeight(child, widths[i] ?? 0, scale) : fillEach));
    const total = heights.reduce((a, b) => a + b, 0) + gap * Math.max(0, ordered.length - 1);
    let y = inner.y + justifyStart(widget.justify, inner.h - total, isScroll || fillCount > 0);
    const between = widget.justify === 'space-between' && ordered.length > 1 && !isScroll ? Math.max(0, Math.floor((inner.h - total) / (ordered.length - 1))) : 0;
    if (isScroll && widget.scroll !== undefined) {
      const max = Math.max(0, total - inner.h);
      context.extents.set(widget.scroll.key, { max, viewport: bounds });
      y -= Math.min(max, Math.max(0, context.scrollOffsets.get(widget.scroll.key) ?? 0));
    }
    ordered.forEach((child, i) => {
      const w = widths[i] ?? 0;
      const h = heights[i] ?? 0;
      boxes.push({ x: inner.x + crossOffset(align, inner.w - w), y, w, h });
      y += h + gap + between;
    });
  } else if (axis === 'row') {
    const widths = rowWidths({ ...widget, children: ordered }, inner.w, scale);
    const total = widths.reduce((a, b) => a + b, 0) + gap * Math.max(0, ordered.length - 1);
    const hasFill = ordered.some((child) => child.width === 'fill');
    let x = inner.x + justifyStart(widget.justify, inner.w - total, hasFill);
    const between = widget.justify === 'space-between' && ordered.length > 1 ? Math.max(0, Math.floor((inner.w - total) / (ordered.length - 1))) : 0;
    ordered.forEach((child, i) => {
      const w = widths[i] ?? 0;
      const hSize: Size = child.height ?? (align === 'stretch' ? 'fill' : 'wrap');
      const h = hSize === 'fill' ? inner.h : Math.min(inner.h, childHeight(child, w, scale, inner.h));
      boxes.push({ x, y: inner.y + crossOffset(align, inner.h - h), w, h });
      x += w + gap + between;
    });
  } else {
    for (const child of ordered) {
      const w = crossWidth({ ...widget, align: child.width === undefined ? 'stretch' : align }, child, inner.w, scale);
      const hSize: Size = child.height ?? 'fill';
      const h = hSize === 'fill' ? inner.h : Math.min(inner.h, childHeight(child, w, scale, inner.h));
      boxes.push({ x: inner.x + crossOffset(align, inner.w - w), y: inner.y + crossOffset(widget.justify === 'end' ? 'end' : widget.justify === 'center' ? 'center' : 'start', inner.h - h), w, h });
    }
  }
  let kept = 0;
  ordered.forEach((child, i) => {
    const childBox = boxes[i];
    if (childBox === undefined) return;
    const laid = place(child, childBox, childClip, kept, kept + 1, context, widget.scroll?.key ?? scrollKey);
    if (laid !== undefined) {
      node.children.push(laid);
      kept += 1;
    }
  });
  return node;
}

function holdsField(widget: Widget, key: string): boolean {
  if (widget.field?.key === key) return true;
  return (widget.children ?? []).some((child) => holdsField(child, key));
}

function justifyStart(justify: Widget['justify'], spare: number, hasFill: boolean): number {
  if (hasFill || spare <= 0) return 0;
  if (justify === 'center') return Math.floor(spare / 2);
  if (justify === 'end') return spare;
  return 0;
}

function crossOffset(align: NonNullable<Widget['align']>, spare: number): number {
  if (spare <= 0) return 0;
  if (align === 'center') return Math.floor(spare / 2);
  if (align === 'end') return spare;
  return 0;
}

/** Height in px a widget would take at `width` px; used to size dialogs and sheets. */
export function measureHeight(widget: Widget, width: number, scale: number): number {
  return childHeight(widget, width, scale, undefined);
}
