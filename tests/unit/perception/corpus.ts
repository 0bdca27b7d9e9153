import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';

/** Repository root (tests run from anywhere). */
export const repoRoot = path.resolve(import.meta.dirname, '../../..');
/** The real dump corpus copied into the repo (tests/fixtures/dump-corpus/README.md, SOURCES.tsv, licenses/). */
export const corpusDumps = path.resolve(repoRoot, 'tests/fixtures/dump-corpus');
/** The few dumps copied into the repo, with their licences. */
export const fixtureDumps = path.resolve(repoRoot, 'tests/fixtures/dumps');

/** Every `.xml` / `.json` dump under a folder, sorted, as [relative path, text]. */
export function readDumps(folder: string): [string, string][] {
  const found: [string, string][] = [];
  const walk = (directory: string): void => {
    for (const entry of readdirSync(directory, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const full = path.join(directory, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/\.(xml|json)$/.test(entry.name)) found.push([path.relative(folder, full), readFileSync(full, 'utf8')]);
    }
  };
  walk(folder);
  return found;
}
