/**
 * 32-bit FNV-1a over the UTF-16 code units of `text`. Deterministic across runs and
 * platforms; used for ids and fingerprints, never for security.
 */
export function stableHash(text: string, seed = 0x811c9dc5): number {
  let hash = seed >>> 0;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}

/** `stableHash` as fixed-width lowercase hex (8 characters). */
export function stableHashHex(text: string, seed?: number): string {
  return stableHash(text, seed).toString(16).padStart(8, '0');
}
