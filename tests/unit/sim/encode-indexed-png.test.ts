import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { encodeIndexedPng, indexedScanlines, type Rgb } from '../../../src/sim/encode-indexed-png.js';
import { imageDimensions } from '../../../src/model/image-dimensions.js';

describe('encodeIndexedPng', () => {
  it('writes a palette PNG that a PNG decoder reads back pixel for pixel', () => {
    const palette: Rgb[] = [[250, 250, 250], [28, 28, 32], [214, 227, 255]];
    const width = 7;
    const height = 5;
    const scanlines = indexedScanlines(width, height);
    const expected: number[] = [];
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const index = (x + 2 * y) % 3;
        scanlines[y * (width + 1) + 1 + x] = index;
        expected.push(...(palette[index] as Rgb), 255);
      }
    }
    const png = encodeIndexedPng(scanlines, width, height, palette);
    expect(imageDimensions(png)).toEqual({ width, height });
    const decoded = PNG.sync.read(Buffer.from(png));
    expect([...decoded.data]).toEqual(expected);
    // Negative control: another pixel decodes to another colour.
    scanlines[1] = 1;
    expect([...PNG.sync.read(Buffer.from(encodeIndexedPng(scanlines, width, height, palette))).data]).not.toEqual(expected);
  });

  it('reads back rows that repeat the row above and rows that do not, and keeps repeated rows small', () => {
    const palette: Rgb[] = [[250, 250, 250], [28, 28, 32], [214, 227, 255], [255, 0, 0]];
    const width = 1080;
    const height = 2400;
    const paint = (noisy: boolean): Uint8Array => {
      const scanlines = indexedScanlines(width, height);
      for (let y = 0; y < height; y++) {
        for (let x = 0; x < width; x++) scanlines[y * (width + 1) + 1 + x] = noisy ? (x * 7 + y * 13) % 4 : ((y >> 7) + (x >> 8)) % 3;
      }
      // One row unlike the row above it, lower indices than above (the difference wraps).
      scanlines.fill(3, 1200 * (width + 1) + 1, 1200 * (width + 1) + 1 + 500);
      return scanlines;
    };
    const banded = paint(false);
    const copy = Buffer.from(banded);
    const png = encodeIndexedPng(banded, width, height, palette);
    expect(Buffer.from(banded).equals(copy)).toBe(true);
    const decoded = PNG.sync.read(Buffer.from(png));
    for (const [x, y] of [[0, 0], [300, 1199], [300, 1200], [700, 1200], [300, 1201], [1079, 2399]] as const) {
      const index = banded[y * (width + 1) + 1 + x] ?? -1;
      expect([...decoded.data.subarray((y * width + x) * 4, (y * width + x) * 4 + 3)], `pixel ${x},${y}`).toEqual([...(palette[index] ?? [])]);
    }
    // Rows deflated unfiltered at level 3 took 40,676 bytes here.
    expect(png.length).toBeLessThan(10_000);
    // Negative control: rows that never repeat cost far more.
    expect(encodeIndexedPng(paint(true), width, height, palette).length).toBeGreaterThan(100_000);
  });

  it('refuses a palette of more than 256 colours and scanlines of the wrong length', () => {
    const many: Rgb[] = Array.from({ length: 257 }, (_, index) => [index % 256, 0, 0]);
    expect(() => encodeIndexedPng(indexedScanlines(2, 2), 2, 2, many)).toThrow(/1 to 256 colours, got 257/);
    expect(() => encodeIndexedPng(new Uint8Array(4), 2, 2, [[0, 0, 0]])).toThrow(/4 bytes of scanlines for a 2×2 image \(6 expected\)/);
  });
});
