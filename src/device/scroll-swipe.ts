import type { ScrollDirection } from '../ui/scroll-direction.js';

export type { ScrollDirection };

/** The way a scroll goes when none is named. */
export const defaultScrollDirection: ScrollDirection = 'down';

/** Default share of the container a scroll covers. */
export const defaultScrollPercent = 0.7;

/**
 * The finger path that scrolls the container with `bounds` (`[left, top, right, bottom]`,
 * device pixels) by `percent` of its size, centred in it. The end points stay inside the
 * container (right/bottom are exclusive).
 */
export function scrollSwipe(bounds: readonly [number, number, number, number], direction: ScrollDirection, percent = defaultScrollPercent): { from: [number, number]; to: [number, number] } {
  const [left, top, right, bottom] = bounds;
  const centerX = Math.floor((left + right - 1) / 2);
  const centerY = Math.floor((top + bottom - 1) / 2);
  const halfX = Math.floor(((right - left - 1) * percent) / 2);
  const halfY = Math.floor(((bottom - top - 1) * percent) / 2);
  switch (direction) {
    case 'down':
      return { from: [centerX, centerY + halfY], to: [centerX, centerY - halfY] };
    case 'up':
      return { from: [centerX, centerY - halfY], to: [centerX, centerY + halfY] };
    case 'right':
      return { from: [centerX + halfX, centerY], to: [centerX - halfX, centerY] };
    case 'left':
      return { from: [centerX - halfX, centerY], to: [centerX + halfX, centerY] };
  }
}
