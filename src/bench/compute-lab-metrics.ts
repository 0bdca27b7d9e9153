import { z } from 'zod';
import type { TaskRunResult } from '../agent/task-run-result.js';

/**
 * AndroidLab's metrics beside the success rate (Xu et al., AndroidLab, 2024), each null
 * when no run can carry it. Runs with an infrastructure error are left out of all three:
 * they say nothing about the agent. Null in results written before they were computed.
 */
export const labMetricsSchema = z.object({
  /** Sub-SR: mean over runs whose task has sub-goals of met / total sub-goals. */
  subGoalSuccessRate: z.number().min(0).max(1).nullable().default(null),
  /** RRR: mean over successful runs of tasks with `referenceSteps` of reference steps / agent steps. */
  reversedRedundancyRatio: z.number().nonnegative().nullable().default(null),
  /** ROR: operations that changed the screen / all operations, over all runs. */
  reasonableOperationRatio: z.number().min(0).max(1).nullable().default(null),
});
export type LabMetrics = z.infer<typeof labMetricsSchema>;

/**
 * Computes Sub-SR, RRR and ROR over `runs` (one mode, or one app of one mode). A
 * successful run with 0 steps (the task was already done) has no RRR: a ratio over
 * nothing done is not a measure of redundancy.
 */
export function computeLabMetrics(runs: readonly TaskRunResult[]): LabMetrics {
  const clean = runs.filter((run) => run.error === null);
  const withGoals = clean.filter((run) => run.subGoals.total > 0);
  const withReference = clean.filter((run) => run.success && run.referenceSteps !== null && run.steps > 0);
  const operations = clean.reduce((total, run) => total + run.operations.total, 0);
  const effective = clean.reduce((total, run) => total + run.operations.effective, 0);
  return {
    subGoalSuccessRate: mean(withGoals.map((run) => run.subGoals.met / run.subGoals.total)),
    reversedRedundancyRatio: mean(withReference.map((run) => (run.referenceSteps ?? 0) / run.steps)),
    reasonableOperationRatio: operations === 0 ? null : effective / operations,
  };
}

function mean(values: readonly number[]): number | null {
  return values.length === 0 ? null : values.reduce((total, value) => total + value, 0) / values.length;
}
