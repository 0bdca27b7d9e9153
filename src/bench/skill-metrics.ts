import type { TaskRunResult } from '../agent/task-run-result.js';

/** What skills did in one mode's runs (runs given `--skills` only). */
export interface SkillMetrics {
  readonly mode: string;
  readonly runs: number;
  /** A skill matched the instruction. */
  readonly hits: number;
  /** No skill matched (none fit, or several: never a guess). */
  readonly misses: number;
  /** A skill matched, then handed over to the planner (a step failed, or its target was not found). */
  readonly handOvers: number;
  /** Every step of the matched skill verified: the run finished without the planner. */
  readonly completed: number;
  /** Runs with no model call at all (planner, verifier, vision). */
  readonly zeroModelCalls: number;
  /** Of those, runs whose task check passed. */
  readonly zeroModelSuccesses: number;
  /** A skill completed (its checks passed) but the task check failed: a false match. */
  readonly falseMatches: number;
  readonly successes: number;
  /** Planner calls (llm calls) per run, mean. */
  readonly plannerCallsPerRun: number;
  /** Skill steps replayed and verified, in all runs. */
  readonly skillSteps: number;
}

/** Skill metrics per mode, over the runs that were given skills (those with a `skill` record). */
export function computeSkillMetrics(runs: readonly TaskRunResult[]): SkillMetrics[] {
  const modes = [...new Set(runs.filter((run) => run.skill !== undefined).map((run) => run.mode))];
  return modes.map((mode) => {
    const mine = runs.filter((run) => run.mode === mode && run.skill !== undefined);
    const count = (test: (run: TaskRunResult) => boolean): number => mine.filter(test).length;
    return {
      mode,
      runs: mine.length,
      hits: count((run) => run.skill?.outcome !== 'no-match'),
      misses: count((run) => run.skill?.outcome === 'no-match'),
      handOvers: count((run) => run.skill?.outcome === 'handed-over'),
      completed: count((run) => run.skill?.outcome === 'completed'),
      zeroModelCalls: count((run) => run.llmCalls + run.vlmCalls === 0),
      zeroModelSuccesses: count((run) => run.llmCalls + run.vlmCalls === 0 && run.success),
      falseMatches: count((run) => run.skill?.outcome === 'completed' && !run.success && run.error === null),
      successes: count((run) => run.success),
      plannerCallsPerRun: mine.length === 0 ? 0 : mine.reduce((sum, run) => sum + run.llmCalls, 0) / mine.length,
      skillSteps: mine.reduce((sum, run) => sum + (run.skill?.steps ?? 0), 0),
    };
  });
}
