import { z } from 'zod';

// The input and output shapes of the tools `senseact mcp` serves (docs/mcp.md). The
// SDK takes them as zod shapes: it publishes them as JSON Schema (inputSchema /
// outputSchema) and validates arguments and structured results against them.

/** `observe`: what to add to the lean view. */
export const observeInputShape = {
  units: z.boolean().optional().describe('Add every unit as data (id, type, label, state). Default false: the view text names them already.'),
  xml: z.boolean().optional().describe('Add the raw hierarchy XML (large). Default false.'),
  screenshot: z.boolean().optional().describe('Add a PNG screenshot (counted). Default false.'),
};

const unitStateShape = z.object({
  enabled: z.boolean(),
  checked: z.boolean().optional(),
  selected: z.boolean().optional(),
  focused: z.boolean().optional(),
  value: z.string().optional(),
  hint: z.string().optional(),
  password: z.boolean().optional(),
});

/** One control unit as data. */
export const unitDataSchema = z.object({
  id: z.string(),
  type: z.string(),
  label: z.string(),
  state: unitStateShape,
  block: z.string(),
});

/** `observe`: the screen as the planner sees it. */
export const observeOutputShape = {
  screen: z.string().describe('Screen id: a hash of the hierarchy (the same screen gives the same id).'),
  app: z.string().describe('Foreground package.'),
  activity: z.string(),
  activityStack: z.array(z.string()).optional().describe('The foreground task\'s activities, top first (`package/activity`), when the device tells them: Back finishes the first.'),
  view: z.string().describe('The reduced view: blocks (surfaces first) with typed units `[id] type "label" state`.'),
  edges: z.array(z.string()).describe('SCG dependency edges `from>to`: `from` must be done before `to` (fill before Save).'),
  units: z.array(unitDataSchema).optional(),
  xml: z.string().optional(),
  screenshots: z.number().int().describe('Screenshots taken in this session so far.'),
};

/** One unit of a commitment: an id from the view, or a target query that names it. */
export const commitmentItemInputSchema = z.object({
  unit: z.string().min(1).optional().describe('A unit id from the view (`n3f2a`), or nav-back, nav-home, nav-launch.'),
  target: z.string().min(1).optional().describe('Instead of `unit`: a query (docs/predicates.md) that names it, e.g. `text="Wi-Fi"`.'),
  value: z.string().optional().describe('fill: the text; select: the option; nav-launch: the package.'),
  checked: z.boolean().optional().describe('toggle: the wanted state (omit to flip).'),
  direction: z.enum(['up', 'down', 'left', 'right']).optional().describe('scroll: which way the content moves into view.'),
  longPress: z.boolean().optional().describe('Long-press instead of tap.'),
  select: z.boolean().optional().describe('Choose this option: a radio-like toggle (AM / PM) is set checked, never unchecked.'),
});
export type CommitmentItemInput = z.infer<typeof commitmentItemInputSchema>;

/** `act`: one unit or a short commitment, with an optional expectation. */
export const actInputShape = {
  commitment: z.array(commitmentItemInputSchema).min(1).max(8).describe('Units in order (one, or a short sequence on this screen: fill, fill, Save).'),
  expect: z.string().optional().describe('What must be new or changed afterwards, in the predicate language (docs/predicates.md), e.g. `checked(is=switch, near(text="Wi-Fi"))`.'),
  intent: z.string().optional().describe('The intent in words (for the trace and the certificate).'),
};
export type ActInput = z.infer<z.ZodObject<typeof actInputShape>>;

const verdictSchema = z.enum(['pass', 'fail', 'inconclusive', 'refused']);

/** `act`: the verdict from the observed change, and the new screen. */
export const actOutputShape = {
  verdict: verdictSchema.describe('pass / fail / inconclusive from the observed change; refused when nothing ran.'),
  reason: z.string(),
  strength: z.enum(['strong', 'weak']).optional().describe('pass only: strong when the change is tied to the unit, weak when only "something changed".'),
  refusal: z.enum(['unknown-target', 'inadmissible', 'outside-allowed-apps', 'irreversible', 'declined', 'bad-expectation']).optional(),
  units: z.array(z.object({ unit: z.string(), type: z.string(), label: z.string(), verdict: z.enum(['pass', 'fail', 'inconclusive']), reason: z.string(), strength: z.enum(['strong', 'weak']).optional() })),
  change: z.array(z.string()).describe('The change in words (state flips first), at most 12 lines.'),
  delta: z.object({ label: z.string(), screenChanged: z.boolean(), newSurface: z.boolean(), dismissedSurface: z.boolean() }).optional(),
  surface: z.object({ decision: z.enum(['STOP', 'CONTINUE']), rule: z.string() }).optional().describe('The loop\'s surface rule: STOP when this surface is done.'),
  unfinished: z.string().optional().describe('Why the commitment stopped before its last unit.'),
  after: z.object(observeOutputShape).describe('The screen after the action (the new view).'),
};
export type ActOutput = z.infer<z.ZodObject<typeof actOutputShape>>;

/** `check`: a predicate on the current screen. */
export const checkInputShape = {
  predicate: z.string().min(1).describe('A predicate (docs/predicates.md), text or JSON form, e.g. `exists(text="Alarm")`.'),
};

export const checkOutputShape = {
  holds: z.enum(['true', 'false', 'unknown']),
  reason: z.string().describe('Why; for false, the failing part.'),
  evidence: z.array(z.string()).describe('Nodes the verdict rests on.'),
  screen: z.string(),
};

export const screenshotOutputShape = {
  width: z.number().int(),
  height: z.number().int(),
  bytes: z.number().int(),
  screenshots: z.number().int().describe('Screenshots taken in this session so far (this one included).'),
};

/** `run`: an instruction through the SenseAct loop with a configured model. */
export const runInputShape = {
  instruction: z.string().min(1),
  allow: z.array(z.string().min(1)).optional().describe('Apps the agent may enter (default: the server\'s --allow list, else the foreground app).'),
  stepBudget: z.number().int().min(1).max(100).optional().describe('Executed units at most (default 20).'),
  maxModelCalls: z.number().int().min(1).optional().describe('Model calls at most; the run is stopped past it.'),
  maxTokens: z.number().int().min(1).optional().describe('Prompt plus completion tokens at most; the run stops with the reason "budget: …".'),
  maxCostUsd: z.number().positive().optional().describe('US dollars at most, counted at pricePromptPerMillionUsd / priceCompletionPerMillionUsd (both needed).'),
  pricePromptPerMillionUsd: z.number().nonnegative().optional().describe('The model\'s prompt price, USD per 1M tokens, for maxCostUsd.'),
  priceCompletionPerMillionUsd: z.number().nonnegative().optional().describe('The model\'s completion price, USD per 1M tokens, for maxCostUsd.'),
  check: z.string().optional().describe('A predicate over the final screen that decides success.'),
};

export const runOutputShape = {
  outcome: z.enum(['success', 'failure', 'finished', 'stopped', 'error']),
  finished: z.boolean(),
  answer: z.string().optional(),
  steps: z.number().int(),
  verdicts: z.object({ pass: z.number().int(), fail: z.number().int(), inconclusive: z.number().int() }),
  modelCalls: z.number().int(),
  reason: z.string(),
  traceDir: z.string().describe('The run folder: trace.jsonl, per-step screens (also under senseact://runs/).'),
};

/** `skills`: list, match or run a verified skill (no model). */
export const skillsInputShape = {
  action: z.enum(['list', 'match', 'run']),
  instruction: z.string().optional().describe('match / run: the instruction a skill template must fit word for word.'),
};

export const skillsOutputShape = {
  skills: z.array(z.object({ name: z.string(), app: z.string(), template: z.string(), parameters: z.array(z.string()), steps: z.number().int() })).optional(),
  match: z.object({ skill: z.string().optional(), reason: z.string(), arguments: z.record(z.string(), z.string()).optional() }).optional(),
  run: z.object({ outcome: z.enum(['completed', 'handed-over', 'no-match']), skill: z.string().optional(), reason: z.string(), steps: z.number().int(), answer: z.string().optional() }).optional(),
};
