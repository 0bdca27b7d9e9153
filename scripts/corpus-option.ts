// `--corpus <dir>` for the benchmarks that read real data: the folder defaults to a copy
// inside the repo (tests/fixtures/…), so a clone with nothing beside it can run every
// script; a bigger corpus kept elsewhere is passed by path. A folder that is not there
// ends the script with one line and exit code 2, never a stack trace.
import { existsSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (scripts run from anywhere). */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * The folder named by `--corpus <dir>` (resolved against the working directory), or
 * `fallback` (relative to the repository root). Exits the process with code 2 and one
 * line on stderr when the folder does not exist.
 */
export function corpusFolder(fallback: string, argv: readonly string[] = process.argv): string {
  const at = argv.indexOf('--corpus');
  const given = at >= 0 ? argv[at + 1] : undefined;
  if (at >= 0 && (given === undefined || given.startsWith('--'))) fail('--corpus needs a folder: --corpus <dir>');
  const folder = given === undefined ? path.join(repoRoot, fallback) : path.resolve(given);
  if (!existsSync(folder) || !statSync(folder).isDirectory()) {
    fail(`corpus folder ${folder} does not exist: pass --corpus <dir> (default ${fallback}, inside the repository)`);
  }
  return folder;
}

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}
