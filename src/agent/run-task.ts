import type { Device } from '../device/device.js';
import type { DeviceProbe } from '../device/device-probe.js';
import { FaultWatchedDevice } from '../device/fault-watched-device.js';
import type { AppMemory, AppTrailStep } from '../memory/app-memory.js';
import type { CertificateMemory } from '../memory/certificate-memory.js';
import { estimateTokens } from '../model/estimate-tokens.js';
import type { LanguageModel } from '../model/language-model.js';
import type { ReplyRepairsByRole } from '../model/reply-repair.js';
import { UsageLedger } from '../model/usage-ledger.js';
import { budgetReached, tighterBudget, type BudgetPrices, type ModelBudget } from '../model/model-budget.js';
import { ModelBudgetError } from '../model/model-budget-error.js';
import { modelStopReason } from './model-stop-reason.js';
import { ModelConfigError } from '../model/model-config-error.js';
import type { ImageDetail } from '../model/vision-model.js';
import type { PerceptionOptions } from '../perception/perception-options.js';
import { viewFocusWords } from '../perception/render-view.js';
import type { AnswerJudge } from '../tasks/answer-judge.js';
import { countSubGoals, type SubGoalCount } from '../tasks/count-sub-goals.js';
import { evaluateSuccess } from '../tasks/evaluate-success.js';
import { describeSideEffect, findSideEffects, type SideEffect, type WatchedState } from '../tasks/find-side-effects.js';
import { taskScope } from '../tasks/task-scope.js';
import type { Task } from '../tasks/task-schema.js';
import type { PlanningOptions } from './planning/planning-options.js';
import { TraceWriter, type TraceFormat } from '../trace/trace-writer.js';
import type { TraceEvent } from '../trace/trace-event.js';
import type { IrreversiblePolicy } from './loop/senseact-state.js';
import { Redactor } from '../util/redactor.js';
import { SenseActError } from '../util/senseact-error.js';
import { SenseActAgentError } from './senseact-agent-error.js';
import { AgentSession, type AgentModels } from './agent-session.js';
import { ForegroundGuard } from './loop/foreground-guard.js';
import { ModelAnswerJudge } from './model-answer-judge.js';
import { ModelFaultInjector } from './model-faults/model-fault-injector.js';
import { readWatchedState } from './read-watched-state.js';
import { startRunWatchdog, type RunWatchdog } from './run-watchdog.js';
import type { ModelFaultConfig } from './model-faults/model-fault-profile.js';
import { createOraclePolicy } from './policies/oracle/oracle-models.js';
import { runReact } from './baselines/run-react.js';
import { isSenseActMode, runSenseAct, type AgentRunEnd } from './loop/run-senseact.js';
import { summariseAppMemory } from './planning/summarise-app-memory.js';
import type { Skill } from '../skills/skill-schema.js';
import type { AgentMode, PolicyName, SkillRun, TaskRunResult } from './task-run-result.js';
import type { SkillRunEnd } from './skill-replay/run-skill.js';

/** One start step's outcome, as the trace records it (`start-step-end`). */
export interface StartStepOutcome {
  readonly index: number;
  /** The step in words, e.g. `pm clear com.simplemobiletools.notes.pro`. */
  readonly step: string;
  readonly outcome: 'done' | 'manual' | 'failed';
  readonly output?: string;
}

export interface RunTaskOptions {
  readonly task: Task;
  readonly mode: AgentMode;
  readonly policy: PolicyName;
  /** A device already in the task's start state. The caller closes it. */
  readonly device: Device;
  /** Required for the `llm` policy; ignored for `oracle` (its models come from the reference solution). */
  readonly models?: AgentModels;
  readonly memory?: CertificateMemory;
  /** The run the memory's new certificates are stamped with; default `<task>/<run-id>`. */
  readonly memoryRun?: string;
  /** Where run folders go (`<traceRoot>/<suite>/<task>/<run-id>/`). */
  readonly traceRoot: string;
  readonly suite: string;
  readonly runId?: string;
  /** Replace an existing run folder of the same id (a retried run on resume) instead of adding a suffix. */
  readonly replaceTrace?: boolean;
  readonly repeat?: number;
  readonly signal?: AbortSignal;
  readonly perception?: PerceptionOptions;
  readonly gateThreshold?: number;
  /** Detail of the VLM gate's screenshot (`SENSEACT_GATE_DETAIL` in the bench); default high. */
  readonly gateImageDetail?: ImageDetail;
  /** Meta-plans, voting and app-memory hints for the SenseAct modes (docs/planning.md); each off unless set. */
  readonly planning?: PlanningOptions;
  /**
   * The per-app abstraction memory (A²) of the SenseAct modes: its hints go to the planner
   * (unless `planning.appHints` says otherwise), and once the task's check has judged the
   * run, its verified intents are learned (a note of its path only when the task succeeded).
   */
  readonly appMemory?: AppMemory;
  /** Names this run in the app memory (see `AppRun.runKey`), so a resumed bench does not learn a killed run twice. */
  readonly appMemoryRun?: string;
  /**
   * What the device tells beyond the screen (usually the device itself: both built-in
   * devices implement it): app state and adb outputs for the success check once the run
   * ends, the faults injected, and the ground truth the oracle's vision looks at. The
   * agent loop never reads it.
   */
  readonly probe?: DeviceProbe;
  /**
   * Write each fault the probe logs into the trace, in the step whose device call it struck
   * (a `device-fault` event): the log is read after every device call, so set it when
   * faults are injected (the bench does for --faults). Default false.
   */
  readonly traceDeviceFaults?: boolean;
  /**
   * adb queries whose output the run must leave as it found it unless the task's scope allows
   * the change (a device profile's `watch`); on the simulator every app's state is watched
   * through the probe. A change outside the scope fails the run as `side effect: …`.
   */
  readonly watch?: readonly string[];
  /**
   * The run's wall-clock limit in ms (bench `--run-timeout`): past it the run's calls are
   * aborted and it ends as an infrastructure error (`run timeout: …`, code `run-timeout`),
   * its trace kept. Absent: no limit.
   */
  readonly runTimeoutMs?: number;
  readonly judges?: { readonly exact?: AnswerJudge; readonly model?: AnswerJudge };
  /** Secrets to redact from the trace besides anything that looks like a key (ignored when `redactor` is given). */
  readonly secrets?: readonly string[];
  /**
   * The redaction pass shared by every file of the run (and of the bench around it): the
   * trace, the result, and what the caller writes with it. Passwords typed during the run
   * are added to it. Default: a new one with `secrets`.
   */
  readonly redactor?: Redactor;
  /**
   * Model errors to inject into the policy's replies (`--model-faults`), seeded; the
   * faults that fired are in the result's `modelFaults`. The loop is unchanged.
   */
  readonly modelFaults?: { readonly config: ModelFaultConfig; readonly seed: number };
  /** Skills (`loadSkills`) the SenseAct modes replay without a model before planning; the planner takes over on any mismatch. */
  readonly skills?: readonly Skill[];
  /**
   * The task's start steps on the device (a snapshot load, `pm clear`, install checks, adb
   * commands, a launch, `manual` preconditions), run after `task-start` and before the
   * agent's first step; `report` writes each step's outcome to the trace
   * (`start-step-end`). A throw ends the run as an infrastructure error (`where: start`),
   * its trace kept.
   */
  /**
   * Limits on the run's model calls, tokens and cost (`--max-model-calls`, `--max-tokens`,
   * `--max-cost`); the task file's `modelBudget` applies too, the tighter limit winning. A
   * run that reaches one stops with the reason `budget: …`, a failure of the run.
   */
  readonly budget?: ModelBudget;
  /** The prices a cost limit is counted at; a cost limit without them is refused (what would it count?). */
  readonly budgetPrices?: BudgetPrices;
  /** Actions that cannot be undone are confirmed first (`SenseActAgent`); absent: no such check (the benchmark). */
  readonly irreversible?: IrreversiblePolicy;
  /** Told of every trace event of the run as it is written (progress of a caller); it must not throw. */
  readonly onTraceEvent?: (event: TraceEvent) => void;
  /** How the run is written (`TraceFormat`): a folder of files (`full`, the default), one trace file with its artifacts in a store shared by the runs beside it (`compact`), or nothing (`none`). */
  readonly traceFormat?: TraceFormat;
  readonly startSteps?: (report: (outcome: StartStepOutcome) => void, signal?: AbortSignal) => Promise<void>;
}

/**
 * Runs one task in one mode and returns its result. Success comes from the task's own
 * check over the final screen (and, on the simulator, app state), never from the agent.
 * Infrastructure failures (device lost, a model that never replies validly) end the run
 * with `error` set; the trace written so far stays on disk.
 */
export async function runTask(options: RunTaskOptions): Promise<TaskRunResult> {
  const { task, mode } = options;
  const ledger = new UsageLedger();
  const redactor = options.redactor ?? new Redactor(options.secrets ?? []);
  const trace = new TraceWriter({ root: options.traceRoot, suite: options.suite, task: task.id, ...(options.runId ? { runId: options.runId } : {}), ifExists: options.replaceTrace ? 'replace' : 'suffix', redactor, ...(options.onTraceEvent ? { onEvent: options.onTraceEvent } : {}), ...(options.traceFormat === undefined ? {} : { format: options.traceFormat }) });
  const started = performance.now();
  const react = !isSenseActMode(mode);
  // A dense screen's view keeps the rows that name the task's words (the oracle renders the same view).
  const perception = { ...options.perception, viewFocus: options.perception?.viewFocus ?? viewFocusWords(task.instruction) };
  const wired = wirePolicy(options, trace, perception, react);
  const budgetCheck = spendCheckFor(options, ledger);
  // Every call of the run listens to the watchdog's signal (which passes the caller's on).
  const watchdog = startRunWatchdog(options.runTimeoutMs, options.signal);
  const session = new AgentSession(wired.device, wired.models, ledger, trace, perception, watchdog.signal, budgetCheck);
  wired.step.now = () => session.step;
  const guard = new ForegroundGuard(task);
  trace.emit({ type: 'run-start', step: null, runId: trace.runId, suite: options.suite, task: task.id, mode, startedAt: new Date().toISOString(), config: { policy: options.policy, oracle: options.policy === 'oracle', device: options.device.info.name, ...(options.device.info.servedBy === undefined ? {} : { servedBy: options.device.info.servedBy }) } });
  trace.emit({ type: 'task-start', step: null, taskId: task.id, instruction: task.instruction, app: task.app, stepBudget: task.stepBudget });

  const appTrail: AppTrailStep[] | undefined = options.appMemory && !react ? [] : undefined;
  const planning: PlanningOptions | undefined = options.appMemory && !react ? { appHints: options.appMemory, ...options.planning } : options.planning;
  const context: RunContext = { session, guard, trace, planning, appTrail, watchdog, signal: watchdog.signal };
  const outcome = await playAndJudge(options, context);
  watchdog.stop();
  const faults = await readFaultLog(options, context, outcome);
  const totals = ledger.totals();
  const replyRepairs = ledger.replyRepairs();
  const totalMs = performance.now() - started;
  const { run, error } = outcome;
  trace.emit({ type: 'task-end', step: null, taskId: task.id, success: error === null ? outcome.success : null, reason: outcome.reason, steps: run?.steps ?? 0, ...(run?.answer === undefined ? {} : { answer: run.answer }) });
  trace.emit({ type: 'run-end', step: null, status: error === null ? 'completed' : 'failed', durationMs: totalMs, usage: { ...totals, ...(Object.keys(replyRepairs).length === 0 ? {} : { replyRepairs }) } });
  const result = taskRunResult(options, { outcome, session, totals, replyRepairs, totalMs, guard, faults, modelFaults: wired.injector?.log() ?? [], traceDir: trace.dir, planning });
  trace.writeRunFile('result.json', result);
  // The run counts as done (and the bench journals it) only once its trace is on disk.
  await trace.close();
  // The result goes on to journals and reports: it leaves redacted, as the trace did.
  return redactor.deep(result);
}

/** The models that answer the run, the device the loop drives, and the model-fault injector (when asked for). */
interface WiredPolicy {
  readonly models: AgentModels;
  readonly device: Device;
  readonly injector: ModelFaultInjector | undefined;
  /** The loop's current step, for the injector's trace events; set once the session exists. */
  readonly step: { now: () => number | null };
}

/**
 * The oracle plans, verifies and sees from the reference solution (a certifier given
 * beside it still compresses the memory), through a read-only watch of the device;
 * the llm policy uses the caller's models. Model faults wrap either.
 */
function wirePolicy(options: RunTaskOptions, trace: TraceWriter, perception: PerceptionOptions, react: boolean): WiredPolicy {
  const { task, probe } = options;
  const oracle = options.policy === 'oracle'
    ? createOraclePolicy(task, { react, ...(probe ? { probe } : {}), perception })
    : undefined;
  let models: AgentModels;
  if (oracle) models = options.models?.certifier ? { ...oracle.models, certifier: options.models.certifier } : oracle.models;
  else if (options.models) models = options.models;
  else throw new SenseActAgentError({ code: 'agent-models', message: 'runTask: the llm policy needs models (option models: a planner, and vision for senseact/react-vlm): configure them (SENSEACT_BASE_URL / SENSEACT_API_KEY / SENSEACT_MODEL) or use policy "oracle".' });
  // Each injected fault goes into the trace at the step whose model call it corrupted; the listener only writes.
  const step = { now: (): number | null => null };
  const injector = options.modelFaults
    ? new ModelFaultInjector(options.modelFaults.config, options.modelFaults.seed, (fault) => trace.emit({ type: 'model-fault-injected', step: step.now(), kind: fault.kind, role: fault.role, detail: fault.detail }))
    : undefined;
  if (injector) models = injector.wrap(models);
  // Injected device faults go into the trace at the step whose device call they struck; the loop drives the same device.
  const faulted = options.traceDeviceFaults === true && probe
    ? new FaultWatchedDevice(options.device, probe, (faults) => {
      for (const fault of faults) trace.emit({ type: 'device-fault', step: step.now(), kind: fault.kind, detail: fault.detail });
    })
    : options.device;
  // The oracle sees the screens through a read-only watch; the loop drives the same device either way.
  const device = oracle ? oracle.watch(faulted) : faulted;
  return { models, device, injector, step };
}

/** The check the session runs before each model call: the run's budget, the task's and the caller's, the tighter winning. */
function spendCheckFor(options: RunTaskOptions, ledger: UsageLedger): (() => void) | undefined {
  const budget = tighterBudget(options.budget, options.task.modelBudget);
  if (budget?.maxCostUsd !== undefined && options.budgetPrices === undefined) {
    throw new ModelConfigError(`task ${options.task.id}: a cost limit of $${budget.maxCostUsd} needs prices to count it at: give the model's prices (--price-prompt and --price-completion), or set a call or token limit instead.`);
  }
  return budget === undefined ? undefined : (): void => {
    const reached = budgetReached(budget, ledger.totals(), options.budgetPrices);
    if (reached !== undefined) throw new ModelBudgetError(reached);
  };
}

/** How the run went: the loop's end (absent when it never started), the task's verdict, or the infrastructure error that ended it. */
interface RunOutcome {
  run: AgentRunEnd | undefined;
  error: string | null;
  /** The model's failure outside the loop (the answer judge's reply): the run failed, the infrastructure worked. */
  lateModelStop: string | undefined;
  /** Changes of watched state outside the task's scope. */
  sideEffects: SideEffect[];
  success: boolean;
  reason: string;
  subGoals: SubGoalCount;
}

/** What the run's phases share. */
interface RunContext {
  readonly session: AgentSession;
  readonly guard: ForegroundGuard;
  readonly trace: TraceWriter;
  readonly planning: PlanningOptions | undefined;
  readonly appTrail: AppTrailStep[] | undefined;
  /** The run's wall-clock limit (`runTimeoutMs`). */
  readonly watchdog: RunWatchdog;
  /** What the run's calls listen to: the watchdog's signal, which passes the caller's on. */
  readonly signal: AbortSignal | undefined;
}

/**
 * Runs the start steps, the loop of the mode, and the task's check under the run's
 * watchdog; a throw anywhere (the watchdog's limit too) is the run's infrastructure error,
 * traced with where it happened.
 */
async function playAndJudge(options: RunTaskOptions, context: RunContext): Promise<RunOutcome> {
  const { session, trace, watchdog } = context;
  const outcome: RunOutcome = { run: undefined, error: null, lateModelStop: undefined, sideEffects: [], success: false, reason: '', subGoals: { met: 0, total: 0 } };
  const progress = { where: 'start' };
  try {
    // Past the limit the guard ends the run even if a step does not listen to the signal.
    const work = playJudgeLearn(options, context, outcome, progress);
    work.catch(() => undefined);
    await watchdog.guard(work);
  } catch (thrown) {
    // A call the watchdog aborted throws its own abort error: the run ended because of the limit.
    const caught = watchdog.fired() ? (watchdog.signal?.reason as unknown) : thrown;
    // The model's failure outside the loop (the answer judge's reply): the run failed, the infrastructure worked.
    outcome.lateModelStop = modelStopReason(caught);
    if (outcome.lateModelStop !== undefined) outcome.reason = `${outcome.lateModelStop}${outcome.run === undefined ? '' : ` (agent: ${outcome.run.stopReason})`}`;
    else {
      outcome.error = caught instanceof Error ? caught.message : String(caught);
      outcome.reason = `infrastructure error: ${outcome.error}`;
    }
    const known = SenseActError.isInstance(caught);
    trace.emit({
      type: 'error',
      step: session.step,
      message: outcome.lateModelStop ?? outcome.error ?? '',
      ...(caught instanceof Error ? { name: caught.name, ...(caught.stack ? { stack: caught.stack } : {}) } : {}),
      ...(known ? { code: caught.code } : {}),
      where: progress.where,
      infrastructure: outcome.lateModelStop === undefined,
    });
  }
  return outcome;
}

/** The run's work: start steps, the watched state before, the loop of the mode, the task's check, what the app memory learns. */
async function playJudgeLearn(options: RunTaskOptions, context: RunContext, outcome: RunOutcome, progress: { where: string }): Promise<void> {
  const { trace, signal } = context;
  await options.startSteps?.((step) => {
    trace.emit({ type: 'start-step-end', step: null, index: step.index, description: step.step, outcome: step.outcome, ...(step.output === undefined ? {} : { output: step.output }) });
  }, signal);
  // Watched after the start steps: what they set up is the task's starting point, not a side effect.
  const watchedBefore: WatchedState = await readWatchedState(options.probe, options.watch ?? [], signal ? { signal } : {});
  progress.where = 'run';
  outcome.run = await playMode(options, context);
  Object.assign(outcome, await judgeRun(options, context, outcome.run, watchedBefore));
  await learnRun(options, context, outcome.success);
}

/** The loop of the mode: a ReAct baseline, or SenseAct with its memory, skills and planning aids. */
async function playMode(options: RunTaskOptions, context: RunContext): Promise<AgentRunEnd> {
  const { task, mode } = options;
  const { session, guard, planning, appTrail } = context;
  if (!isSenseActMode(mode)) return runReact({ task, mode: mode as 'react-vlm' | 'react-text', session, guard });
  return runSenseAct({
    task,
    mode,
    session,
    guard,
    ...(options.memory ? { memory: options.memory.forRun(options.memoryRun ?? `${task.id}/${context.trace.runId}`) } : {}),
    ...(options.gateThreshold === undefined ? {} : { gateThreshold: options.gateThreshold }),
    ...(options.gateImageDetail === undefined ? {} : { gateImageDetail: options.gateImageDetail }),
    ...(options.skills ? { skills: options.skills } : {}),
    ...(planning ? { planning } : {}),
    ...(appTrail ? { appTrail } : {}),
    ...(options.irreversible ? { irreversible: options.irreversible } : {}),
  });
}

/**
 * The task's own check over the final screen, the app state and adb outputs the probe
 * gives, and the answer; leaving the allowed apps or running out of model budget fails
 * the run whatever the screen shows.
 */
async function judgeRun(options: RunTaskOptions, context: RunContext, run: AgentRunEnd, watchedBefore: WatchedState): Promise<Pick<RunOutcome, 'sideEffects' | 'success' | 'reason' | 'subGoals'>> {
  const { task, probe } = options;
  const { session, guard } = context;
  const callOptions = context.signal ? { signal: context.signal } : {};
  // The judge's model is the session's: its calls are metered with the run and leave their trace files.
  const judges = options.judges?.model === undefined && session.judge !== undefined ? { ...options.judges, model: new ModelAnswerJudge(session.judge) } : options.judges;
  const sideEffects = findSideEffects(watchedBefore, await readWatchedState(probe, options.watch ?? [], callOptions), taskScope(task));
  const appState = await probe?.appState(callOptions);
  const adbCommands = [...(task.success?.adb ?? []).map((check) => check.command), ...(task.answer?.fromAdb ? [task.answer.fromAdb.command] : [])];
  const adbOutputs = probe && adbCommands.length > 0 ? await probe.adbOutputs(adbCommands, callOptions) : undefined;
  const verdict = await evaluateSuccess(task, {
    finalTree: run.finalScreen.perception.tree,
    ...(appState ? { appState } : {}),
    ...(adbOutputs ? { adbOutputs } : {}),
    ...(run.answer === undefined ? {} : { answer: run.answer }),
    ...(judges ? { judges } : {}),
    ...(context.signal ? { signal: context.signal } : {}),
  });
  const subGoals = countSubGoals(task, verdict, run.finalScreen.perception.tree);
  // Leaving the allowed apps fails the task whatever the screen shows afterwards (docs/architecture.md §2.10).
  const leftOut = guard.left.length > 0 && task.mayLeaveAllowedApps !== true;
  // A run its model stopped (budget, no usable reply) failed, whatever the screen shows: the model did not finish with what it was given.
  // So does a change of watched state outside the task's scope: the run did something it was not asked to.
  const success = verdict.success && !leftOut && run.modelStopped !== true && sideEffects.length === 0;
  const reason = `${run.modelStopped === true ? `${run.stopReason}; ` : ''}${sideEffectsReason(sideEffects)}${leftOut ? `left the allowed apps (entered ${[...new Set(guard.left)].join(', ')}); ` : ''}${verdict.reason} (agent: ${run.stopReason})`;
  return { sideEffects, success, reason, subGoals };
}

/** Once the run is judged, the app memory learns its verified intents (a note of its path only when it succeeded), and the certifier compresses the maps it taught. */
async function learnRun(options: RunTaskOptions, context: RunContext, success: boolean): Promise<void> {
  const { task, appMemory } = options;
  const { session, appTrail, trace } = context;
  if (!appTrail || !appMemory) return;
  const learned = await appMemory.learn({ taskId: task.id, app: task.app, instruction: task.instruction, success, trail: appTrail, ...(options.appMemoryRun === undefined ? {} : { runKey: options.appMemoryRun }) });
  if (session.certifier) await summariseLearned(appMemory, learned, session.certifier, trace, context.signal);
}

/** The faults the device injected; not getting the log is an infrastructure error (the run's, unless it already has one). */
async function readFaultLog(options: RunTaskOptions, context: RunContext, outcome: RunOutcome): Promise<readonly string[]> {
  const { session, trace, signal } = context;
  try {
    return ((await options.probe?.faultLog(signal ? { signal } : {})) ?? []).map((fault) => fault.kind);
  } catch (caught) {
    // The fault log is part of the result: not getting it is an infrastructure failure.
    const message = `could not read the device's fault log: ${caught instanceof Error ? caught.message : String(caught)}`;
    trace.emit({ type: 'error', step: session.step, message, where: 'run', infrastructure: true });
    if (outcome.error === null) {
      outcome.error = message;
      outcome.reason = `infrastructure error: ${message}`;
    }
    return [];
  }
}

/** The run's result as results.json keeps it. */
function taskRunResult(options: RunTaskOptions, ended: { readonly outcome: RunOutcome; readonly session: AgentSession; readonly totals: ReturnType<UsageLedger['totals']>; readonly replyRepairs: ReplyRepairsByRole; readonly totalMs: number; readonly guard: ForegroundGuard; readonly faults: readonly string[]; readonly modelFaults: readonly { readonly kind: string }[]; readonly traceDir: string; readonly planning: PlanningOptions | undefined }): TaskRunResult {
  const { task } = options;
  const { outcome: { run, error, lateModelStop, sideEffects }, session, totals } = ended;
  const latency = session.latency;
  return {
    id: task.id,
    app: task.app,
    ...(task.difficulty === undefined ? {} : { difficulty: task.difficulty }),
    mode: options.mode,
    policy: options.policy,
    repeat: options.repeat ?? 0,
    success: error === null && ended.outcome.success,
    reason: ended.outcome.reason,
    steps: run?.steps ?? 0,
    llmCalls: session.llmCalls,
    plannerCalls: session.plannerCalls,
    vlmCalls: session.vlmCalls,
    imagesUploaded: totals.images,
    imageBytes: totals.imageBytes,
    imageTokens: totals.imageTokens,
    imageSizes: totals.imageSizes,
    promptTokensBySection: totals.promptSections,
    modelAttempts: totals.attempts,
    ...(totals.cachedPromptTokens > 0 ? { cachedPromptTokens: totals.cachedPromptTokens } : {}),
    ...(totals.estimatedCalls > 0 ? { estimatedUsageCalls: totals.estimatedCalls } : {}),
    ...(totals.sharedPrefixTokens > 0 ? { sharedPrefixTokens: totals.sharedPrefixTokens } : {}),
    ...(Object.keys(ended.replyRepairs).length === 0 ? {} : { replyRepairs: ended.replyRepairs }),
    promptTokens: totals.promptTokens,
    completionTokens: totals.completionTokens,
    latency: { deviceMs: latency.deviceMs, perceptionMs: latency.perceptionMs, modelMs: latency.modelMs, verificationMs: latency.verificationMs, totalMs: ended.totalMs },
    verification: run?.verification ?? { pass: 0, fail: 0, inconclusive: 0 },
    gateReasons: run?.gateReasons ?? {},
    leftAllowedApps: [...ended.guard.left],
    ...(sideEffects.length === 0 ? {} : { sideEffects: sideEffects.slice(0, maxRecordedSideEffects).map(describeSideEffect) }),
    faults: [...ended.faults],
    modelFaults: ended.modelFaults.map((fault) => fault.kind),
    error,
    traceDir: ended.traceDir,
    ...(options.device.info.servedBy === undefined ? {} : { servedBy: options.device.info.servedBy }),
    ...(run?.answer === undefined ? {} : { answer: run.answer }),
    ...(run === undefined && lateModelStop === undefined ? {} : { stopReason: lateModelStop ?? run?.stopReason ?? '', agentFinished: run?.finished ?? false }),
    subGoals: ended.outcome.subGoals,
    operations: session.operations.totals(),
    referenceSteps: task.referenceSteps ?? null,
    ...(run?.skill ? { skill: skillRun(run.skill, run.calledSkills ?? []) } : {}),
    ...(run?.planning && planningOn(ended.planning) ? { planning: run.planning } : {}),
  };
}

/** Side effects kept in a result (the count of the rest is in its reason). */
const maxRecordedSideEffects = 20;

/** The reason's prefix for side effects: the first three, and how many more. */
function sideEffectsReason(effects: readonly SideEffect[]): string {
  if (effects.length === 0) return '';
  const more = effects.length > 3 ? ` (and ${effects.length - 3} more side effects)` : '';
  return `${effects.slice(0, 3).map(describeSideEffect).join('; ')}${more}; `;
}

/** True when any planning aid (docs/planning.md) is on (the result then carries its usage). */
function planningOn(planning: PlanningOptions | undefined): boolean {
  return planning !== undefined && (planning.metaPlan === true || (planning.vote?.samples ?? 1) > 1 || planning.appHints !== undefined);
}

/** Has the certifier compress the maps a run taught something, tracing what became of each (its tokens count in the run's usage). */
async function summariseLearned(memory: AppMemory, apps: readonly string[], certifier: LanguageModel, trace: TraceWriter, signal: AbortSignal | undefined): Promise<void> {
  for (const app of apps) {
    const outcome = await summariseAppMemory({ memory, packageName: app, certifier, countTokens: estimateTokens, ...(signal ? { signal } : {}) });
    trace.emit({ type: 'memory-summary-end', step: null, app, kept: outcome.kept, mapTokens: outcome.mapTokens, ...(outcome.kept ? { tokens: outcome.tokens } : { reason: outcome.reason }) });
  }
}

/** The result's record of the skill replays: the one matched at the start, and the ones the planner called by name. */
function skillRun(start: SkillRunEnd, called: readonly SkillRunEnd[]): SkillRun {
  const calls = called.flatMap((end) => (end.outcome === 'no-match' || end.skill === undefined ? [] : [{ skill: end.skill, outcome: end.outcome, steps: end.steps }]));
  return { outcome: start.outcome, reason: start.reason, steps: start.steps, ...(start.skill === undefined ? {} : { skill: start.skill }), ...(calls.length === 0 ? {} : { called: calls }) };
}
