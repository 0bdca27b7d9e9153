// The repository stands alone: a user's clone has nothing beside it, so no code under
// src/, tests/ or scripts/ (nor CI) may name a folder outside the repository such as the
// team's data folder beside the checkout. Real data a test needs is copied into
// tests/fixtures/ with its licence (tests/fixtures/SOURCES.tsv). The folder's name is built
// from parts below, so this file does not name it either.
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';

const repoRoot = path.resolve(import.meta.dirname, '../../..');
const codeFile = /\.(ts|js|mjs|cjs|sh)$/;
/** The team's folder beside the repository. */
const team = ['sha', 'red'].join('');
/** That folder one level up in any form (path segments as separate strings too), or its data folder. */
const outsidePattern = new RegExp(String.raw`\.\.[/\\]${team}\b|['"]\.\.['"]\s*,\s*['"]${team}['"]|\b${team}[/\\]data\b`);

function codeFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name === '__snapshots__' ? [] : codeFiles(full);
    return codeFile.test(entry.name) ? [full] : [];
  });
}

/** `file:line` of every line naming a folder outside the repository. */
function outsideReferences(files: readonly string[], read: (file: string) => string): string[] {
  return files.flatMap((file) => read(file).split('\n').flatMap((line, index) => (outsidePattern.test(line) ? [`${path.relative(repoRoot, file)}:${index + 1}`] : [])));
}

describe('the repository stands alone', () => {
  const files = [...['src', 'tests', 'scripts'].flatMap((folder) => codeFiles(path.join(repoRoot, folder))), path.join(repoRoot, '.ci/run')];

  it('scans the code it should (src, tests, scripts, CI)', () => {
    expect(files.length).toBeGreaterThan(200);
    expect(files.some((file) => file.endsWith(path.join('tests', 'unit', 'repo', 'stands-alone.test.ts')))).toBe(true);
  });

  it('no file names the team folder beside the repository, or its data folder', () => {
    const self = path.join(repoRoot, 'tests/unit/repo/stands-alone.test.ts');
    expect(outsideReferences(files.filter((file) => file !== self), (file) => readFileSync(file, 'utf8'))).toEqual([]);
  });

  it('negative control: each form of an outside path is caught', () => {
    const samples = [`const data = path.resolve(root, '../${team}/data');`, `resolve(dir, '..', '${team}', 'data')`, `// copied from ${team}/data/dumps`, `cat ..\\${team}\\x`];
    expect(outsideReferences(samples.map((_, index) => `sample${index}`), (file) => samples[Number(file.slice(6))]!)).toHaveLength(4);
    expect(outsideReferences(['clean'], () => "const sharedModelEnvVar = 'SENSEACT_MODEL'; // shared by the roles")).toEqual([]);
  });
});
