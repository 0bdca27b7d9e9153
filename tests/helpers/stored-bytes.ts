import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';

/**
 * The bytes a file holds as a reader sees them: a compact trace store's pack
 * (`*.pack`, gzip members back to back) decompressed whole, any other file as is. A
 * search for a secret in written files must look through the compression.
 */
export function readableBytes(file: string): Buffer {
  const bytes = readFileSync(file);
  return file.endsWith('.pack') && bytes.length > 0 ? gunzipSync(bytes) : bytes;
}
