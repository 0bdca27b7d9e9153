import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';

/** Repository root (tests run from anywhere). */
export const repoRoot = path.resolve(import.meta.dirname, '../../..');
/** Real dumps shared by the team (see ../shared/data/README.md). */
export const sharedDumps = path.resolve(repoRoot, '../shared/data/dumps');
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
