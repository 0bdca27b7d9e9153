import { emptyPlanningUsage, type PlanningUsage } from '../agent/planning/planning-usage.js';
import type { AgentMode, TaskRunResult } from '../agent/task-run-result.js';
import { addReplyRepairs, type ReplyRepairsByRole } from '../model/reply-repair.js';
import type { AppMetrics, ModeMetrics, TokenPrices } from './bench-results.js';
import { computeLabMetrics } from './compute-lab-metrics.js';
import { computeRepeatSpread } from './compute-repeat-spread.js';
import { computeVlmReduction } from './compute-vlm-reduction.js';

export { computeVlmReduction } from './compute-vlm-reduction.js';

/** The baseline every VLM reduction is measured against (docs/architecture.md §6). */
export const vlmBaselineMode: AgentMode = 'react-vlm';

/**
 * Aggregates the runs of each mode in `modes` (in that order) into `ModeMetrics`.
 * Runs of other modes are ignored, except `react-vlm` runs, which are the baseline of
 * the VLM reduction (null for every mode when no react-vlm run exists).
 */
export function computeModeMetrics(runs: readonly TaskRunResult[], modes: readonly AgentMode[], prices: TokenPrices): ModeMetrics[] {
  const baseline = runs.filter((run) => run.mode === vlmBaselineMode);
  return modes.map((mode) => metricsOfMode(mode, runs.filter((run) => run.mode === mode), baseline, prices));
}

/** The runs' structured replies read per role, added up; nothing when no run read one. */
function replyRepairsOf(runs: readonly TaskRunResult[]): { replyRepairs?: ReplyRepairsByRole } {
  const total = runs.reduce<ReplyRepairsByRole>((sum, run) => (run.replyRepairs === undefined ? sum : addReplyRepairs(sum, run.replyRepairs)), {});
  return Object.keys(total).length === 0 ? {} : { replyRepairs: total };
}

function metricsOfMode(mode: AgentMode, runs: readonly TaskRunResult[], baseline: readonly TaskRunResult[], prices: TokenPrices): ModeMetrics {
  const count = runs.length;
  const sum = (pick: (run: TaskRunResult) => number): number => runs.reduce((total, run) => total + pick(run), 0);
  const sumMean = (pick: (run: TaskRunResult) => number) => {
    const total = sum(pick);
    return { sum: total, mean: count === 0 ? 0 : total / count };
  };
  const successes = runs.filter((run) => run.success).length;
  const errors = runs.filter((run) => run.error !== null).length;
  const promptTokens = sum((run) => run.promptTokens);
  const completionTokens = sum((run) => run.completionTokens);
  // Cached prompt tokens at their own price when one is given (they are inside the prompt tokens).
  const cachedPromptTokens = sum((run) => run.cachedPromptTokens ?? 0);
  const cachedPrice = prices.cachedPromptPerMillionUsd ?? prices.promptPerMillionUsd;
  const costUsd = ((promptTokens - cachedPromptTokens) * prices.promptPerMillionUsd + cachedPromptTokens * cachedPrice + completionTokens * prices.completionPerMillionUsd) / 1_000_000;
  const faulted = runs.filter((run) => run.faults.length > 0);
  const modelFaulted = runs.filter((run) => run.modelFaults.length > 0);
  const planning = sumPlanning(runs);
  return {
    mode,
    tasks: count,
    successes,
    successRate: ratio(successes, count),
    successRateWithoutErrors: count - errors === 0 ? null : successes / (count - errors),
    perApp: perApp(runs),
    ...(runs.some((run) => run.difficulty !== undefined) ? { perDifficulty: perGroup(runs, (run) => run.difficulty ?? 'unknown') } : {}),
    ...computeLabMetrics(runs),
    llmCalls: sum((run) => run.llmCalls),
    vlmCalls: sum((run) => run.vlmCalls),
    imagesUploaded: sum((run) => run.imagesUploaded),
    imageBytes: sum((run) => run.imageBytes),
    imageTokens: sum((run) => run.imageTokens),
    imageSizes: countRecords(runs.map((run) => run.imageSizes)),
    promptTokensBySection: countRecords(runs.map((run) => run.promptTokensBySection)),
    modelAttempts: sum((run) => run.modelAttempts),
    ...replyRepairsOf(runs),
    promptTokens,
    completionTokens,
    // What the endpoints served from their prompt cache (absent: none reported).
    ...(cachedPromptTokens > 0 ? { cachedPromptTokens } : {}),
    tokensPerTask: ratio(promptTokens + completionTokens, count),
    costUsd,
    costPerTaskUsd: ratio(costUsd, count),
    steps: sumMean((run) => run.steps),
    latency: {
      deviceMs: sumMean((run) => run.latency.deviceMs),
      perceptionMs: sumMean((run) => run.latency.perceptionMs),
      modelMs: sumMean((run) => run.latency.modelMs),
      verificationMs: sumMean((run) => run.latency.verificationMs),
      totalMs: sumMean((run) => run.latency.totalMs),
    },
    verification: {
      pass: sum((run) => run.verification.pass),
      fail: sum((run) => run.verification.fail),
      inconclusive: sum((run) => run.verification.inconclusive),
    },
    gateReasons: countRecords(runs.map((run) => run.gateReasons)),
    errors,
    faultsMet: faulted.length,
    faultsSurvived: faulted.filter((run) => run.success).length,
    faultKinds: countRecords(runs.map((run) => Object.fromEntries(tally(run.faults)))),
    sideEffectRuns: runs.filter((run) => (run.sideEffects?.length ?? 0) > 0).length,
    modelFaultsMet: modelFaulted.length,
    modelFaultsSurvived: modelFaulted.filter((run) => run.success).length,
    modelFaultKinds: countRecords(runs.map((run) => Object.fromEntries(tally(run.modelFaults)))),
    vlmReduction: baseline.length === 0 ? null : computeVlmReduction(runs, baseline),
    repeatSpread: computeRepeatSpread(runs, baseline),
    ...(planning ? { planning } : {}),
  };
}

function perApp(runs: readonly TaskRunResult[]): Record<string, AppMetrics> {
  return perGroup(runs, (run) => run.app);
}

function perGroup(runs: readonly TaskRunResult[], keyOf: (run: TaskRunResult) => string): Record<string, AppMetrics> {
  const apps = new Map<string, TaskRunResult[]>();
  for (const run of runs) apps.set(keyOf(run), [...(apps.get(keyOf(run)) ?? []), run]);
  const sorted = [...apps].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(sorted.map(([app, appRuns]) => {
    const successes = appRuns.filter((run) => run.success).length;
    return [app, { tasks: appRuns.length, successes, successRate: ratio(successes, appRuns.length), ...computeLabMetrics(appRuns) }];
  }));
}

function tally(values: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return counts;
}

function countRecords(records: readonly Readonly<Record<string, number>>[]): Record<string, number> {
  const counts = new Map<string, number>();
  for (const record of records) {
    for (const [key, value] of Object.entries(record)) counts.set(key, (counts.get(key) ?? 0) + value);
  }
  return Object.fromEntries([...counts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

function ratio(numerator: number, denominator: number): number {
  return denominator === 0 ? 0 : numerator / denominator;
}

/** The planning usage summed over the runs that carry one, with how many did; undefined when none did. */
function sumPlanning(runs: readonly TaskRunResult[]): (PlanningUsage & { runs: number }) | undefined {
  const planned = runs.flatMap((run) => (run.planning ? [run.planning] : []));
  if (planned.length === 0) return undefined;
  const total: PlanningUsage & { runs: number } = { ...emptyPlanningUsage(), runs: planned.length };
  for (const usage of planned) {
    for (const key of Object.keys(usage) as (keyof PlanningUsage)[]) total[key] += usage[key];
  }
  return total;
}
