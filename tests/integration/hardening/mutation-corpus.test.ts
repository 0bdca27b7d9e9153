// A seeded corpus of 1,000 damaged dumps, made from the real ones in tests/fixtures, goes
// through the library (parseHierarchy + perceive) and the CLI (senseact inspect): every
// mutant gives a tree or a named error, none a crash, and both paths agree. Bigger runs
// (all depths, the whole corpus): scripts/attack-senseact.ts --rows mutants.
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../../src/cli/main.js';
import { perceive } from '../../../src/perception/perceive.js';
import { maxHierarchyDepth } from '../../../src/ui/droidbot-state.js';
import { parseHierarchy } from '../../../src/ui/parse-hierarchy.js';
import { SenseActError } from '../../../src/util/senseact-error.js';
import { generateMutants, mutationOperators, type Mutant, type SeedDump } from '../../helpers/mutate-dumps.js';

const repoRoot = path.resolve(import.meta.dirname, '../../..');
const corpus = path.join(repoRoot, 'tests/fixtures/dump-corpus');
/** Seeds up to this size keep the run to seconds; the corpus has dumps of every dialect below it (DroidBot states are wordier). */
const maxSeedBytes = { xml: 16_000, json: 27_000 };
const mutantCount = 1_000;

async function smallDumps(folder: string): Promise<SeedDump[]> {
  const found: SeedDump[] = [];
  for (const entry of (await readdir(folder, { withFileTypes: true, recursive: true })).sort((a, b) => a.name.localeCompare(b.name))) {
    const file = path.join(entry.parentPath, entry.name);
    const family = entry.name.endsWith('.json') ? 'json' : 'xml';
    if (!entry.isFile() || !/\.(xml|json)$/.test(entry.name) || (await stat(file)).size > maxSeedBytes[family]) continue;
    found.push({ name: path.relative(folder, file), text: await readFile(file, 'utf8') });
  }
  return found;
}

let folder: string;
let seeds: SeedDump[];
let mutants: Mutant[];

beforeAll(async () => {
  folder = await mkdtemp(path.join(tmpdir(), 'senseact-mutants-'));
  seeds = await smallDumps(corpus);
  // Depths just inside and beyond the parser's limit: the limit, not the size, is what is tested.
  mutants = generateMutants(seeds, mutantCount, 14, { depths: [40, maxHierarchyDepth - 1, maxHierarchyDepth + 1, 3 * maxHierarchyDepth] });
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

type Verdict = 'accepted' | 'named' | 'crash';

describe('the mutation corpus', () => {
  const library = new Map<string, Verdict>();

  it('is seeded from every dialect and covers every operator', () => {
    expect(seeds.some((seed) => seed.text.trimStart().startsWith('{'))).toBe(true);
    expect(seeds.some((seed) => seed.text.includes('<node'))).toBe(true);
    expect(seeds.some((seed) => seed.text.includes('class="hierarchy"'))).toBe(true);
    expect(mutants).toHaveLength(mutantCount);
    expect(new Set(mutants.map((mutant) => mutant.operator))).toEqual(new Set(mutationOperators));
    // Seeded: the same seed gives the same corpus.
    expect(generateMutants(seeds, 50, 14, { depths: [40] }).map((mutant) => mutant.name)).toEqual(generateMutants(seeds, 50, 14, { depths: [40] }).map((mutant) => mutant.name));
  });

  it('library: every mutant gives a tree or a named error, never a crash', () => {
    const crashes: string[] = [];
    for (const mutant of mutants) {
      try {
        perceive(parseHierarchy(mutant.content, { sourceName: mutant.name }));
        library.set(mutant.name, 'accepted');
      } catch (error) {
        if (SenseActError.isInstance(error) && error.message.includes(mutant.name)) library.set(mutant.name, 'named');
        else {
          library.set(mutant.name, 'crash');
          crashes.push(`${mutant.name}: ${String(error).slice(0, 200)}`);
        }
      }
    }
    expect(crashes).toEqual([]);
    const verdicts = [...library.values()];
    // Both outcomes occur: the corpus is neither all garbage nor all harmless.
    expect(verdicts.filter((verdict) => verdict === 'named').length).toBeGreaterThan(mutantCount / 4);
    expect(verdicts.filter((verdict) => verdict === 'accepted').length).toBeGreaterThan(mutantCount / 10);
    // Every structural DroidBot attack and every nesting beyond the limit is refused.
    for (const mutant of mutants.filter((candidate) => ['duplicate-id', 'cycle', 'self-child', 'children-object', 'missing-child', 'non-numeric-child', 'views-not-array', 'not-an-object'].includes(candidate.operator))) {
      expect([mutant.name, library.get(mutant.name)]).toEqual([mutant.name, 'named']);
    }
  });

  it('CLI: senseact inspect names every rejected file on stderr, exit 2, and prints the rest', async () => {
    const names = new Map<string, string>();
    for (const [index, mutant] of mutants.entries()) {
      const file = `m${String(index).padStart(4, '0')}.${mutant.family}`;
      names.set(file, mutant.name);
      await writeFile(path.join(folder, file), mutant.content);
    }
    let stdout = '';
    let stderr = '';
    const code = await main(['inspect', '--jsonl', folder], { stdout: (text) => { stdout += text; }, stderr: (text) => { stderr += text; }, cwd: folder, env: {} });
    expect(code).toBe(2);
    const accepted = new Set(stdout.trim().split('\n').map((line) => (JSON.parse(line) as { source: string }).source));
    const rejected = new Set([...stderr.matchAll(/^senseact inspect: (m\d{4}\.(?:xml|json))[:\s]/gm)].map((match) => match[1]!));
    // Every error line names its file; nothing else reaches stderr (no stack traces).
    expect(stderr.split('\n').filter((line) => line.startsWith('senseact inspect:')).length).toBe(rejected.size);
    expect(stderr).not.toMatch(/^\s+at /m);
    expect(accepted.size + rejected.size).toBe(mutantCount);
    for (const [file, name] of names) expect([name, accepted.has(file) ? 'accepted' : 'named']).toEqual([name, library.get(name)]);
  });
});
