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
  /** Runs with no planner call (the target): a verifier or vision may have been asked (a skill step's target or effect the tree did not show). */
  readonly zeroPlannerCalls: number;
  /** Runs with no model call at all (planner, verifier, vision). */
  readonly zeroModelCalls: number;
  /** Of those, runs whose task check passed. */
  readonly zeroModelSuccesses: number;
  /** A skill completed (its checks passed) but the task check failed: a false match. */
  readonly falseMatches: number;
  readonly successes: number;
  /** Planner calls per run, mean (llm calls for results written before planner calls were counted). */
  readonly plannerCallsPerRun: number;
  /** Skill steps replayed and verified, in all runs (those of skills the planner called included). */
  readonly skillSteps: number;
  /** Skills the planner called by name mid-run, and how many of them completed. */
  readonly called: number;
  readonly calledCompleted: number;
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
      zeroPlannerCalls: count((run) => plannerCalls(run) === 0),
      zeroModelCalls: count((run) => run.llmCalls + run.vlmCalls === 0),
      zeroModelSuccesses: count((run) => run.llmCalls + run.vlmCalls === 0 && run.success),
      falseMatches: count((run) => run.skill?.outcome === 'completed' && !run.success && run.error === null),
      successes: count((run) => run.success),
      plannerCallsPerRun: mine.length === 0 ? 0 : mine.reduce((sum, run) => sum + plannerCalls(run), 0) / mine.length,
      skillSteps: mine.reduce((sum, run) => sum + (run.skill?.steps ?? 0) + (run.skill?.called ?? []).reduce((steps, call) => steps + call.steps, 0), 0),
      called: mine.reduce((sum, run) => sum + (run.skill?.called?.length ?? 0), 0),
      calledCompleted: mine.reduce((sum, run) => sum + (run.skill?.called ?? []).filter((call) => call.outcome === 'completed').length, 0),
    };
  });
}

/** A run's planner calls; results written before they were counted give all language-model calls. */
function plannerCalls(run: TaskRunResult): number {
  return run.plannerCalls ?? run.llmCalls;
}
