import { join } from 'node:path';
import type { ControlUnit, UnitType } from '../perception/control-unit.js';
import { perceive, type Perception } from '../perception/perceive.js';
import type { PerceptionOptions } from '../perception/perception-options.js';
import { readTrace } from '../trace/read-trace.js';
import { openRunFiles, type RunFiles } from '../trace/run-files.js';
import type { TraceEvent } from '../trace/trace-event.js';
import { parseHierarchy } from '../ui/parse-hierarchy.js';
import type { UiTree } from '../ui/ui-tree.js';
import { safeParsePredicate } from '../verify/parse-predicate.js';
import type { Query } from '../verify/predicate.js';
import { printPredicate } from '../verify/print-predicate.js';
import { alreadyInWantedState } from '../verify/verify-unit-step.js';
import { stepFolder } from '../trace/trace-writer.js';
import { redactedMarker } from '../util/redact-secrets.js';
import { passwordPlaceholder } from '../util/redactor.js';
import { SkillError } from './skill-error.js';
import { scopeTypedEvidence } from './scope-typed-evidence.js';
import { targetQueryFor } from './target-query.js';
import { induceAnswerRule, type RecordedAnswer } from './answer-rule.js';
import { utf8Text } from '../util/utf8-text.js';

/** One unit of a verified intent, as a skill needs it: its type, a query that finds it again, its arguments. */
export interface RecordedAction {
  readonly unit: Exclude<UnitType, 'finish'>;
  /** The robust query (absent for navigation units). */
  readonly target?: Query;
  /** A label-free query for when the label is missing. */
  readonly fallback?: Query;
  /** The class (short name) of the node the target names (`TargetQuery.role`). */
  readonly role?: string;
  readonly navigate?: 'back' | 'home' | 'launch';
  readonly value?: string;
  readonly checked?: boolean;
  readonly direction?: 'up' | 'down' | 'left' | 'right';
  readonly longPress?: boolean;
}

/** One verified intent of a run. */
export interface RecordedStep {
  readonly intent: string;
  /** The expectation in predicate text form ('' when none). */
  readonly expectation: string;
  readonly actions: readonly RecordedAction[];
  /** Who chose it: the planner (any policy), or a replayed skill. */
  readonly by: 'planner' | 'skill';
  /** Its check needed the loop's model verifier (see `modelCheckProblem` for when that is taught). */
  readonly verifiedByModel?: true;
}

/** What a run folder says a skill can be learnt from. */
export interface VerifiedRun {
  readonly dir: string;
  readonly task: string;
  readonly instruction: string;
  readonly app: string;
  /** The package and activity of the first screen. */
  readonly start: { readonly packageName: string; readonly activity: string };
  readonly steps: readonly RecordedStep[];
  /** Intents left out, with why (failed, rejected, a target no query can name). */
  readonly skipped: readonly string[];
  /** For a question: the answer the run gave, and how it is read from the screen it was given on. */
  readonly answer?: { readonly text: string; readonly rule: RecordedAnswer };
}

/** Why a run cannot teach a skill. */
export interface UnusableRun {
  readonly dir: string;
  readonly reason: string;
}

interface Observed {
  readonly artifact: string;
  readonly packageName: string;
  readonly activity: string;
}

type CommitmentItemRecord = { unit: string; value?: string; checked?: boolean; direction?: 'up' | 'down' | 'left' | 'right'; longPress?: boolean };

function itemsOf(units: readonly unknown[]): CommitmentItemRecord[] {
  return units.filter((item): item is CommitmentItemRecord => typeof item === 'object' && item !== null && typeof (item as { unit?: unknown }).unit === 'string');
}

/** The expectation with the text the round typed looked for apart from the field that holds it (`scopeTypedEvidence`), on the screen the round left. */
function scopedExpectation(expectation: string, actions: readonly RecordedAction[], after: UiTree | undefined): string {
  const typed = actions.filter((action) => action.unit === 'fill' && action.value !== undefined).map((action) => action.value ?? '');
  if (after === undefined || typed.length === 0 || expectation.trim() === '') return expectation;
  const parsed = safeParsePredicate(expectation);
  return parsed.success ? printPredicate(scopeTypedEvidence(parsed.value, typed, after)) : expectation;
}

const navigation: Record<string, 'back' | 'home' | 'launch'> = { 'nav-back': 'back', 'nav-home': 'home', 'nav-launch': 'launch' };

/**
 * Reads one run folder (`<traces>/<task>/<mode>-r<k>`) for induction: only a run whose
 * task check passed (`task-end` success) can teach a skill. A run that answered a
 * question teaches where its answer was read on the final screen (`induceAnswerRule`),
 * never the answer itself; an answer no rule explains makes the run unusable. Each round whose intent was verified (its last
 * `verify-end` passed) becomes a step: its commitment's units, found again on the screen
 * they were committed on (the last observation before the commitment, perceived with the
 * run's perception options) and named by a robust query (`targetQueryFor`). Rounds that
 * failed, were rejected or left the app teach nothing and are listed in `skipped`. A
 * verified intent that cannot be recorded (no query names its unit alone, it typed a
 * secret, only the model verifier passed it) makes the run unusable: a skill with a hole
 * would pass its own checks and miss the task; so does a run whose last acting round was
 * not verified (what it did may be what passed the task check).
 * Throws `SkillError` when the folder has no readable trace.
 */
export function readVerifiedRun(dir: string, perceptionOptions: PerceptionOptions = {}): VerifiedRun | UnusableRun {
  let events: readonly TraceEvent[];
  let files: RunFiles;
  try {
    const trace = readTrace(dir);
    events = trace.events;
    files = openRunFiles(dir, trace.artifacts === undefined ? {} : { artifacts: trace.artifacts });
  } catch (error) {
    throw new SkillError({ message: `${dir}: ${error instanceof Error ? error.message : String(error)}`, cause: error });
  }
  const taskStart = events.find((event) => event.type === 'task-start');
  const taskEnd = events.find((event) => event.type === 'task-end');
  if (!taskStart || !taskEnd) return { dir, reason: 'the trace has no task-start/task-end (the run did not finish)' };
  if (taskEnd.success !== true) return { dir, reason: `the task check did not pass (${taskEnd.reason})` };
  const firstObserve = events.find((event) => event.type === 'observe-end');
  if (!firstObserve) return { dir, reason: 'the trace has no observation' };

  const perceptionOf = perceptionCache(dir, files, perceptionOptions);
  const { log, observed } = readRounds(events, files, perceptionOf);
  const { steps, skipped, unrecordable } = log;
  if (unrecordable.length > 0) return { dir, reason: `a verified intent cannot be recorded: ${unrecordable.join('; ')}` };
  // Its task check passed after an action no check confirmed: that action may be what did the task, and a skill without it would have a hole.
  if (!log.lastActingVerified) return { dir, reason: `its last action was not verified ("${log.lastActingIntent}"), yet the task check passed: the skill would lack the step that may have done the task` };
  const password = passwordProblem(taskStart.instruction, steps);
  if (password !== undefined) return { dir, reason: password };
  let answer: VerifiedRun['answer'];
  if (taskEnd.answer !== undefined) {
    // An answer is data, not a procedure: the skill keeps only where it was read, and reads it again on the live screen.
    const final = observed ? perceptionOf(observed) : undefined;
    if (!final) return { dir, reason: 'the run answered a question, but the screen it answered on is not in the run folder' };
    const first = firstObserve.artifact === undefined ? undefined : perceptionOf({ artifact: firstObserve.artifact, packageName: firstObserve.packageName, activity: firstObserve.activity });
    const induced = induceAnswerRule(taskEnd.answer, taskStart.instruction, final.tree, first?.tree);
    if ('problem' in induced) return { dir, reason: `the run answered a question: ${induced.problem}` };
    answer = { text: taskEnd.answer, rule: induced.rule };
  }
  if (steps.length === 0 && !answer) return { dir, reason: `no verified intent with a findable target${skipped.length > 0 ? ` (${skipped.join('; ')})` : ''}` };
  return { dir, task: taskStart.taskId, instruction: taskStart.instruction, app: taskStart.app ?? firstObserve.packageName, start: { packageName: firstObserve.packageName, activity: firstObserve.activity }, steps, skipped, ...(answer ? { answer } : {}) };
}

/** The perception of a recorded screen, read and perceived once per artifact; undefined when the file is not in the run folder. */
function perceptionCache(dir: string, files: RunFiles, perceptionOptions: PerceptionOptions): (observed: Observed) => Perception | undefined {
  const perceptions = new Map<string, Perception>();
  return (observed) => {
    const cached = perceptions.get(observed.artifact);
    if (cached) return cached;
    const name = observed.artifact.split(/[\\/]/).join('/');
    const bytes = files.read(name);
    if (bytes === undefined) return undefined;
    const tree = parseHierarchy(utf8Text(bytes), { packageName: observed.packageName, activity: observed.activity, sourceName: join(dir, name) });
    const perception = perceive(tree, perceptionOptions);
    perceptions.set(observed.artifact, perception);
    return perception;
  };
}

/** One loop round as the trace tells it: its intent and expectation, who planned it, the screen and units it committed, what acted, and its verdict. */
interface Round {
  step: number | null;
  intent: string;
  expectation: string;
  by: RecordedStep['by'];
  screen?: Observed;
  items: CommitmentItemRecord[];
  acted: Set<string>;
  verdict?: string;
  verifiedBy?: string | undefined;
  byVision?: true;
}

/** What the rounds of a run teach: its steps, the rounds skipped and those that make it unusable, and whether its last acting round was verified. */
interface RoundLog {
  readonly steps: RecordedStep[];
  readonly skipped: string[];
  readonly unrecordable: string[];
  lastActingVerified: boolean;
  lastActingIntent: string;
}

/** Reads the trace round by round (`step-start` … `step-end`); returns what the rounds teach and the last screen observed. */
function readRounds(events: readonly TraceEvent[], files: RunFiles, perceptionOf: (observed: Observed) => Perception | undefined): { log: RoundLog; observed: Observed | undefined } {
  // Whether the last round that acted was verified: a run that ends on an unverified action may owe its success to it.
  const log: RoundLog = { steps: [], skipped: [], unrecordable: [], lastActingVerified: true, lastActingIntent: '' };
  let observed: Observed | undefined;
  let round: Round | undefined;
  const close = (): void => {
    const current = round;
    round = undefined;
    if (current) closeRound(current, { files, log, perceptionOf, observed });
  };
  for (const event of events) {
    if (event.type === 'observe-end') {
      if (event.artifact !== undefined) observed = { artifact: event.artifact, packageName: event.packageName, activity: event.activity };
    } else if (event.type === 'step-start') {
      close();
      round = { step: event.step, intent: '', expectation: '', by: 'planner', items: [], acted: new Set() };
    } else if (event.type === 'step-end') {
      close();
    } else if (round) {
      updateRound(round, event, observed);
    }
  }
  close();
  return { log, observed };
}

/** What one trace event tells of the round it belongs to. */
function updateRound(round: Round, event: TraceEvent, observed: Observed | undefined): void {
  switch (event.type) {
    case 'plan-end':
      if (event.finish !== true) {
        round.intent = event.intent;
        round.expectation = typeof event.expectation === 'string' ? event.expectation : '';
      }
      break;
    case 'skill-step-end':
      round.intent = event.intent;
      round.expectation = event.expectation ?? '';
      round.by = 'skill';
      round.verdict = event.outcome;
      break;
    case 'commitment-end':
      if (event.admissible) {
        round.items = itemsOf(event.units);
        if (observed) round.screen = observed;
      }
      break;
    case 'act-end':
      if (event.unitId !== undefined) round.acted.add(event.unitId);
      break;
    case 'verify-end':
      if (round.by === 'planner') {
        round.verdict = event.outcome;
        round.verifiedBy = event.by;
        if (event.by === 'vlm' && event.outcome === 'pass') round.byVision = true;
      }
      break;
    default:
      break;
  }
}

/** A finished round: a step of the skill when verified and recordable, else a line in `skipped` or `unrecordable`. */
function closeRound(current: Round, context: { readonly files: RunFiles; readonly log: RoundLog; readonly perceptionOf: (observed: Observed) => Perception | undefined; readonly observed: Observed | undefined }): void {
  const { log, perceptionOf, observed } = context;
  if (current.items.length === 0) return;
  if (current.acted.size > 0) {
    log.lastActingVerified = current.verdict === 'pass';
    log.lastActingIntent = current.intent;
  }
  if (current.verdict !== 'pass') {
    log.skipped.push(`"${current.intent}": not verified (${current.verdict ?? 'no verdict'})`);
    return;
  }
  // The model verifier passed it: taught only when the tree showed the intent's effect and no unit's contract saw anything wrong (a replay then asks the same verifier).
  const byModel = current.verifiedBy === 'llm-verifier';
  const modelProblem = byModel && current.by === 'planner' ? modelCheckProblem(context.files, current.step) : undefined;
  if (modelProblem !== undefined) {
    log.unrecordable.push(`"${current.intent}": only the model verifier passed it and ${modelProblem}; a replay could not verify it as the run did`);
    return;
  }
  // Vision passed one of its units (an icon whose effect showed only in the pixels): a replay, which asks no vision, could never verify it.
  if (current.byVision === true) {
    log.unrecordable.push(`"${current.intent}": only vision passed one of its units; a replay without vision could not verify it`);
    return;
  }
  const perception = current.screen ? perceptionOf(current.screen) : undefined;
  if (!perception) {
    log.skipped.push(`"${current.intent}": the screen it was committed on is not in the run folder`);
    return;
  }
  const actions = recordActions(current.items, current.acted, perception);
  // A verified intent the skill cannot name would leave a hole: the skill would pass its checks and miss the task.
  if ('problem' in actions) log.unrecordable.push(`"${current.intent}": ${actions.problem}`);
  else if (actions.actions.some((action) => action.value !== passwordPlaceholder && (action.value?.includes(passwordPlaceholder) === true || action.value?.includes(redactedMarker) === true))) log.unrecordable.push(`"${current.intent}": it typed a secret (redacted in the trace) inside other text; a skill never stores one`);
  else log.steps.push({ intent: current.intent, expectation: scopedExpectation(current.expectation, actions.actions, observed ? perceptionOf(observed)?.tree : undefined), actions: actions.actions, by: current.by, ...(byModel ? { verifiedByModel: true as const } : {}) });
}

/**
 * Why a round the model verifier passed cannot be taught, or undefined when it can: its
 * `predicates.json` must show that no unit's contract failed (one was inconclusive: its
 * evidence was missing, like a checkbox that left the screen with its list or a masked
 * password field) and that the intent's expectation passed as new evidence on the
 * recorded screens. The verifier then only confirmed what the tree showed; where the
 * expectation was absent, stale or failed, the verifier alone judged the round and a
 * skill could not repeat that judgement.
 */
function modelCheckProblem(files: RunFiles, step: number | null): string | undefined {
  if (step === null) return 'its round has no step number (its verdicts cannot be found)';
  const bytes = files.read(`${stepFolder(step).split(/[\\/]/).join('/')}/predicates.json`);
  if (bytes === undefined) return `its verdicts (${stepFolder(step)}/predicates.json) are not in the run folder`;
  let recorded: unknown;
  try {
    recorded = JSON.parse(utf8Text(bytes));
  } catch (error) {
    return `its verdicts (${stepFolder(step)}/predicates.json) do not parse (${error instanceof Error ? error.message : String(error)})`;
  }
  const verdicts = recorded as { expectationOutcome?: { outcome?: unknown; code?: unknown }; units?: { outcome?: { outcome?: unknown } }[] };
  const units = Array.isArray(verdicts.units) ? verdicts.units.map((unit) => unit.outcome?.outcome) : [];
  if (units.length === 0) return 'no unit verdict was recorded';
  if (units.some((outcome) => outcome === 'fail')) return 'a unit\'s contract failed';
  if (verdicts.expectationOutcome === undefined) return 'the intent had no expectation (the verifier alone judged it)';
  if (verdicts.expectationOutcome.outcome !== 'pass') return `its expectation did not show as new evidence on the screen (${String(verdicts.expectationOutcome.outcome)}): the verifier alone judged it`;
  return undefined;
}

/**
 * Why the run's password cannot become a parameter, or undefined: the trace holds a typed
 * password only as the placeholder (`[password]`), in the instruction too. It is lifted
 * when the instruction holds it once and a recorded step typed it (whole) into a password
 * field; two in one instruction cannot be told apart, and another redacted secret
 * (`[REDACTED]`) never becomes a parameter.
 */
function passwordProblem(instruction: string, steps: readonly RecordedStep[]): string | undefined {
  if (instruction.includes(redactedMarker)) return 'the instruction holds a redacted secret: a skill never stores one';
  const count = instruction.split(passwordPlaceholder).length - 1;
  const typed = steps.some((step) => step.actions.some((action) => action.value === passwordPlaceholder));
  if (count > 1) return `the instruction holds ${count} passwords, redacted alike (${passwordPlaceholder}): the trace cannot tell which was typed where`;
  if (count === 1 && !typed) return 'the instruction holds a redacted password that no recorded step typed';
  if (count === 0 && typed) return 'a step typed a password the instruction does not give: a skill never stores one';
  return undefined;
}

/**
 * The actions of a verified round: every committed unit that acted, and those before the
 * last acting one or already in the wanted state (no action needed, yet part of the
 * procedure: "vibration off" on an alarm where it already was).
 */
function recordActions(items: readonly CommitmentItemRecord[], acted: ReadonlySet<string>, perception: Perception): { actions: RecordedAction[] } | { problem: string } {
  const lastActed = items.reduce((last, item, index) => (acted.has(item.unit) ? index : last), -1);
  const actions: RecordedAction[] = [];
  for (const [index, item] of items.entries()) {
    const args = { ...(item.value === undefined ? {} : { value: item.value }), ...(item.checked === undefined ? {} : { checked: item.checked }), ...(item.direction === undefined ? {} : { direction: item.direction }), ...(item.longPress === undefined ? {} : { longPress: item.longPress }) };
    const navigate = navigation[item.unit];
    if (navigate) {
      actions.push({ unit: 'navigate', navigate, ...args });
      continue;
    }
    const unit: ControlUnit | undefined = perception.units.find((candidate) => candidate.id === item.unit);
    if (!unit) return { problem: `unit ${item.unit} is not on the screen it was committed on (perception options differ?)` };
    if (index > lastActed && !alreadyInWantedState(unit, { ...(item.value === undefined ? {} : { value: item.value }), ...(item.checked === undefined ? {} : { checked: item.checked }) })) break;
    if (unit.type === 'finish') continue;
    const target = targetQueryFor(unit, perception);
    if (!target) return { problem: `${unit.type} "${unit.label}" has no label or id that names it alone` };
    // The password is typed only where it is masked: a replay must not show it in a plain field.
    if (item.value === passwordPlaceholder && unit.state.password !== true) return { problem: `it typed the password into ${unit.type} "${unit.label}", which is no password field` };
    actions.push({ unit: unit.type, target: target.query, ...(target.fallback ? { fallback: target.fallback } : {}), ...(target.role ? { role: target.role } : {}), ...args });
  }
  return actions.length > 0 ? { actions } : { problem: 'no unit ran' };
}
