import { describe, expect, it } from 'vitest';
import { benchResultsSchema } from '../../../src/bench/bench-results.js';
import { computeModeMetrics } from '../../../src/bench/compute-mode-metrics.js';
import { computeRepeatSpread, meanSd } from '../../../src/bench/compute-repeat-spread.js';
import { formatRepeatTable } from '../../../src/bench/format-results-table.js';
import type { AgentMode, TaskRunResult } from '../../../src/agent/task-run-result.js';
import { runResult } from './run-result-builder.js';

const prices = { label: 'test prices', promptPerMillionUsd: 1, completionPerMillionUsd: 2 };

// Two tasks, three repeats. senseact succeeds on 2, 1 and 0 of the 2 tasks: success rates
// 1, 0.5, 0 → mean 0.5, sample sd sqrt((0.25 + 0 + 0.25) / 2) = 0.5. Steps per run by
// repeat: (2+4)/2 = 3, (3+5)/2 = 4, (4+6)/2 = 5 → mean 4, sd 1. Tokens 1100 every run → sd 0.
// Vision calls per run: 0, 1, 2 → mean 1, sd 1. Images against react-vlm's 4 per task:
// repeat 0 sends 0 of 8 (reduction 1), repeat 1 2 of 8 (0.75), repeat 2 4 of 8 (0.5) → mean
// 0.75, sd 0.25.
function senseactRun(id: 'a' | 'b', repeat: number, success: boolean, steps: number): TaskRunResult {
  return runResult({ id, mode: 'senseact', repeat, success, steps, vlmCalls: repeat, imagesUploaded: repeat });
}

const runs: TaskRunResult[] = [
  senseactRun('a', 0, true, 2), senseactRun('b', 0, true, 4),
  senseactRun('a', 1, true, 3), senseactRun('b', 1, false, 5),
  senseactRun('a', 2, false, 4), senseactRun('b', 2, false, 6),
  ...[0, 1, 2].flatMap((repeat) => (['a', 'b'] as const).map((id) => runResult({ id, mode: 'react-vlm', repeat, imagesUploaded: 4, vlmCalls: 4 }))),
];

describe('computeRepeatSpread', () => {
  it('gives mean and sample sd over repeats of success rate, steps, tokens, vision calls and VLM reduction (hand-computed)', () => {
    const spread = computeRepeatSpread(runs.filter((run) => run.mode === 'senseact'), runs.filter((run) => run.mode === 'react-vlm'));
    expect(spread.repeats).toBe(3);
    expect(spread.successRate.mean).toBeCloseTo(0.5, 12);
    expect(spread.successRate.sd).toBeCloseTo(0.5, 12);
    expect(spread.steps).toEqual({ mean: 4, sd: 1 });
    expect(spread.tokens).toEqual({ mean: 1100, sd: 0 });
    expect(spread.vlmCalls).toEqual({ mean: 1, sd: 1 });
    expect(spread.vlmReduction?.mean).toBeCloseTo(0.75, 12);
    expect(spread.vlmReduction?.sd).toBeCloseTo(0.25, 12);
  });

  it('has no sd with one repeat, and no VLM reduction without react-vlm runs', () => {
    const spread = computeRepeatSpread(runs.filter((run) => run.mode === 'senseact' && run.repeat === 1), []);
    expect(spread.repeats).toBe(1);
    expect(spread.successRate).toEqual({ mean: 0.5, sd: null });
    expect(spread.vlmReduction).toBeNull();
  });

  it('uses the n − 1 divisor: two values 1 and 3 have sd √2, not 1', () => {
    expect(meanSd([1, 3]).sd).toBeCloseTo(Math.SQRT2, 12);
    expect(meanSd([])).toEqual({ mean: 0, sd: null });
  });

  it('is in every mode\'s metrics and prints as a table only when a mode ran two repeats', () => {
    const modes: AgentMode[] = ['senseact', 'react-vlm'];
    const results = (picked: TaskRunResult[], repeat: number) => benchResultsSchema.parse({
      version: 1, policy: 'llm', oracle: false,
      options: { suite: 'sim', modes, repeat, concurrency: 1, device: 'sim', faults: null, policy: 'llm', modelLabel: 'm', taskIds: ['a', 'b'] },
      prices, startedAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:01.000Z', wallTimeMs: 1000, complete: true, expectedRuns: picked.length,
      modes: computeModeMetrics(picked, modes, prices), tasks: picked,
    });
    const all = results(runs, 3);
    expect(all.modes[0]?.repeatSpread?.successRate.sd).toBeCloseTo(0.5, 12);
    const text = formatRepeatTable(all);
    expect(text.split('\n')[0]).toBe('Over repeats: mean ± sample sd (n − 1) of each figure computed per repeat');
    expect(text).toMatch(/^senseact +3 +50\.0% ± 50\.0% +4\.0 ± 1\.0 +1100 ± 0 +1\.00 ± 1\.00 +75\.0% ± 25\.0%$/m);
    expect(text).toMatch(/^react-vlm +3 +100\.0% ± 0\.0% +4\.0 ± 0\.0 +1100 ± 0 +4\.00 ± 0\.00 +0\.0% ± 0\.0%$/m);
    expect(formatRepeatTable(results(runs.filter((run) => run.repeat === 0), 1))).toBe('');
  });
});
