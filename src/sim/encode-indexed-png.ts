import { crc32, deflateSync } from 'node:zlib';

/** An RGB colour, 0–255 per channel. */
export type Rgb = readonly [number, number, number];

const signature = Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a);

function chunk(type: string, data: Uint8Array): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  out.set(data, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

/**
 * Pixels of an indexed image as PNG scanlines: row `y` starts at `y * (width + 1)` with its
 * filter byte (0, none), then one palette index per pixel. Paint at `y * (width + 1) + 1 + x`.
 */
export function indexedScanlines(width: number, height: number): Uint8Array {
  return new Uint8Array((width + 1) * height);
}

/**
 * A palette PNG (colour type 3, 8 bits per pixel) of `scanlines` ({@link indexedScanlines}).
 * Rows go out unfiltered: a wireframe's rows repeat, and deflate's matches at one row's
 * distance take them for almost nothing; one byte a pixel instead of four, painted in
 * place, is what keeps a 1080×2400 screenshot cheap to encode (about 15 ms). Throws when the
 * palette has more than 256 colours or the scanlines do not fit `width × height`.
 */
export function encodeIndexedPng(scanlines: Uint8Array, width: number, height: number, palette: readonly Rgb[]): Uint8Array {
  if (palette.length === 0 || palette.length > 256) throw new RangeError(`encodeIndexedPng: a palette holds 1 to 256 colours, got ${palette.length}`);
  if (scanlines.length !== (width + 1) * height) throw new RangeError(`encodeIndexedPng: ${scanlines.length} bytes of scanlines for a ${width}×${height} image (${(width + 1) * height} expected)`);
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 3, 0, 0, 0], 8);
  const colours = new Uint8Array(palette.length * 3);
  palette.forEach((colour, index) => colours.set(colour, index * 3));
  // Level 3: a tenth of level 6's time on these images, for about twice the bytes.
  const data = deflateSync(scanlines, { level: 3 });
  return Buffer.concat([signature, chunk('IHDR', header), chunk('PLTE', colours), chunk('IDAT', data), chunk('IEND', new Uint8Array(0))]);
}
