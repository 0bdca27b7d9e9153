import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';

/**
 * The bytes a file holds as a reader sees them: a gzip file (by its magic bytes: a
 * compact trace store's pack, gzip members back to back, or a closed compact run's
 * `trace.jsonl.gz`) decompressed whole, any other file as is. A search for a secret in
 * written files must look through the compression.
 */
export function readableBytes(file: string): Buffer {
  const bytes = readFileSync(file);
  return bytes.length > 1 && bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes) : bytes;
}
