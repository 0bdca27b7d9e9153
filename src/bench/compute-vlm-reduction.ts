import { z } from 'zod';
import type { TaskRunResult } from '../agent/task-run-result.js';

/**
 * VLM reduction of one mode against `react-vlm` on the same tasks. Images per task are
 * averaged over repeats; runs with an infrastructure error are left out.
 */
export const vlmReductionSchema = z.object({
  /** Mean over paired tasks (react-vlm used ≥ 1 image) of 1 − images(mode)/images(react-vlm). */
  perTaskMean: z.number(),
  /** 1 − Σ images(mode) / Σ images(react-vlm) over the same paired tasks. */
  aggregate: z.number(),
  /** How many tasks were paired. */
  pairedTasks: z.number().int().nonnegative(),
});
export type VlmReduction = z.infer<typeof vlmReductionSchema>;

/**
 * VLM reduction of `runs` against `baseline` (react-vlm) on the same tasks. Images are
 * averaged per task id over repeats, leaving out runs with an infrastructure error; a
 * task is paired when both sides have a clean run and the baseline used ≥ 1 image.
 * With no paired task both rates are 0 and `pairedTasks` is 0.
 */
export function computeVlmReduction(runs: readonly TaskRunResult[], baseline: readonly TaskRunResult[]): VlmReduction {
  const modeImages = meanImagesByTask(runs);
  const baselineImages = meanImagesByTask(baseline);
  let perTaskSum = 0;
  let modeTotal = 0;
  let baselineTotal = 0;
  let paired = 0;
  for (const [taskId, base] of baselineImages) {
    const own = modeImages.get(taskId);
    if (own === undefined || base < 1) continue;
    paired++;
    perTaskSum += 1 - own / base;
    modeTotal += own;
    baselineTotal += base;
  }
  return {
    perTaskMean: paired === 0 ? 0 : perTaskSum / paired,
    aggregate: baselineTotal === 0 ? 0 : 1 - modeTotal / baselineTotal,
    pairedTasks: paired,
  };
}

function meanImagesByTask(runs: readonly TaskRunResult[]): Map<string, number> {
  const totals = new Map<string, { images: number; runs: number }>();
  for (const run of runs) {
    if (run.error !== null) continue;
    const entry = totals.get(run.id) ?? { images: 0, runs: 0 };
    entry.images += run.imagesUploaded;
    entry.runs++;
    totals.set(run.id, entry);
  }
  return new Map([...totals].map(([id, entry]) => [id, entry.images / entry.runs]));
}
