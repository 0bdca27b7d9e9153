import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll } from 'vitest';

/**
 * A new folder under the system's temporary folder, removed when the test file that made it
 * has run. Call it at a file's top level or in a `describe` body, where vitest takes the
 * `afterAll` that removes it (inside a test the hook would never run). `settle`, when given,
 * is awaited first: writes still landing in the folder (a trace writer's artifacts) finish
 * before it goes.
 */
export function scratchFolder(prefix: string, settle?: () => Promise<unknown>): string {
  const folder = mkdtempSync(path.join(tmpdir(), prefix));
  afterAll(async () => {
    await settle?.();
    await rm(folder, { recursive: true, force: true, maxRetries: 3 });
  });
  return folder;
}
