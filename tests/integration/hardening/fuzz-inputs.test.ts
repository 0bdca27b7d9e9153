// A fixed-seed slice of the fuzz over every input the CLI reads (scripts/fuzz-cli.ts runs
// thousands, each watched for hangs from another process): each mutant is accepted or a
// named error (exit 2 with a message naming the command), never a crash or another exit,
// and none takes seconds of CPU. Seeded per mutant: a failure names `family:index`, which
// `npx tsx scripts/fuzz-cli.ts --seed 28 --only family:index` replays alone.
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareFuzzSeeds, runFuzzMutant, type FuzzFamily, type FuzzSeeds, type FuzzVerdict } from '../../helpers/fuzz-inputs.js';

const repoRoot = path.resolve(import.meta.dirname, '../../..');
/** Mutants per family: the cheap readers get more; a damaged journal redoes a run. */
const counts: Readonly<Record<FuzzFamily, number>> = { xml: 25, droidbot: 25, predicate: 25, cassette: 25, profile: 25, memory: 25, task: 10, reply: 8, skill: 6, journal: 1 };
let seeds: FuzzSeeds;

beforeAll(async () => {
  seeds = await prepareFuzzSeeds(repoRoot);
}, 60_000);
afterAll(() => {
  seeds.cleanup();
});

describe('the input fuzz (seed 28)', () => {
  it('every mutant of every input is accepted or a named error; none crashes or spins', async () => {
    const verdicts: FuzzVerdict[] = [];
    for (const [family, count] of Object.entries(counts) as [FuzzFamily, number][]) {
      for (let index = 0; index < count; index++) verdicts.push(await runFuzzMutant(seeds, family, index, 28));
    }
    const defects = verdicts.filter((verdict) => verdict.outcome === 'crash' || verdict.outcome === 'unnamed' || verdict.cpuMs > 5_000);
    expect(defects.map((verdict) => `${verdict.family}:${verdict.index} ${verdict.operator} ${verdict.outcome} ${Math.round(verdict.cpuMs)} ms ${verdict.detail}`)).toEqual([]);
    // Both ways: the mutants do reach the readers (some are valid inputs, most are named errors).
    for (const family of Object.keys(counts) as FuzzFamily[]) {
      expect(verdicts.filter((verdict) => verdict.family === family).length).toBe(counts[family]);
    }
    expect(verdicts.filter((verdict) => verdict.outcome === 'named').length).toBeGreaterThan(verdicts.length / 3);
    expect(verdicts.filter((verdict) => verdict.outcome === 'accepted').length).toBeGreaterThan(10);
  }, 120_000);
});
