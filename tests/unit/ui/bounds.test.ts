import { describe, expect, it } from 'vitest';
import { boundsArea, boundsCentre, boundsContains, boundsContainsPoint, boundsIou, clipToScreen, formatBounds, intersectBounds, parseBounds, unionBounds } from '../../../src/ui/bounds.js';

describe('bounds', () => {
  it('area is zero for empty and inverted rectangles (devices report inverted ones for clipped views)', () => {
    expect(boundsArea([0, 0, 10, 20])).toBe(200);
    expect(boundsArea([10, 10, 10, 50])).toBe(0);
    expect(boundsArea([0, 220, 1080, 28])).toBe(0);
  });

  it('intersects, clips to the screen and unions', () => {
    expect(intersectBounds([0, 0, 100, 100], [50, 50, 150, 150])).toEqual([50, 50, 100, 100]);
    expect(intersectBounds([0, 0, 10, 10], [10, 0, 20, 10])).toEqual([0, 0, 0, 0]);
    expect(clipToScreen([-20, 2300, 200, 2600], 1080, 2400)).toEqual([0, 2300, 200, 2400]);
    expect(clipToScreen([0, 2500, 100, 2600], 1080, 2400)).toEqual([0, 0, 0, 0]);
    expect(unionBounds([0, 0, 10, 10], [20, 5, 30, 40])).toEqual([0, 0, 30, 40]);
    expect(unionBounds([0, 0, 0, 0], [20, 5, 30, 40])).toEqual([20, 5, 30, 40]);
  });

  it('IoU is 1 for equal, 0 for disjoint, and symmetric', () => {
    expect(boundsIou([0, 0, 10, 10], [0, 0, 10, 10])).toBe(1);
    expect(boundsIou([0, 0, 10, 10], [20, 20, 30, 30])).toBe(0);
    expect(boundsIou([0, 0, 10, 10], [5, 0, 15, 10])).toBeCloseTo(50 / 150);
    expect(boundsIou([5, 0, 15, 10], [0, 0, 10, 10])).toBe(boundsIou([0, 0, 10, 10], [5, 0, 15, 10]));
    expect(boundsIou([0, 0, 0, 0], [0, 0, 0, 0])).toBe(0);
  });

  it('centre lies inside, right/bottom are exclusive', () => {
    expect(boundsCentre([0, 0, 11, 11])).toEqual([5, 5]);
    expect(boundsCentre([10, 10, 11, 11])).toEqual([10, 10]);
    expect(boundsContainsPoint([0, 0, 10, 10], [9, 9])).toBe(true);
    expect(boundsContainsPoint([0, 0, 10, 10], [10, 5])).toBe(false);
    expect(boundsContains([0, 0, 10, 10], [2, 2, 10, 10])).toBe(true);
    expect(boundsContains([0, 0, 10, 10], [2, 2, 11, 10])).toBe(false);
  });

  it('parses and formats the Android [l,t][r,b] form, with negative coordinates', () => {
    expect(parseBounds('[0,84][1440,2392]')).toEqual([0, 84, 1440, 2392]);
    expect(parseBounds('[-12,-3][5,6]')).toEqual([-12, -3, 5, 6]);
    expect(parseBounds('[0,0][1,]')).toBeUndefined();
    expect(parseBounds('0,0,1,1')).toBeUndefined();
    expect(formatBounds([1, 2, 3, 4])).toBe('[1,2][3,4]');
  });
});
