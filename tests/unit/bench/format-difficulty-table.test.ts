// Success per difficulty beside the suite's own benchmark's published figure (docs/androidworld.md):
// counted from the runs' difficulty, printed and kept in results.json only when the suite
// ships published-results.json; a bad file stops the bench with its name and field.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { benchResultsSchema, type BenchResults, type TokenPrices } from '../../../src/bench/bench-results.js';
import { computeModeMetrics } from '../../../src/bench/compute-mode-metrics.js';
import { formatDifficultyTable } from '../../../src/bench/format-difficulty-table.js';
import { loadPublishedResults, type PublishedResults } from '../../../src/bench/published-results.js';
import type { TaskRunResult } from '../../../src/agent/task-run-result.js';
import { runResult } from './run-result-builder.js';

const prices: TokenPrices = { label: 'test prices', promptPerMillionUsd: 2, completionPerMillionUsd: 8 };
const reference: PublishedResults = { benchmark: 'AndroidWorld', agent: 'M3A', source: 'the paper', successRate: 0.306, byDifficulty: { easy: 0.5, medium: null, hard: null } };

function results(runs: TaskRunResult[], published: PublishedResults | null): BenchResults {
  return benchResultsSchema.parse({
    version: 1, policy: 'oracle', oracle: true,
    options: { suite: 'androidworld', modes: ['senseact'], repeat: 1, concurrency: 1, device: 'sim', faults: null, policy: 'oracle', modelLabel: 'none', taskIds: runs.map((run) => run.id) },
    prices, startedAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:01.000Z', wallTimeMs: 1, complete: true, expectedRuns: runs.length,
    modes: computeModeMetrics(runs, ['senseact'], prices), tasks: runs, reference: published,
  });
}

const runs = [
  runResult({ id: 'a', mode: 'senseact', difficulty: 'easy' }),
  runResult({ id: 'b', mode: 'senseact', difficulty: 'easy', success: false }),
  runResult({ id: 'c', mode: 'senseact', difficulty: 'medium' }),
];

describe('formatDifficultyTable', () => {
  it('counts successes per difficulty and prints them beside the published rates', () => {
    const table = formatDifficultyTable(results(runs, reference));
    expect(table).toMatch(/^easy\s+1\/2 50\.0%\s+50\.0%$/m);
    expect(table).toMatch(/^medium\s+1\/1 100\.0%\s+not transcribed$/m);
    expect(table).toMatch(/^hard\s+-\s+not transcribed$/m);
    expect(table).toMatch(/^all\s+2\/3 66\.7%\s+30\.6%$/m);
    expect(table).toContain('senseact (oracle)');
  });

  it('prints nothing without published figures (a suite without them prints what it did before)', () => {
    expect(formatDifficultyTable(results(runs, null))).toBe('');
    expect(computeModeMetrics([runResult({ id: 'a', mode: 'senseact' })], ['senseact'], prices)[0]?.perDifficulty).toBeUndefined();
  });

  it('reads published-results.json, and names the file and field of a bad one', async () => {
    const folder = await mkdtemp(path.join(tmpdir(), 'senseact-published-'));
    try {
      expect(loadPublishedResults(folder)).toBeUndefined();
      await writeFile(path.join(folder, 'published-results.json'), JSON.stringify(reference));
      expect(loadPublishedResults(folder)).toEqual(reference);
      await writeFile(path.join(folder, 'published-results.json'), JSON.stringify({ ...reference, successRate: 30.6 }));
      expect(() => loadPublishedResults(folder)).toThrow(/published-results\.json: successRate: /);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});
