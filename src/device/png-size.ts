const signature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** Width and height from a PNG's IHDR chunk; throws when `png` is not a PNG. */
export function pngSize(png: Uint8Array): { width: number; height: number } {
  if (png.length < 24 || signature.some((byte, index) => png[index] !== byte)) {
    throw new Error(`Expected a PNG screenshot, got ${png.length} bytes starting with ${Array.from(png.subarray(0, 8), (byte) => byte.toString(16).padStart(2, '0')).join(' ')}.`);
  }
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}
