import type { Bounds } from './ui-tree.js';

/** The empty rectangle. */
export const emptyBounds: Bounds = [0, 0, 0, 0];

/** Width × height in device pixels; 0 for empty or inverted rectangles. */
export function boundsArea(bounds: Bounds): number {
  const width = bounds[2] - bounds[0];
  const height = bounds[3] - bounds[1];
  return width > 0 && height > 0 ? width * height : 0;
}

/** True for right < left or bottom < top: a view clipped or scrolled partly off screen, as devices report it (zero area). */
export function isInvertedBounds(bounds: Bounds): boolean {
  return bounds[2] < bounds[0] || bounds[3] < bounds[1];
}

/** Width in device pixels; 0 for inverted rectangles. */
export function boundsWidth(bounds: Bounds): number {
  return Math.max(0, bounds[2] - bounds[0]);
}

/** Height in device pixels; 0 for inverted rectangles. */
export function boundsHeight(bounds: Bounds): number {
  return Math.max(0, bounds[3] - bounds[1]);
}

/** Intersection of two rectangles; `emptyBounds` when they do not overlap. */
export function intersectBounds(a: Bounds, b: Bounds): Bounds {
  const left = Math.max(a[0], b[0]);
  const top = Math.max(a[1], b[1]);
  const right = Math.min(a[2], b[2]);
  const bottom = Math.min(a[3], b[3]);
  return right > left && bottom > top ? [left, top, right, bottom] : emptyBounds;
}

/** Clips a rectangle to a `width` × `height` screen anchored at (0, 0). */
export function clipToScreen(bounds: Bounds, width: number, height: number): Bounds {
  return intersectBounds(bounds, [0, 0, width, height]);
}

/** Intersection over union in [0, 1]; 0 when either rectangle is empty. */
export function boundsIou(a: Bounds, b: Bounds): number {
  const intersection = boundsArea(intersectBounds(a, b));
  if (intersection === 0) return 0;
  return intersection / (boundsArea(a) + boundsArea(b) - intersection);
}

/** Integer centre point `[x, y]` (floored), inside the rectangle whenever it is non-empty. */
export function boundsCentre(bounds: Bounds): readonly [x: number, y: number] {
  return [Math.floor((bounds[0] + bounds[2]) / 2), Math.floor((bounds[1] + bounds[3]) / 2)];
}

/** True when both rectangles have the same four edges. */
export function sameBounds(a: Bounds, b: Bounds): boolean {
  return a[0] === b[0] && a[1] === b[1] && a[2] === b[2] && a[3] === b[3];
}

/** True when the point lies inside the rectangle (right/bottom exclusive). */
export function boundsContainsPoint(bounds: Bounds, point: readonly [number, number]): boolean {
  return point[0] >= bounds[0] && point[0] < bounds[2] && point[1] >= bounds[1] && point[1] < bounds[3];
}

/** True when `inner` lies entirely inside `outer`. */
export function boundsContains(outer: Bounds, inner: Bounds): boolean {
  return inner[0] >= outer[0] && inner[1] >= outer[1] && inner[2] <= outer[2] && inner[3] <= outer[3];
}

/** Smallest rectangle covering both (an empty rectangle is ignored). */
export function unionBounds(a: Bounds, b: Bounds): Bounds {
  if (boundsArea(a) === 0) return b;
  if (boundsArea(b) === 0) return a;
  return [Math.min(a[0], b[0]), Math.min(a[1], b[1]), Math.max(a[2], b[2]), Math.max(a[3], b[3])];
}

/** `[l,t][r,b]` as Android writes bounds. */
export function formatBounds(bounds: Bounds): string {
  return `[${bounds[0]},${bounds[1]}][${bounds[2]},${bounds[3]}]`;
}

const boundsPattern = /^\s*\[\s*(-?\d+)\s*,\s*(-?\d+)\s*\]\s*\[\s*(-?\d+)\s*,\s*(-?\d+)\s*\]\s*$/;

/** The largest coordinate a device can report (a 32-bit signed int); beyond it a dump is damaged. */
export const maxCoordinate = 2 ** 31 - 1;
/**
 * The smallest: -2^31, one further from zero than `maxCoordinate`. A view that was never
 * laid out reports the two ends of the range (`[2147483647,2147483647][-2147483648,-2147483648]`
 * in DroidBot states): an inverted rectangle like any other, kept with no area.
 */
export const minCoordinate = -(2 ** 31);

/** True when `value` is an integer a device could report as a coordinate (a 32-bit signed int). */
export function isDeviceCoordinate(value: number): boolean {
  return Number.isInteger(value) && value >= minCoordinate && value <= maxCoordinate;
}

/**
 * Parses Android's `[l,t][r,b]` form. Returns undefined for anything else, including
 * coordinates beyond 32 bits (the parser turns that into a `HierarchyParseError` with the
 * position). Inverted rectangles are kept: real dumps hold them (views scrolled away).
 */
export function parseBounds(text: string): Bounds | undefined {
  const match = boundsPattern.exec(text);
  if (!match) return undefined;
  const bounds: Bounds = [Number(match[1]), Number(match[2]), Number(match[3]), Number(match[4])];
  return bounds.every(isDeviceCoordinate) ? bounds : undefined;
}
