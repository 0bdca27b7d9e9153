import { open, rename, rm } from 'node:fs/promises';
import * as path from 'node:path';
import { stableHashHex } from '../util/stable-hash.js';

let sequence = 0;

/**
 * Replaces `file` with `text` so that a reader (or a process killed mid-write) sees the
 * old content or the new one, never a mix: writes a temporary file beside it, flushes it
 * to disk, renames it over `file`, then flushes the directory entry.
 * Throws the file-system error when any step fails (the temporary file is removed).
 */
export async function writeFileAtomic(file: string, text: string): Promise<void> {
  const directory = path.dirname(file);
  const temporary = path.join(directory, `.${path.basename(file)}.${process.pid}.${stableHashHex(`${Date.now()}:${sequence++}`)}.tmp`);
  try {
    const handle = await open(temporary, 'w');
    try {
      await handle.writeFile(text, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
  await syncDirectory(directory);
}

/** Makes a rename durable. Windows cannot open directories, and there renames are durable already. */
async function syncDirectory(directory: string): Promise<void> {
  if (process.platform === 'win32') return;
  const handle = await open(directory, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
