import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll } from 'vitest';

/**
 * A new folder under the system's temporary folder, removed when the test file that made it
 * has run. Call it at a file's top level or in a `describe` body, where vitest takes the
 * `afterAll` that removes it (inside a test the hook would never run).
 */
export function scratchFolder(prefix: string): string {
  const folder = mkdtempSync(path.join(tmpdir(), prefix));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));
  return folder;
}
