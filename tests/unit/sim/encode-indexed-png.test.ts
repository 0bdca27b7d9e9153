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

  it('refuses a palette of more than 256 colours and scanlines of the wrong length', () => {
    const many: Rgb[] = Array.from({ length: 257 }, (_, index) => [index % 256, 0, 0]);
    expect(() => encodeIndexedPng(indexedScanlines(2, 2), 2, 2, many)).toThrow(/1 to 256 colours, got 257/);
    expect(() => encodeIndexedPng(new Uint8Array(4), 2, 2, [[0, 0, 0]])).toThrow(/4 bytes of scanlines for a 2×2 image \(6 expected\)/);
  });
});
