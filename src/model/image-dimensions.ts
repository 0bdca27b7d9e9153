/** Width and height of an image in pixels. */
export interface ImageDimensions {
  readonly width: number;
  readonly height: number;
}

const pngSignature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/**
 * The pixel size of a PNG (from its IHDR chunk) or a JPEG (from its first start-of-frame
 * marker), read from the header without decoding. Undefined when the bytes are neither,
 * or too short to say: callers decide what an unknown size costs.
 */
export function imageDimensions(bytes: Uint8Array): ImageDimensions | undefined {
  if (isPng(bytes)) return pngDimensions(bytes);
  if (bytes[0] === 0xff && bytes[1] === 0xd8) return jpegDimensions(bytes);
  return undefined;
}

function isPng(bytes: Uint8Array): boolean {
  return pngSignature.every((value, index) => bytes[index] === value);
}

function pngDimensions(bytes: Uint8Array): ImageDimensions | undefined {
  // Signature (8), chunk length (4), "IHDR" (4), then width and height, big-endian.
  if (bytes.length < 24 || String.fromCharCode(...bytes.subarray(12, 16)) !== 'IHDR') return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const width = view.getUint32(16);
  const height = view.getUint32(20);
  return width > 0 && height > 0 ? { width, height } : undefined;
}

function jpegDimensions(bytes: Uint8Array): ImageDimensions | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let offset = 2;
  while (offset + 4 <= bytes.length) {
    if (bytes[offset] !== 0xff) return undefined;
    const marker = bytes[offset + 1] ?? 0;
    // Fill bytes and markers without a length (RSTn, TEM) carry no segment.
    if (marker === 0xff) {
      offset += 1;
      continue;
    }
    if ((marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      offset += 2;
      continue;
    }
    const length = view.getUint16(offset + 2);
    // SOF0..SOF15 except DHT (C4), JPG (C8) and DAC (CC) hold the frame size.
    const isFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isFrame) {
      if (offset + 9 > bytes.length) return undefined;
      const height = view.getUint16(offset + 5);
      const width = view.getUint16(offset + 7);
      return width > 0 && height > 0 ? { width, height } : undefined;
    }
    offset += 2 + length;
  }
  return undefined;
}
