import { z } from 'zod';
import { replyRepairsByRoleSchema } from '../model/reply-repair.js';
import { planningUsageSchema } from './planning/planning-usage.js';

/**
 * The modes of docs/architecture.md §6, and the ablation `senseact-vlm-always`: the SenseAct loop with
 * a screenshot on every planner call (what the VLM gate saves, measured on the same loop).
 */
export const agentModeSchema = z.enum(['senseact', 'senseact-text', 'senseact-vlm-always', 'react-vlm', 'react-text', 'open-loop']);
export type AgentMode = z.infer<typeof agentModeSchema>;

/** Who decides the actions: a language model, or the task's reference solution (results labelled oracle). */
export const policyNameSchema = z.enum(['llm', 'oracle']);
export type PolicyName = z.infer<typeof policyNameSchema>;

export const latencySplitSchema = z.object({
  deviceMs: z.number().nonnegative(),
  perceptionMs: z.number().nonnegative(),
  modelMs: z.number().nonnegative(),
  verificationMs: z.number().nonnegative(),
  totalMs: z.number().nonnegative(),
});
export type LatencySplit = z.infer<typeof latencySplitSchema>;

const count = z.number().int().nonnegative();

/** Model calls, images and tokens: counted per run here, summed per mode by the bench. */
export const modelUsageShape = {
  llmCalls: count,
  vlmCalls: count,
  imagesUploaded: count,
  imageBytes: count,
  promptTokens: count,
  completionTokens: count,
  /**
   * Prompt tokens of the images, inside `promptTokens`: each image at its real size and
   * requested detail by OpenAI's tile formula (0 in results written before it was counted).
   */
  imageTokens: count.default(0),
  /**
   * The images sent, counted by pixel size (`{"1080x2400": 3}`; `unknown` when a header could
   * not be read): what size each mode's screenshots were ({} in results written before it was counted).
   */
  imageSizes: z.record(z.string(), count).default({}),
  /**
   * Estimated prompt tokens (o200k) by section: system prompt, task, history,
   * certificates, feedback, view, images, format, retry, framing ({} in results written
   * before sections were counted).
   */
  promptTokensBySection: z.record(z.string(), z.number().int()).default({}),
  /**
   * Requests sent to model endpoints, retries included: `llmCalls + vlmCalls` counts a call
   * retried four times once, this counts it four times (0 in results written before it was counted).
   */
  modelAttempts: count.default(0),
  /** Prompt tokens the endpoint served from its prompt cache (inside `promptTokens`; priced at the cached price when one is given). */
  cachedPromptTokens: count.optional(),
  /** Model calls whose tokens were estimated locally because the endpoint sent no usage (absent: none). */
  estimatedUsageCalls: count.optional(),
  /**
   * Prompt tokens (o200k estimate) each call shared, from its start, with an earlier call of
   * the run: what a provider's prefix cache could serve (absent: none, or written before it was counted).
   */
  sharedPrefixTokens: count.optional(),
  /**
   * The structured replies read per role (planner, verifier, vision, judge, …): how many,
   * how many only after a repair, by kind of repair, and how many did not validate (absent:
   * none read, or written before they were counted). A reply that follows the schema as
   * requested is no repair.
   */
  replyRepairs: replyRepairsByRoleSchema.optional(),
};

/**
 * The planning aids a benchmark's senseact runs used (`--meta-plan`, `--vote`,
 * `--vote-temperature`, `--app-memory`): they change what a run costs and does, so a
 * resumed benchmark must not mix them. `voteTemperature` is null without voting.
 */
export const planningConditionsSchema = z.object({
  metaPlan: z.boolean(),
  vote: z.number().int().positive(),
  voteTemperature: z.number().nullable(),
  /** The app memory folder (absolute), or null without one. */
  appMemory: z.string().nullable(),
});
export type PlanningConditions = z.infer<typeof planningConditionsSchema>;

/** No planning aid: what a bench without --meta-plan, --vote or --app-memory records. */
export const noPlanningAids: PlanningConditions = { metaPlan: false, vote: 1, voteTemperature: null, appMemory: null };

/**
 * The conditions a benchmark run ran under (set by the bench, absent on a lone run): a
 * resumed benchmark may mix runs of several invocations, so each run says its own.
 */
export const runConditionsSchema = z.object({
  suite: z.string(),
  device: z.string().nullable(),
  faults: z.string().nullable(),
  /** The `--model-faults` profile, or null (null in runs recorded before it existed). */
  modelFaults: z.string().nullable().default(null),
  policy: policyNameSchema,
  /** The model label (`none (oracle)` for the oracle policy). */
  model: z.string(),
  /** When the invocation that ran it started (ISO 8601). */
  startedAt: z.string(),
  /** The VLM gate's threshold τ (`--gate-threshold`), or null for the gate's default (null in runs recorded before it could be set). */
  gateThreshold: z.number().int().positive().nullable().default(null),
  /** The sampling temperature of every model role (`--temperature`), or null for the configured one (null in older runs). */
  temperature: z.number().min(0).max(2).nullable().default(null),
  /** The planning aids of the senseact modes (no aid in runs recorded before they were recorded). */
  planning: planningConditionsSchema.default(noPlanningAids),
});
export type RunConditions = z.infer<typeof runConditionsSchema>;

/** How a skill replay went in a run given skills (`--skills`); absent when none were given. */
export const skillRunSchema = z.object({
  /** `completed`: every step verified without a model; `handed-over`: the planner took over; `no-match`: no skill fit. */
  outcome: z.enum(['completed', 'handed-over', 'no-match']),
  skill: z.string().optional(),
  reason: z.string(),
  /** Skill steps replayed and verified (the called skills' not included). */
  steps: z.number().int().nonnegative(),
  /** Skills the planner called by name later in the run, in order (absent when it called none, and in older results). */
  called: z.array(z.object({
    skill: z.string(),
    outcome: z.enum(['completed', 'handed-over']),
    steps: z.number().int().nonnegative(),
  })).optional(),
});
export type SkillRun = z.infer<typeof skillRunSchema>;

/**
 * What one run of one task in one mode produced. The agent fills it; the bench
 * aggregates it. `success` comes from the task's own check, never from the agent.
 * `error` is set for infrastructure failures (device lost, model never valid), which are
 * not agent failures.
 */
export const taskRunResultSchema = z.object({
  id: z.string(),
  app: z.string(),
  /** The task's difficulty (absent in results written before it was recorded). */
  difficulty: z.enum(['easy', 'medium', 'hard']).optional(),
  mode: agentModeSchema,
  policy: policyNameSchema,
  repeat: z.number().int().nonnegative(),
  success: z.boolean(),
  /** Why the task check passed or failed, in one line. */
  reason: z.string(),
  steps: z.number().int().nonnegative(),
  ...modelUsageShape,
  /**
   * Calls of the planner role, inside `llmCalls` (or `vlmCalls` in senseact-vlm-always):
   * a run with none finished without planning, though a verifier or vision may have been
   * asked (absent in results written before it was counted).
   */
  plannerCalls: count.optional(),
  latency: latencySplitSchema,
  verification: z.object({ pass: z.number().int(), fail: z.number().int(), inconclusive: z.number().int() }),
  gateReasons: z.record(z.string(), z.number().int()),
  /** Disallowed apps the foreground reached (the guard left each at once), in order; absent in results of older versions. */
  leftAllowedApps: z.array(z.string()).optional(),
  /**
   * Changes of watched state outside the task's scope (`side effect: <path> changed from … to …`,
   * at most 20), each of which failed the run; absent when there were none, and in older results.
   */
  sideEffects: z.array(z.string()).optional(),
  /** Faults the simulator injected during the run (kind per occurrence); [] on real devices. */
  faults: z.array(z.string()),
  /** Model errors injected into the policy's replies (`--model-faults`, kind per occurrence); [] when none were asked ([] in results written before they existed). */
  modelFaults: z.array(z.string()).default([]),
  error: z.string().nullable(),
  /** Run folder with trace.jsonl and per-step artifacts, relative to the bench output dir. */
  traceDir: z.string(),
  /** Which device served the run when the server said (a grid node, a serial); absent in-process. */
  servedBy: z.string().optional(),
  answer: z.string().optional(),
  /** Why the agent stopped (it said FINISH, a guard stopped it); absent when the run ended in an error. */
  stopReason: z.string().optional(),
  /** True when the agent itself said the task was done (never the verdict: `success` is). */
  agentFinished: z.boolean().optional(),
  /** Meta-plans, voting and app-memory hints of the run (docs/planning.md); absent when none was on. */
  planning: planningUsageSchema.optional(),
  conditions: runConditionsSchema.optional(),
  /** Sub-goals of the task's check met at the end (AndroidLab's Sub-SR); 0/0 in results written before they were counted. */
  subGoals: z.object({ met: count, total: count }).default({ met: 0, total: 0 }),
  /** The agent's operations and how many changed the screen (AndroidLab's ROR); 0/0 in older results. */
  operations: z.object({ total: count, effective: count }).default({ total: 0, effective: 0 }),
  /** The task's `referenceSteps` (a person's step count), for the reversed redundancy ratio; null when it has none. */
  referenceSteps: z.number().int().positive().nullable().default(null),
  skill: skillRunSchema.optional(),
});
export type TaskRunResult = z.infer<typeof taskRunResultSchema>;
