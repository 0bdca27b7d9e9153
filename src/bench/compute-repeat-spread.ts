import { z } from 'zod';
import type { TaskRunResult } from '../agent/task-run-result.js';
import { computeVlmReduction } from './compute-vlm-reduction.js';

/** A mean over repeats and its sample standard deviation (n − 1; null with fewer than 2 repeats). */
export const meanSdSchema = z.object({ mean: z.number(), sd: z.number().nonnegative().nullable() });
export type MeanSd = z.infer<typeof meanSdSchema>;

/**
 * How one mode's figures spread over `--repeat k`: each figure is computed per repeat
 * (over the runs of that repeat index), then averaged over the repeats with its sample sd.
 */
export const repeatSpreadSchema = z.object({
  /** Repeats that have runs of this mode. */
  repeats: z.number().int().nonnegative(),
  /** Success rate per repeat (successes / runs, errors counted as failures). */
  successRate: meanSdSchema,
  /** Mean executed steps per run. */
  steps: meanSdSchema,
  /** Mean prompt + completion tokens per run. */
  tokens: meanSdSchema,
  /** Mean vision calls per run. */
  vlmCalls: meanSdSchema,
  /** Aggregate VLM reduction against react-vlm's runs of the same repeat; null when no repeat has a paired task. */
  vlmReduction: meanSdSchema.nullable(),
});
export type RepeatSpread = z.infer<typeof repeatSpreadSchema>;

/**
 * The spread over repeats of one mode's `runs`; `baseline` are the react-vlm runs (every
 * repeat), paired with the mode's runs of the same repeat for the VLM reduction. A repeat
 * enters the VLM reduction only when it pairs at least one task. Pure.
 */
export function computeRepeatSpread(runs: readonly TaskRunResult[], baseline: readonly TaskRunResult[]): RepeatSpread {
  const byRepeat = new Map<number, TaskRunResult[]>();
  for (const run of runs) byRepeat.set(run.repeat, [...(byRepeat.get(run.repeat) ?? []), run]);
  const repeats = [...byRepeat.entries()].sort(([a], [b]) => a - b).map(([repeat, repeatRuns]) => ({ repeat, runs: repeatRuns }));
  const perRun = (pick: (run: TaskRunResult) => number): MeanSd => meanSd(repeats.map((entry) => entry.runs.reduce((total, run) => total + pick(run), 0) / entry.runs.length));
  const reductions = repeats.flatMap((entry) => {
    const reduction = computeVlmReduction(entry.runs, baseline.filter((run) => run.repeat === entry.repeat));
    return reduction.pairedTasks === 0 ? [] : [reduction.aggregate];
  });
  return {
    repeats: repeats.length,
    successRate: perRun((run) => (run.success ? 1 : 0)),
    steps: perRun((run) => run.steps),
    tokens: perRun((run) => run.promptTokens + run.completionTokens),
    vlmCalls: perRun((run) => run.vlmCalls),
    vlmReduction: reductions.length === 0 ? null : meanSd(reductions),
  };
}

/** Mean and sample standard deviation (divisor n − 1) of `values`; sd null below 2 values, both 0 for none. */
export function meanSd(values: readonly number[]): MeanSd {
  if (values.length === 0) return { mean: 0, sd: null };
  const mean = values.reduce((total, value) => total + value, 0) / values.length;
  if (values.length < 2) return { mean, sd: null };
  const squares = values.reduce((total, value) => total + (value - mean) ** 2, 0);
  return { mean, sd: Math.sqrt(squares / (values.length - 1)) };
}
