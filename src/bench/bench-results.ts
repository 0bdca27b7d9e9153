import { z } from 'zod';
import { modelRoleSchema } from '../model/model-role.js';
import { planningUsageSchema } from '../agent/planning/planning-usage.js';
import { agentModeSchema, modelUsageShape, noPlanningAids, planningConditionsSchema, policyNameSchema, taskRunResultSchema } from '../agent/task-run-result.js';
import { labMetricsSchema } from './compute-lab-metrics.js';
import { repeatSpreadSchema } from './compute-repeat-spread.js';
import { vlmReductionSchema } from './compute-vlm-reduction.js';
import { publishedResultsSchema } from './published-results.js';

export { vlmReductionSchema, type VlmReduction } from './compute-vlm-reduction.js';

/** Format version of `results.json`; bump on any incompatible change. */
export const benchResultsVersion = 1;

/**
 * Prices used for the cost estimate, in US dollars per one million tokens. Image inputs
 * are billed by OpenAI-compatible endpoints as prompt tokens, so they are inside
 * `promptPerMillionUsd`.
 */
export const tokenPricesSchema = z.object({
  /** Where the prices come from, printed with every cost (e.g. `gpt-4o list price 2024-08`). */
  label: z.string().min(1),
  promptPerMillionUsd: z.number().nonnegative(),
  completionPerMillionUsd: z.number().nonnegative(),
  /** Price of prompt tokens served from the provider's cache (`--price-cached-prompt`); absent: the prompt price. */
  cachedPromptPerMillionUsd: z.number().nonnegative().optional(),
  /** True when no price is known for the model: costs are then 0 and shown as unknown, never as another model's. */
  unknown: z.boolean().optional(),
});
export type TokenPrices = z.infer<typeof tokenPricesSchema>;

/** The default prices: OpenAI's published gpt-4o list price (2024-08-06 snapshot). */
export const defaultTokenPrices: TokenPrices = {
  label: 'gpt-4o list price (2024-08-06): $2.50 prompt / $10.00 completion per 1M tokens',
  promptPerMillionUsd: 2.5,
  completionPerMillionUsd: 10,
};

const sumMeanSchema = z.object({ sum: z.number().nonnegative(), mean: z.number().nonnegative() });

/** Success counts for one app within one mode. */
export const appMetricsSchema = z.object({
  tasks: z.number().int().nonnegative(),
  successes: z.number().int().nonnegative(),
  successRate: z.number().min(0).max(1),
  ...labMetricsSchema.shape,
});
export type AppMetrics = z.infer<typeof appMetricsSchema>;

/** Aggregates of one mode over all its runs (a run = one task × one repeat). */
export const modeMetricsSchema = z.object({
  mode: agentModeSchema,
  /** Runs, counting every repeat. */
  tasks: z.number().int().nonnegative(),
  successes: z.number().int().nonnegative(),
  /** successes / tasks; runs with an infrastructure error count as failures. */
  successRate: z.number().min(0).max(1),
  /** successes / (tasks − errors), or null when every run errored. */
  successRateWithoutErrors: z.number().min(0).max(1).nullable(),
  perApp: z.record(z.string(), appMetricsSchema),
  /** The same per task difficulty (easy, medium, hard); absent when no run recorded one. */
  perDifficulty: z.record(z.string(), appMetricsSchema).optional(),
  ...labMetricsSchema.shape,
  ...modelUsageShape,
  /** Mean prompt + completion tokens per run. */
  tokensPerTask: z.number().nonnegative(),
  /** Estimated cost in US dollars at `prices` (see the results' `prices`). */
  costUsd: z.number().nonnegative(),
  costPerTaskUsd: z.number().nonnegative(),
  steps: sumMeanSchema,
  latency: z.object({
    deviceMs: sumMeanSchema,
    perceptionMs: sumMeanSchema,
    modelMs: sumMeanSchema,
    verificationMs: sumMeanSchema,
    totalMs: sumMeanSchema,
  }),
  verification: z.object({ pass: z.number().int(), fail: z.number().int(), inconclusive: z.number().int() }),
  gateReasons: z.record(z.string(), z.number().int()),
  /** Runs with an infrastructure error. */
  errors: z.number().int().nonnegative(),
  /** Runs in which at least one fault was injected. */
  faultsMet: z.number().int().nonnegative(),
  /** Runs with at least one fault that still succeeded. */
  faultsSurvived: z.number().int().nonnegative(),
  /** Fault occurrences by kind. */
  faultKinds: z.record(z.string(), z.number().int()),
  /** Runs that changed watched state outside their task's scope (each failed as `side effect: …`; 0 in results written before). */
  sideEffectRuns: z.number().int().nonnegative().default(0),
  /** Runs in which at least one model error was injected (`--model-faults`; 0 in results written before). */
  modelFaultsMet: z.number().int().nonnegative().default(0),
  /** Runs with at least one injected model error that still succeeded. */
  modelFaultsSurvived: z.number().int().nonnegative().default(0),
  /** Injected model errors by kind. */
  modelFaultKinds: z.record(z.string(), z.number().int()).default({}),
  /** Against react-vlm on the same tasks; null when react-vlm was not run. */
  vlmReduction: vlmReductionSchema.nullable(),
  /** Success, steps, tokens, vision calls and VLM reduction as mean ± sample sd over the repeats (null in results written before). */
  repeatSpread: repeatSpreadSchema.nullable().default(null),
  /** Meta-plans, voting and app-memory hints summed over the runs that used them (docs/planning.md); absent when none did. */
  planning: planningUsageSchema.extend({ runs: z.number().int().nonnegative() }).optional(),
});
export type ModeMetrics = z.infer<typeof modeMetricsSchema>;

/** The options a benchmark ran with, as recorded in results.json. */
export const benchRunOptionsSchema = z.object({
  suite: z.string(),
  modes: z.array(agentModeSchema).min(1),
  repeat: z.number().int().positive(),
  concurrency: z.number().int().positive(),
  device: z.string().nullable(),
  /** The device was the simulator (in process or behind Appium); null when not recorded (older results). */
  simulated: z.boolean().nullable().default(null),
  faults: z.string().nullable(),
  /** The `--model-faults` profile, or null (null in results written before it existed). */
  modelFaults: z.string().nullable().default(null),
  /** `--gate-threshold` (τ), or null for the gate's default (null in results written before it could be set). */
  gateThreshold: z.number().int().positive().nullable().default(null),
  /** `--temperature` of every model role, or null for the configured one (null in older results). */
  temperature: z.number().min(0).max(2).nullable().default(null),
  policy: policyNameSchema,
  modelLabel: z.string(),
  taskIds: z.array(z.string()),
  /** The `--skills` folder and the digest of its skill files when the run started (`skillsDigest`); null without skills (and in older results). */
  skills: z.object({ dir: z.string(), digest: z.string(), files: z.record(z.string(), z.string()) }).nullable().default(null),
  /** `--meta-plan`, `--vote`, `--vote-temperature`, `--app-memory` (no aid in older results). */
  planning: planningConditionsSchema.default(noPlanningAids),
});
export type BenchRunOptions = z.infer<typeof benchRunOptionsSchema>;

/**
 * `results.json`: the whole benchmark, rewritten atomically after every finished run.
 * `complete` is false while runs are still missing (a run in progress or interrupted).
 */
export const benchResultsSchema = z.object({
  version: z.literal(benchResultsVersion),
  policy: policyNameSchema,
  /** True when the oracle policy played reference solutions: no model judged anything. */
  oracle: z.boolean(),
  options: benchRunOptionsSchema,
  prices: tokenPricesSchema,
  startedAt: z.string(),
  updatedAt: z.string(),
  /** Wall time of this process's part of the run, plus earlier parts when resumed. */
  wallTimeMs: z.number().nonnegative(),
  complete: z.boolean(),
  expectedRuns: z.number().int().nonnegative(),
  /**
   * Set when the breaker stopped starting runs: so many runs in a row ended in an
   * infrastructure error (a dead endpoint or device); `cause` is the first one's error and
   * `run` its trace folder. The runs not started are finished with --resume.
   */
  breaker: z.object({ failures: z.number().int().positive(), cause: z.string(), run: z.string() }).optional(),
  /** Set when the bench's total budget stopped starting runs: the limit its finished runs reached, in words. The runs not started are finished with --resume and a higher limit. */
  totalBudget: z.object({ reached: z.string() }).optional(),
  /**
   * Set when the runs replayed a cassette (`SENSEACT_CASSETTE=replay:` or `replay-strict:`):
   * its calls, the ones answered, and the recorded calls no run asked for (the runs diverged
   * from the recording, or only some of its tasks ran); `strict` makes those an error.
   */
  cassette: z.object({
    path: z.string(),
    recorded: z.number().int().nonnegative(),
    replayed: z.number().int().nonnegative(),
    unused: z.array(z.object({ role: modelRoleSchema, hash: z.string(), occurrence: z.number().int().nonnegative(), snippet: z.string() })),
    strict: z.boolean(),
  }).optional(),
  modes: z.array(modeMetricsSchema),
  tasks: z.array(taskRunResultSchema),
  /** The suite's own benchmark's published success rates (`tasks/<suite>/published-results.json`), or null. */
  reference: publishedResultsSchema.nullable().default(null),
});
export type BenchResults = z.infer<typeof benchResultsSchema>;
