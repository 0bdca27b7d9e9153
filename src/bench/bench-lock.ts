import { open, readFile, rm } from 'node:fs/promises';
import * as path from 'node:path';
import { BenchError } from './bench-error.js';

/** The lock file's name inside a bench output dir. */
export const benchLockFileName = 'bench.lock';

/**
 * Takes the out dir's lock so two benchmarks never append to one journal. The lock file
 * holds the owner's pid; a lock whose process is gone (killed mid-run) is stale and is
 * taken over. Returns the release function. Throws `BenchError` when a live process
 * holds it.
 */
export async function acquireBenchLock(outDir: string): Promise<() => Promise<void>> {
  const file = path.join(outDir, benchLockFileName);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const handle = await open(file, 'wx');
      try {
        await handle.writeFile(`${process.pid}\n`, 'utf8');
      } finally {
        await handle.close();
      }
      return async () => {
        await rm(file, { force: true });
      };
    } catch (error) {
      if (!isCode(error, 'EEXIST')) throw error;
    }
    const owner = Number.parseInt((await readFile(file, 'utf8').catch((error: unknown) => (isCode(error, 'ENOENT') ? '' : Promise.reject(error)))).trim(), 10);
    if (Number.isInteger(owner) && owner > 0 && isAlive(owner)) {
      throw new BenchError({
        code: 'bench-locked',
        message: `another benchmark (pid ${owner}) is writing to ${outDir}; wait for it, or choose another --out (if no such process is running, delete ${file})`,
      });
    }
    // Stale: its owner is gone. Remove it and try once more.
    await rm(file, { force: true });
  }
  throw new BenchError({ code: 'bench-locked', message: `could not take the lock ${file}: another process keeps creating it; choose another --out` });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return isCode(error, 'EPERM');
  }
}

function isCode(error: unknown, code: string): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && (error as { code: unknown }).code === code;
}
