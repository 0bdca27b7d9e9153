import { z } from 'zod';

/** Version of the trace event format; every event carries it as `v`. */
export const traceVersion = 1;

const loose = z.record(z.string(), z.unknown());
const count = z.number().int().nonnegative();
const milliseconds = z.number().nonnegative();
const verdict = z.enum(['pass', 'fail', 'inconclusive']);

/** Fields every event has. `step` is null for events outside a step (run-start, task-end, ...). */
const base = {
  v: z.literal(traceVersion),
  /** Milliseconds since the run started. */
  t: milliseconds,
  /** Zero-based step number, or null outside a step. */
  step: count.nullable(),
};

/**
 * Defines one event type. Objects are loose: extra fields (agent-specific payloads)
 * survive a read/write round trip untouched; the listed fields are checked.
 */
function event<Type extends string, Shape extends z.ZodRawShape>(type: Type, shape: Shape) {
  return z.looseObject({ v: base.v, type: z.literal(type), t: base.t, step: base.step, ...shape });
}

const modelCall = {
  role: z.string(),
  model: z.string(),
  promptTokens: count,
  completionTokens: count,
  latencyMs: milliseconds,
  images: count,
  imageBytes: count,
  /** Estimated prompt tokens of the images (real size and detail, OpenAI's tile formula); absent in older traces. */
  imageTokens: count.optional(),
  /** Estimated prompt tokens (o200k) by section (system, task, history, certificates, feedback, view, images, ...); absent in older traces. */
  promptSections: z.record(z.string(), z.number().int()).optional(),
  /** The artifact with the full prompt and reply, relative to the run folder. */
  artifact: z.string().optional(),
  /** Set when the call failed: the error's message. */
  error: z.string().optional(),
};

export const runStartEventSchema = event('run-start', {
  runId: z.string(),
  suite: z.string(),
  task: z.string(),
  /** Agent mode, e.g. `senseact`, `react-vlm`, `oracle`. */
  mode: z.string(),
  /** Wall-clock start, ISO 8601. */
  startedAt: z.string(),
  seed: z.union([z.string(), z.number()]).optional(),
  config: loose.optional(),
});
export const taskStartEventSchema = event('task-start', {
  taskId: z.string(),
  instruction: z.string(),
  app: z.string().optional(),
  stepBudget: count.optional(),
});
/**
 * One start step of the task on the device, before the agent's first step (`pm clear`, an
 * install check, a snapshot load, an `adb shell` command, a launch, or a `manual`
 * precondition): `done`, `manual` (a person must have established it; reported, never
 * faked) or `failed` (the run then ends with an infrastructure error).
 */
export const startStepEndEventSchema = event('start-step-end', {
  /** Zero-based position among the task's start steps. */
  index: count,
  /** The step in words, e.g. `pm clear com.simplemobiletools.notes.pro`. */
  description: z.string(),
  outcome: z.enum(['done', 'manual', 'failed']),
  /** What the device answered (trimmed), or why the step failed. */
  output: z.string().optional(),
});
export const stepStartEventSchema = event('step-start', {});
export const observeEndEventSchema = event('observe-end', {
  packageName: z.string(),
  activity: z.string(),
  /** The foreground task's activity stack, top first, when the device told it. */
  activityStack: z.array(z.string()).optional(),
  latencyMs: milliseconds,
  polls: count.optional(),
  settled: z.boolean().optional(),
  /** Which artifact holds the hierarchy (`before.xml` / `after.xml`). */
  artifact: z.string().optional(),
});
export const perceiveEndEventSchema = event('perceive-end', {
  latencyMs: milliseconds,
  nodes: count.optional(),
  keptNodes: count.optional(),
  units: count.optional(),
  blocks: count.optional(),
});
export const planEndEventSchema = event('plan-end', {
  latencyMs: milliseconds,
  /** The screen-scoped intent, or `FINISH`. */
  intent: z.string(),
  finish: z.boolean().optional(),
  expectation: z.unknown().optional(),
  attempts: count.optional(),
  /** What the tolerant reader repaired in the reply that validated, one line each (`key-case (Intent → intent)`). */
  repairs: z.array(z.string()).optional(),
  /** SCG edges the reply proposed (`dependsOn`) that were added, `from → to`. */
  edgesAdded: z.array(z.string()).optional(),
  /** Proposed SCG edges refused, with why (`from → to: would close a cycle`). */
  edgesRejected: z.array(z.string()).optional(),
});
export const commitmentEndEventSchema = event('commitment-end', {
  admissible: z.boolean(),
  units: z.array(z.unknown()),
  reason: z.string().optional(),
});
export const actEndEventSchema = event('act-end', {
  action: loose,
  unitId: z.string().optional(),
  latencyMs: milliseconds,
});
export const verifyEndEventSchema = event('verify-end', {
  outcome: verdict,
  reason: z.string().optional(),
  /** Delta label: `no-change`, `new-page`, `partial-change`. */
  label: z.string().optional(),
  /** Who decided: `contract`, `expectation`, `llm-verifier`. */
  by: z.string().optional(),
  /** For a pass: `strong` when the change was tied to the unit or intent, `weak` when only "something changed". */
  strength: z.enum(['strong', 'weak']).optional(),
  /** For a pass: the kind of evidence that decided it (`went-back`, `field-holds-value`, …; docs/verify-replay.md, "Evidence kinds"). */
  tie: z.string().optional(),
  latencyMs: milliseconds.optional(),
});
export const gateEndEventSchema = event('gate-end', {
  opened: z.boolean(),
  reason: z.string().optional(),
  score: z.number().optional(),
  /** What the reason is about, in words (for unresolved-target: the target the text view did not have). */
  detail: z.string().optional(),
});
/** The foreground guard left an app outside the task's allowed ones, or refused an action that would have opened one. */
export const screenshotEndEventSchema = event('screenshot-end', {
  /** The PNG, relative to the run folder. */
  artifact: z.string(),
  /** Which screen of the step it shows: the one the step started from, or the one its action left. */
  of: z.enum(['before', 'after']),
  width: count,
  height: count,
  bytes: count,
  latencyMs: milliseconds,
});
export const guardEndEventSchema = event('guard-end', {
  /** The disallowed package left, or the package of the screen the refused action was planned on. */
  packageName: z.string(),
  action: z.enum(['left', 'refused']),
  detail: z.string().optional(),
});
/**
 * A model error `--model-faults` injected into a reply (the oracle policy only): which
 * kind (`invalid-json`, `hallucinated-unit`, `wrong-unit`, `stale-expectation`,
 * `missing-expectation`), the role whose reply it changed, and what it changed. It comes
 * before the model call it corrupted (that call's `model-call-end` or `vlm-call-end`).
 */
export const modelFaultInjectedEventSchema = event('model-fault-injected', {
  kind: z.string(),
  role: z.string(),
  /** What was changed, e.g. `unit n3f2a → n9c1e`. */
  detail: z.string(),
});
/**
 * A fault the device injected (the simulator's `--faults`: a dropped tap, a delayed
 * effect, an interstitial dialog, a label lost or renamed, ...), in the step whose device
 * call it struck: its kind and what it did (`tap (540,675) dropped`). Written beside the
 * loop, from the device's fault log; the loop never sees it.
 */
export const deviceFaultEventSchema = event('device-fault', {
  kind: z.string(),
  detail: z.string(),
});
/**
 * A model's structured reply was read only after a repair (docs/models-and-traces.md): the
 * role that asked and each repair, one line each (`fence`, `surrounding-text`,
 * `key-case (Intent → intent)`). It follows that reply's `model-call-end` or `vlm-call-end`.
 * A reply that follows the schema as requested has none.
 */
export const replyRepairedEventSchema = event('reply-repaired', {
  role: z.string(),
  repairs: z.array(z.string()),
});
export const vlmCallEndEventSchema = event('vlm-call-end', modelCall);
export const modelCallEndEventSchema = event('model-call-end', modelCall);
export const certificateEndEventSchema = event('certificate-end', {
  /** The certificate in its DSL text form. */
  text: z.string(),
  confidence: z.enum(['high', 'low']).optional(),
  certificate: z.unknown().optional(),
});
export const surfaceEndEventSchema = event('surface-end', {
  decision: z.enum(['stop', 'continue']),
  /** Which surface rule fired. */
  rule: z.string(),
  flags: z.array(z.string()).optional(),
});
const subTaskStatus = z.enum(['checked', 'claimed', 'pending']);
/** A meta-plan the planner gave (docs/planning.md): its sub-tasks with completion predicates, and the progress vector it starts with. */
export const metaPlanEndEventSchema = event('meta-plan-end', {
  /** Why a plan was asked for (start of the task, or why the last one was exhausted). */
  reason: z.string(),
  subtasks: z.array(z.object({ name: z.string(), done: z.string().optional(), app: z.string().optional(), page: z.string().optional() }).loose()),
  progress: z.array(subTaskStatus),
  latencyMs: milliseconds.optional(),
  attempts: count.optional(),
});
/** The progress vector changed: sub-tasks whose check now held (1-based), or that the planner said it finished. */
export const progressEndEventSchema = event('progress-end', {
  checked: z.array(count).optional(),
  claimed: z.array(count).optional(),
  progress: z.array(subTaskStatus),
});
/** The planner said FINISH while a sub-task's completion check had not held; the loop refused it. */
export const finishRefusedEventSchema = event('finish-refused', {
  reason: z.string(),
  progress: z.array(subTaskStatus),
});
/** Plan voting (docs/planning.md): the sampled commitments, their votes, and the one chosen. */
export const voteEndEventSchema = event('vote-end', {
  samples: count,
  /** Each distinct commitment key with its votes and the best expectation specificity among them. */
  candidates: z.array(z.object({ key: z.string(), votes: count, specificity: z.number() }).loose()),
  chosen: z.string(),
  /** True when the winner had no strict majority of votes over the runner-up and the expectation's specificity decided. */
  tieBroken: z.boolean(),
  extraCalls: count,
  extraTokens: count,
});
/** App-memory hints injected into a planner prompt (docs/planning.md). */
export const memoryHintsEndEventSchema = event('memory-hints-end', {
  app: z.string(),
  tokens: count,
  lines: count,
});
/** The certifier model's summary of an app map after a run taught it something (docs/planning.md): kept, or why not. */
export const memorySummaryEndEventSchema = event('memory-summary-end', {
  app: z.string(),
  kept: z.boolean(),
  /** Tokens of the map as text, and of the kept summary. */
  mapTokens: count,
  tokens: count.optional(),
  reason: z.string().optional(),
});
export const stepEndEventSchema = event('step-end', {
  latencyMs: milliseconds.optional(),
  /** Latency split of the step, in milliseconds (device, perception, model, verification). */
  latency: z.record(z.string(), milliseconds).optional(),
});
export const taskEndEventSchema = event('task-end', {
  taskId: z.string(),
  /** From the task's success check; null when it could not be evaluated. */
  success: z.boolean().nullable(),
  reason: z.string(),
  steps: count,
  answer: z.string().optional(),
});
export const runEndEventSchema = event('run-end', {
  status: z.enum(['completed', 'failed', 'aborted']),
  durationMs: milliseconds,
  usage: loose.optional(),
});
/** One step of a skill replayed without a model (src/agent/skill-replay/run-skill.ts), with its verdict. */
export const skillStepEndEventSchema = event('skill-step-end', {
  skill: z.string(),
  /** Zero-based position of the step in the skill's plan as replayed. */
  index: count,
  intent: z.string(),
  /** The step's expectation, filled with the instruction's values. */
  expectation: z.string().optional(),
  outcome: verdict,
  reason: z.string(),
});
/** How a skill replay ended: every step verified, handed over to the planner, or no skill matched. */
export const skillEndEventSchema = event('skill-end', {
  skill: z.string().optional(),
  outcome: z.enum(['completed', 'handed-over', 'no-match']),
  reason: z.string(),
  /** Steps replayed and verified before the end. */
  steps: count,
  /** The instruction's values bound to the skill's parameters. */
  bindings: z.record(z.string(), z.string()).optional(),
});
export const errorEventSchema = event('error', {
  message: z.string(),
  name: z.string().optional(),
  code: z.string().optional(),
  /** Where it happened, e.g. `observe`, `plan`, `act`. */
  where: z.string().optional(),
  stack: z.string().optional(),
  /** True for infrastructure failures (device, model endpoint, invalid model replies). */
  infrastructure: z.boolean().optional(),
});

/** Every trace event: a zod discriminated union on `type` (docs/architecture.md §9). */
export const traceEventSchema = z.discriminatedUnion('type', [
  runStartEventSchema,
  taskStartEventSchema,
  startStepEndEventSchema,
  stepStartEventSchema,
  observeEndEventSchema,
  perceiveEndEventSchema,
  planEndEventSchema,
  commitmentEndEventSchema,
  actEndEventSchema,
  verifyEndEventSchema,
  gateEndEventSchema,
  guardEndEventSchema,
  screenshotEndEventSchema,
  modelFaultInjectedEventSchema,
  replyRepairedEventSchema,
  deviceFaultEventSchema,
  vlmCallEndEventSchema,
  modelCallEndEventSchema,
  certificateEndEventSchema,
  surfaceEndEventSchema,
  metaPlanEndEventSchema,
  progressEndEventSchema,
  finishRefusedEventSchema,
  voteEndEventSchema,
  memoryHintsEndEventSchema,
  memorySummaryEndEventSchema,
  stepEndEventSchema,
  taskEndEventSchema,
  runEndEventSchema,
  skillStepEndEventSchema,
  skillEndEventSchema,
  errorEventSchema,
]);
export type TraceEvent = z.infer<typeof traceEventSchema>;
export type TraceEventType = TraceEvent['type'];

/** Every event type, in lifecycle order. */
export const traceEventTypes: readonly TraceEventType[] = traceEventSchema.options.map((option) => option.shape.type.value);

/** The event of one type. */
export type TraceEventOf<Type extends TraceEventType> = Extract<TraceEvent, { type: Type }>;

/** What a writer is given: the event without the fields it fills in (`v`, `t`). */
export type TraceEventInput = TraceEvent extends infer Event ? (Event extends TraceEvent ? WithoutClock<Event> : never) : never;

// `Omit` would drop every named field of a loose object (its keys widen to `string`); key
// remapping keeps them.
type WithoutClock<Event> = { [Key in keyof Event as Key extends 'v' | 't' ? never : Key]: Event[Key] };
