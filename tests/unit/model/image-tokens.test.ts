import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { imageDimensions } from '../../../src/model/image-dimensions.js';
import { estimateImageTokens, highDetailSize, imageTokens, maxHighDetailImageTokens } from '../../../src/model/image-tokens.js';
import { Simulator } from '../../../src/sim/simulator.js';

function png(width: number, height: number): Uint8Array {
  return new Uint8Array(PNG.sync.write(new PNG({ width, height })));
}

/** The smallest JPEG header that says its size: SOI, an APP0 segment, then SOF0. */
function jpegHeader(width: number, height: number): Uint8Array {
  const app0 = [0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00];
  const sof0 = [0xff, 0xc0, 0x00, 0x11, 0x08, height >> 8, height & 0xff, width >> 8, width & 0xff, 0x03];
  return new Uint8Array([0xff, 0xd8, ...app0, ...sof0, 0x01, 0x22, 0x00]);
}

describe('imageTokens (OpenAI tile formula)', () => {
  it("reproduces the vision guide's worked examples", () => {
    expect(imageTokens({ width: 1024, height: 1024 }, 'high')).toBe(765);
    expect(imageTokens({ width: 2048, height: 4096 }, 'high')).toBe(1105);
    expect(imageTokens({ width: 4096, height: 8192 }, 'low')).toBe(85);
  });

  it('costs a 1080×2400 phone screenshot at 8 tiles and the 360×800 sim screenshot at 2', () => {
    expect(highDetailSize({ width: 1080, height: 2400 })).toEqual({ width: 768, height: 1707 });
    expect(imageTokens({ width: 1080, height: 2400 }, 'high')).toBe(85 + 8 * 170);
    expect(imageTokens({ width: 360, height: 800 }, 'high')).toBe(85 + 2 * 170);
    expect(imageTokens({ width: 1080, height: 2400 }, 'low')).toBe(85);
  });

  it('never scales a small image up, and counts auto and an unset detail as high', () => {
    expect(imageTokens({ width: 100, height: 100 }, 'high')).toBe(255);
    expect(imageTokens({ width: 513, height: 100 }, 'auto')).toBe(425);
    expect(imageTokens({ width: 513, height: 513 }, undefined)).toBe(765);
  });

  it('counts an image of unknown size at the most high detail can cost', () => {
    expect(maxHighDetailImageTokens).toBe(1445);
    expect(imageTokens(undefined, 'high')).toBe(1445);
    expect(imageTokens(undefined, 'low')).toBe(85);
  });
});

describe('imageDimensions', () => {
  it('reads PNG and JPEG headers', () => {
    expect(imageDimensions(png(360, 800))).toEqual({ width: 360, height: 800 });
    expect(imageDimensions(jpegHeader(1080, 2400))).toEqual({ width: 1080, height: 2400 });
  });

  it('says nothing for bytes that are neither, or cut before the size', () => {
    expect(imageDimensions(new Uint8Array(10))).toBeUndefined();
    expect(imageDimensions(png(360, 800).subarray(0, 20))).toBeUndefined();
    expect(imageDimensions(jpegHeader(1080, 2400).subarray(0, 24))).toBeUndefined();
  });

  it("costs the simulator's real screenshot by its size", () => {
    const screenshot = new Simulator({ seed: 1 }).screenshotPng();
    expect(imageDimensions(screenshot)).toEqual({ width: 1080, height: 2400 });
    expect(estimateImageTokens({ png: screenshot, detail: 'high' })).toBe(1445);
    expect(estimateImageTokens({ png: screenshot, detail: 'low' })).toBe(85);
  });
});
