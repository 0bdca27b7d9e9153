/** The encodings a dump file is read in. */
export type DumpEncoding = 'utf-8' | 'utf-16le' | 'utf-16be';

/**
 * The text of a dump file from its bytes: UTF-8 and UTF-16 (little or big endian) with a
 * byte-order mark, UTF-16 without one when the file starts with `<` or `{` (a Windows
 * `uiautomator dump > file` redirect writes UTF-16), else UTF-8. The mark is dropped.
 */
export function decodeDumpBytes(bytes: Uint8Array): { text: string; encoding: DumpEncoding } {
  const encoding = dumpEncoding(bytes);
  const bom = encoding === 'utf-8' ? (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0) : (bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff) ? 2 : 0;
  return { text: new TextDecoder(encoding, { ignoreBOM: true }).decode(bytes.subarray(bom)), encoding };
}

function dumpEncoding(bytes: Uint8Array): DumpEncoding {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  const first = (byte: number | undefined): boolean => byte === 0x3c || byte === 0x7b;
  if (first(bytes[0]) && bytes[1] === 0) return 'utf-16le';
  if (bytes[0] === 0 && first(bytes[1])) return 'utf-16be';
  return 'utf-8';
}
