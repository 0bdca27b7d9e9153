const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

/**
 * The text of UTF-8 bytes, as `Buffer#toString('utf8')` gives it (a byte-order mark is
 * kept, a malformed sequence becomes U+FFFD). Functions that hand out file bytes return
 * `Uint8Array`, not `Buffer`, so their published types need no Node type definitions.
 */
export function utf8Text(bytes: Uint8Array): string {
  return decoder.decode(bytes);
}
