/** Which way a scroll moves content into view: `down` shows content further down (the finger moves up). */
export type ScrollDirection = 'up' | 'down' | 'left' | 'right';

const opposites: Readonly<Record<ScrollDirection, ScrollDirection>> = { up: 'down', down: 'up', left: 'right', right: 'left' };

/** The direction a recorder's word names (`up`, `DOWN`, … in any case); undefined for another word or none. */
export function scrollDirectionNamed(word: string | undefined): ScrollDirection | undefined {
  const lower = word?.toLowerCase();
  return lower !== undefined && Object.hasOwn(opposites, lower) ? (lower as ScrollDirection) : undefined;
}

/** The other way along the same axis: content moves `down` into view when the finger moves `up`. */
export function oppositeDirection(direction: ScrollDirection): ScrollDirection {
  return opposites[direction];
}
