import { mkdir, readdir, readFile } from 'node:fs/promises';
import type { PublishedResults } from './published-results.js';
import type { CassetteUse } from '../model/cassette-player.js';
import * as path from 'node:path';
import { noPlanningAids, taskRunResultSchema, type AgentMode, type PlanningConditions, type PolicyName, type RunConditions, type TaskRunResult } from '../agent/task-run-result.js';
import { debugLog } from '../util/debug-log.js';
import { Redactor } from '../util/redactor.js';
import { stableHashHex } from '../util/stable-hash.js';
import { BenchError } from './bench-error.js';
import { acquireBenchLock, benchLockFileName } from './bench-lock.js';
import { benchResultsSchema, benchResultsVersion, defaultTokenPrices, type BenchResults, type TokenPrices } from './bench-results.js';
import { computeModeMetrics } from './compute-mode-metrics.js';
import { readResultsJournal, ResultsJournal } from './results-journal.js';
import { ResultsFileWriter } from './results-file-writer.js';
import { resumeMismatches, type ResumeConditions } from './resume-conditions.js';
import type { SkillsDigest } from '../skills/skills-digest.js';
import type { BenchTask, TaskExecutor } from './task-executor.js';
import { asPathKindError } from '../util/path-kind-error.js';

/** File names inside a bench output dir. */
export const benchFiles = {
  results: 'results.json',
  journal: 'results.jsonl',
  traces: 'traces',
} as const;

/** Progress of a benchmark, reported at the start and after every finished run. */
export interface BenchProgress {
  /** Runs planned (tasks × modes × repeats). */
  readonly total: number;
  /** Runs finished, including those recovered from the journal on --resume. */
  readonly done: number;
  /** Runs recovered from an earlier, interrupted run. */
  readonly resumed: number;
  readonly successes: number;
  readonly errors: number;
  readonly running: number;
  /** The run that just finished; absent in the first report. */
  readonly last?: { readonly id: string; readonly mode: AgentMode; readonly repeat: number; readonly success: boolean; readonly error: string | null };
}

export interface RunBenchmarkOptions<Task extends BenchTask> {
  readonly tasks: readonly Task[];
  readonly modes: readonly AgentMode[];
  /** Repeats per (task, mode), ≥ 1. */
  readonly repeat: number;
  /** Runs in flight at once, ≥ 1. */
  readonly concurrency: number;
  readonly outDir: string;
  /** Finish an interrupted run in `outDir` instead of refusing a non-empty dir. */
  readonly resume: boolean;
  /** With `resume`: go on even when the recorded run had other conditions (suite, modes, device, faults, model faults, gate threshold, temperature, policy, model). */
  readonly force?: boolean;
  readonly executor: TaskExecutor<Task>;
  readonly policy: PolicyName;
  readonly suite: string;
  readonly device?: string | null;
  /** The device is the simulator (recorded in results; the table's title says so). */
  readonly simulated?: boolean;
  readonly faults?: string | null;
  /** The `--model-faults` profile, recorded in results and in each run's conditions. */
  readonly modelFaults?: string | null;
  /** The VLM gate's threshold (`--gate-threshold`) the executor was wired with, recorded in results and in each run's conditions; null: the default. */
  readonly gateThreshold?: number | null;
  /** The temperature of every model role (`--temperature`), recorded likewise; null: the configured one. */
  readonly temperature?: number | null;
  /** Recorded in results; `none` for the oracle policy. */
  readonly modelLabel?: string;
  /** The `--skills` folder's digest (`skillsDigest`), recorded in results and compared on resume; null or absent without skills. */
  readonly skills?: SkillsDigest | null;
  /** The planning aids the executor was wired with, recorded in results and in each run's conditions and compared on resume; absent: none. */
  readonly planning?: PlanningConditions;
  /** The suite's own benchmark's published success rates, recorded beside ours. */
  readonly reference?: PublishedResults | null;
  readonly prices?: TokenPrices;
  readonly onProgress?: (progress: BenchProgress) => void;
  /**
   * After this many runs in a row ended in an infrastructure error, no new run starts (in
   * flight ones finish) and the results say why (`breaker`); default
   * {@link defaultBreakAfterInfrastructureErrors}, 0 turns the breaker off.
   */
  readonly breakAfterInfrastructureErrors?: number;
  /** What the whole bench may spend: no new run starts once the finished runs reach a limit (results.json `totalBudget`). */
  readonly totalBudget?: BenchTotalBudget;
  /** When the runs replay a cassette: how they used it, recorded in results.json (`cassette`). */
  readonly cassette?: { readonly use: () => CassetteUse; readonly strict: boolean };
  /** Cancels the benchmark: no new run starts, in-flight runs are abandoned, results are written as incomplete. */
  readonly signal?: AbortSignal;
  /**
   * Called once before the first run starts with the results kept from the journal (none
   * on a fresh start): the runs whose effects may stay. State shared between runs (the
   * certificate memory) drops what other runs left, so a resumed benchmark continues from
   * exactly what an uninterrupted one would have had.
   */
  readonly beforeRuns?: (kept: readonly TaskRunResult[]) => Promise<void>;
  /**
   * What every result passes through before it reaches the journal, results.json and the
   * report (an error message may quote a key the endpoint echoed). Default: key patterns only.
   */
  readonly redactor?: Redactor;
}

/**
 * Runs in a row that may end in an infrastructure error before the bench stops starting
 * runs: a dead endpoint fails every run alike, and three in a row is no longer chance.
 */
export const defaultBreakAfterInfrastructureErrors = 3;

interface PlannedRun<Task extends BenchTask> {
  readonly key: string;
  readonly task: Task;
  readonly mode: AgentMode;
  readonly repeat: number;
  readonly traceDir: string;
}

/**
 * Runs every (task, mode, repeat) with at most `concurrency` runs in flight. Each
 * finished run is appended to `outDir/results.jsonl` (flushed to disk) and
 * `outDir/results.json` is rewritten atomically, so a killed benchmark can be finished
 * with `resume: true` without redoing finished runs (runs that ended with an
 * infrastructure `error` are run again). An executor that throws, or returns a result
 * that does not match the schema or the request, yields a run with `error` set; the
 * benchmark goes on.
 *
 * Throws `BenchError` for bad options, for a non-empty `outDir` without `resume`, and
 * for resuming a run recorded under other conditions (suite, modes, device, faults,
 * policy, model) unless `force`. Every run in results.json carries its `conditions`. Resolves with `complete: false` when
 * `signal` aborted it.
 */
export async function runBenchmark<Task extends BenchTask>(options: RunBenchmarkOptions<Task>): Promise<BenchResults> {
  validateOptions(options);
  const startedAtMs = Date.now();
  const outDir = path.resolve(options.outDir);
  const prices = options.prices ?? defaultTokenPrices;
  const previous = await prepareOutDir(outDir, options);
  const releaseLock = await acquireBenchLock(outDir);
  try {
    const plan = planRuns(options, outDir);
    const journalFile = path.join(outDir, benchFiles.journal);
    const redactor = options.redactor ?? new Redactor();
    const recovered = await recoverRuns(journalFile, plan, redactor);
    const state: BenchState<Task> = { plan, finished: recovered.finished, kept: recovered.kept, tripped: undefined, spent: totalBudgetReached(options.totalBudget, recovered.finished.values()) };
    const resumed = state.finished.size;
    const pending = plan.filter((run) => !state.finished.has(run.key));
    await options.beforeRuns?.([...state.finished.values(), ...state.kept.values()]);

    const clock = { startedAtMs, startedAt: previous?.startedAt ?? new Date(startedAtMs).toISOString(), priorWallMs: previous?.wallTimeMs ?? 0 };
    const snapshot = (): BenchResults => benchSnapshot(options, state, clock, prices);
    const writer = new ResultsFileWriter(path.join(outDir, benchFiles.results), snapshot);
    await writer.flush();

    const journal = await ResultsJournal.open(journalFile, recovered.completeBytes);
    const conditions: RunConditions = runConditionsOf(benchConditionsOf(options), new Date(startedAtMs).toISOString());
    const signal = options.signal ?? new AbortController().signal;
    await runPending(options, { pending, resumed, state, redactor, conditions, journal, writer, outDir, signal });
    await writer.flush();
    // Return exactly what is on disk, so a resumed run continues from the same numbers.
    return writer.lastWritten ?? snapshot();
  } finally {
    await releaseLock();
  }
}

/** The runs of a bench: the plan, the finished ones by key, those kept from outside the plan, the breaker once it trips and the total budget once reached. */
interface BenchState<Task extends BenchTask> {
  readonly plan: readonly PlannedRun<Task>[];
  readonly finished: Map<string, TaskRunResult>;
  readonly kept: ReadonlyMap<string, TaskRunResult>;
  tripped: BenchResults['breaker'];
  spent: BenchResults['totalBudget'];
}

/**
 * The runs the journal recorded, redacted, split into those of this plan (`finished`) and
 * those outside it (a --tasks subset on resume: `kept`, they stay in results.json as in
 * the journal); runs that ended with an infrastructure error are dropped, to run again.
 */
async function recoverRuns<Task extends BenchTask>(journalFile: string, plan: readonly PlannedRun<Task>[], redactor: Redactor): Promise<{ finished: Map<string, TaskRunResult>; kept: Map<string, TaskRunResult>; completeBytes: number }> {
  const planned = new Set(plan.map((run) => run.key));
  const recovered = await readResultsJournal(journalFile);
  if (recovered.skippedLines > 0) debugLog('bench', 'journal had unreadable lines', { skipped: recovered.skippedLines });
  const finished = new Map<string, TaskRunResult>();
  const kept = new Map<string, TaskRunResult>();
  for (const recoveredResult of recovered.results) {
    const result = redactor.deep(recoveredResult);
    const key = runKey(result.id, result.mode, result.repeat);
    (planned.has(key) ? finished : kept).set(key, result);
  }
  for (const runs of [finished, kept]) for (const [key, result] of runs) if (result.error !== null) runs.delete(key);
  return { finished, kept, completeBytes: recovered.completeBytes };
}

/** The conditions of a bench that --resume compares and results.json records in its options. */
function benchConditionsOf<Task extends BenchTask>(options: RunBenchmarkOptions<Task>): ResumeConditions {
  return {
    suite: options.suite,
    modes: [...options.modes],
    device: options.device ?? null,
    faults: options.faults ?? null,
    modelFaults: options.modelFaults ?? null,
    gateThreshold: options.gateThreshold ?? null,
    temperature: options.temperature ?? null,
    policy: options.policy,
    modelLabel: modelLabelOf(options),
    skills: options.skills ?? null,
    planning: options.planning ?? noPlanningAids,
  };
}

/** The conditions each run of this invocation records (`conditions` in results.json). */
function runConditionsOf(bench: ResumeConditions, startedAt: string): RunConditions {
  return { suite: bench.suite, device: bench.device, faults: bench.faults, modelFaults: bench.modelFaults, gateThreshold: bench.gateThreshold, temperature: bench.temperature, planning: bench.planning, policy: bench.policy, model: bench.modelLabel, startedAt };
}

/** results.json as of now: the finished runs in plan order, then the kept ones, with the metrics per mode. */
function benchSnapshot<Task extends BenchTask>(options: RunBenchmarkOptions<Task>, state: BenchState<Task>, clock: { readonly startedAtMs: number; readonly startedAt: string; readonly priorWallMs: number }, prices: TokenPrices): BenchResults {
  const planOrdered = state.plan.flatMap((run) => {
    const result = state.finished.get(run.key);
    return result === undefined ? [] : [result];
  });
  const ordered = [...planOrdered, ...state.kept.values()];
  const conditions = benchConditionsOf(options);
  return {
    version: benchResultsVersion,
    policy: options.policy,
    oracle: options.policy === 'oracle',
    options: {
      suite: conditions.suite,
      modes: [...conditions.modes],
      repeat: options.repeat,
      concurrency: options.concurrency,
      device: conditions.device,
      simulated: options.simulated ?? null,
      faults: conditions.faults,
      modelFaults: conditions.modelFaults,
      gateThreshold: conditions.gateThreshold,
      temperature: conditions.temperature,
      policy: conditions.policy,
      modelLabel: conditions.modelLabel,
      taskIds: options.tasks.map((task) => task.id),
      skills: conditions.skills,
      planning: conditions.planning,
    },
    prices,
    startedAt: clock.startedAt,
    updatedAt: new Date().toISOString(),
    wallTimeMs: clock.priorWallMs + (Date.now() - clock.startedAtMs),
    complete: planOrdered.length === state.plan.length,
    expectedRuns: state.plan.length + state.kept.size,
    ...(state.tripped === undefined ? {} : { breaker: state.tripped }),
    ...(state.spent === undefined ? {} : { totalBudget: state.spent }),
    ...(options.cassette === undefined ? {} : { cassette: cassetteOf(options.cassette) }),
    modes: computeModeMetrics(ordered, options.modes, prices),
    tasks: ordered,
    reference: options.reference ?? null,
  };
}

/**
 * Runs the pending runs, `concurrency` at a time, until done, aborted, the breaker
 * trips (`breakAfterInfrastructureErrors` infrastructure errors in a row: no new run
 * starts) or the finished runs reach the total budget (no new run starts either). Each result is journalled, counted and reported, and results.json rewritten.
 */
async function runPending<Task extends BenchTask>(options: RunBenchmarkOptions<Task>, bench: { readonly pending: readonly PlannedRun<Task>[]; readonly resumed: number; readonly state: BenchState<Task>; readonly redactor: Redactor; readonly conditions: RunConditions; readonly journal: ResultsJournal; readonly writer: ResultsFileWriter; readonly outDir: string; readonly signal: AbortSignal }): Promise<void> {
  const { pending, state, signal } = bench;
  const breakAfter = options.breakAfterInfrastructureErrors ?? defaultBreakAfterInfrastructureErrors;
  let errorStreak: TaskRunResult[] = [];
  let running = 0;
  let successes = [...state.finished.values()].filter((result) => result.success).length;
  let errors = 0;
  const report = (last?: BenchProgress['last']): void => {
    options.onProgress?.({ total: state.plan.length, done: state.finished.size, resumed: bench.resumed, successes, errors, running, ...(last === undefined ? {} : { last }) });
  };
  report();

  let next = 0;
  let closed = false;
  const worker = async (): Promise<void> => {
    while (!signal.aborted && state.tripped === undefined && state.spent === undefined && next < pending.length) {
      const run = pending[next++];
      if (run === undefined) break;
      running++;
      const executed = await executeRun(run, options, bench.outDir, signal);
      running--;
      // A run cut short by the abort is not a result: --resume will run it again.
      if (executed === undefined || closed) continue;
      const result: TaskRunResult = { ...bench.redactor.deep(executed), conditions: bench.conditions };
      await bench.journal.append(result);
      state.finished.set(run.key, result);
      if (result.success) successes++;
      if (result.error !== null) errors++;
      errorStreak = result.error === null ? [] : [...errorStreak, result];
      const first = errorStreak[0];
      if (breakAfter > 0 && errorStreak.length >= breakAfter && state.tripped === undefined && first !== undefined && next < pending.length) {
        state.tripped = { failures: errorStreak.length, cause: first.error ?? '', run: first.traceDir };
        debugLog('bench', 'breaker: no new runs', state.tripped);
      }
      state.spent ??= totalBudgetReached(options.totalBudget, state.finished.values());
      report({ id: result.id, mode: result.mode, repeat: result.repeat, success: result.success, error: result.error });
      bench.writer.schedule();
    }
  };
  const workers = Array.from({ length: Math.min(options.concurrency, Math.max(pending.length, 1)) }, worker);
  try {
    await Promise.race([Promise.all(workers), abortPromise(signal)]);
  } finally {
    closed = true;
    await bench.journal.close();
  }
}

function modelLabelOf<Task extends BenchTask>(options: RunBenchmarkOptions<Task>): string {
  return options.modelLabel ?? (options.policy === 'oracle' ? 'none' : 'unknown');
}

function validateOptions<Task extends BenchTask>(options: RunBenchmarkOptions<Task>): void {
  const bad = (option: string, message: string): BenchError => new BenchError({ code: 'bench-option', message: `${option}: ${message}` });
  if (!Number.isInteger(options.repeat) || options.repeat < 1) throw bad('repeat', `must be an integer ≥ 1, got ${options.repeat}`);
  if (!Number.isInteger(options.concurrency) || options.concurrency < 1) throw bad('concurrency', `must be an integer ≥ 1, got ${options.concurrency}`);
  if (options.modes.length === 0) throw bad('modes', 'at least one mode is needed');
  if (new Set(options.modes).size !== options.modes.length) throw bad('modes', `a mode is listed twice: ${options.modes.join(',')}`);
  if (options.tasks.length === 0) throw bad('tasks', `suite ${options.suite} has no tasks to run`);
  const seen = new Set<string>();
  for (const task of options.tasks) {
    if (seen.has(task.id)) throw bad('tasks', `task id ${task.id} appears twice in suite ${options.suite}; task ids must be unique`);
    seen.add(task.id);
  }
}

/** Checks the out dir may be used and returns the earlier results when resuming. */
async function prepareOutDir<Task extends BenchTask>(outDir: string, options: RunBenchmarkOptions<Task>): Promise<BenchResults | undefined> {
  await mkdir(outDir, { recursive: true });
  const entries = (await readdir(outDir)).filter((entry) => entry !== benchLockFileName);
  if (entries.length === 0) return undefined;
  if (!options.resume) {
    throw new BenchError({
      code: 'bench-out-dir-not-empty',
      message: `output dir ${outDir} is not empty (it holds ${entries.length} entries, e.g. ${entries.slice(0, 3).join(', ')}): pass --resume to finish the run in it, or choose another --out`,
    });
  }
  const resultsFile = path.join(outDir, benchFiles.results);
  let text: string;
  try {
    text = await readFile(resultsFile, 'utf8');
  } catch (error) {
    if (typeof error === 'object' && error !== null && 'code' in error && error.code === 'ENOENT') {
      if (entries.includes(benchFiles.journal)) return undefined;
      throw new BenchError({ code: 'bench-resume-foreign-dir', message: `cannot resume in ${outDir}: it has no ${benchFiles.results} or ${benchFiles.journal}, so it is not a bench output dir; choose another --out` });
    }
    throw asPathKindError(error, resultsFile, 'bench results');
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new BenchError({ code: 'bench-resume-bad-results', message: `cannot resume: ${resultsFile} is not valid JSON; choose another --out`, cause: error });
  }
  const parsed = benchResultsSchema.safeParse(json);
  if (!parsed.success) {
    throw new BenchError({ code: 'bench-resume-bad-results', message: `cannot resume: ${resultsFile} is not a results file of this version (${parsed.error.issues[0]?.message ?? 'schema mismatch'}); choose another --out`, cause: parsed.error });
  }
  const previous = parsed.data;
  const differences = resumeMismatches(previous.options, benchConditionsOf(options));
  if (differences.length > 0 && options.force !== true) {
    throw new BenchError({
      code: 'bench-resume-mismatch',
      message: `cannot resume in ${outDir}: it holds a run under other conditions:\n${differences.map((line) => `  - ${line}`).join('\n')}\nRun with the same options, choose another --out, or pass --force to mix them (every run records its own conditions in results.json).`,
    });
  }
  if (differences.length > 0) debugLog('bench', 'resuming under other conditions (--force)', { differences });
  return previous;
}

function planRuns<Task extends BenchTask>(options: RunBenchmarkOptions<Task>, outDir: string): PlannedRun<Task>[] {
  const plan: PlannedRun<Task>[] = [];
  for (let repeat = 0; repeat < options.repeat; repeat++) {
    for (const task of options.tasks) {
      for (const mode of options.modes) {
        plan.push({ key: runKey(task.id, mode, repeat), task, mode, repeat, traceDir: path.join(outDir, benchFiles.traces, safePathSegment(task.id), `${mode}-r${repeat}`) });
      }
    }
  }
  return plan;
}

function runKey(taskId: string, mode: AgentMode, repeat: number): string {
  return JSON.stringify([taskId, mode, repeat]);
}

/** A task id as one folder name: unchanged when safe, else sanitized plus a hash (no collisions). */
export function safePathSegment(id: string): string {
  const sanitized = id.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\.+/, '_');
  return sanitized === id && sanitized.length > 0 ? id : `${sanitized.slice(0, 80)}-${stableHashHex(id)}`;
}

/** Runs one planned run; undefined when the abort cut it short. */
async function executeRun<Task extends BenchTask>(run: PlannedRun<Task>, options: RunBenchmarkOptions<Task>, outDir: string, signal: AbortSignal): Promise<TaskRunResult | undefined> {
  const relativeTraceDir = path.relative(outDir, run.traceDir).split(path.sep).join('/');
  const started = Date.now();
  let returned: unknown;
  try {
    returned = await Promise.resolve().then(() => options.executor({ task: run.task, mode: run.mode, repeat: run.repeat, outDir, traceDir: run.traceDir, signal }));
  } catch (error) {
    if (signal.aborted) return undefined;
    debugLog('bench', 'executor threw', { id: run.task.id, mode: run.mode, repeat: run.repeat });
    return errorResult(run, options.policy, relativeTraceDir, `executor threw: ${describeError(error)}`, Date.now() - started);
  }
  const parsed = taskRunResultSchema.safeParse(returned);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return errorResult(run, options.policy, relativeTraceDir, `executor returned an invalid result (${issue === undefined ? 'schema mismatch' : `${issue.path.join('.')}: ${issue.message}`})`, Date.now() - started);
  }
  const result = parsed.data;
  const mismatch = [
    result.id === run.task.id ? '' : `id ${result.id} ≠ ${run.task.id}`,
    result.mode === run.mode ? '' : `mode ${result.mode} ≠ ${run.mode}`,
    result.repeat === run.repeat ? '' : `repeat ${result.repeat} ≠ ${run.repeat}`,
    result.policy === options.policy ? '' : `policy ${result.policy} ≠ ${options.policy}`,
  ].filter(Boolean);
  if (mismatch.length > 0) return errorResult(run, options.policy, relativeTraceDir, `executor returned a result for another run (${mismatch.join(', ')})`, Date.now() - started);
  // The executor's trace folder wins (a trace writer may pick its own name); it is kept relative to outDir.
  const traceDir = path.isAbsolute(result.traceDir) ? path.relative(outDir, result.traceDir).split(path.sep).join('/') : result.traceDir;
  return { ...result, traceDir };
}

function errorResult<Task extends BenchTask>(run: PlannedRun<Task>, policy: PolicyName, traceDir: string, error: string, elapsedMs: number): TaskRunResult {
  return {
    id: run.task.id,
    app: run.task.app,
    mode: run.mode,
    policy,
    repeat: run.repeat,
    success: false,
    reason: 'infrastructure error (see error)',
    steps: 0,
    llmCalls: 0,
    vlmCalls: 0,
    imagesUploaded: 0,
    imageBytes: 0,
    imageTokens: 0,
    imageSizes: {},
    promptTokensBySection: {},
    modelAttempts: 0,
    promptTokens: 0,
    completionTokens: 0,
    latency: { deviceMs: 0, perceptionMs: 0, modelMs: 0, verificationMs: 0, totalMs: elapsedMs },
    verification: { pass: 0, fail: 0, inconclusive: 0 },
    gateReasons: {},
    faults: [],
    modelFaults: [],
    error,
    traceDir,
    subGoals: { met: 0, total: 0 },
    operations: { total: 0, effective: 0 },
    referenceSteps: null,
  };
}

function describeError(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}

function abortPromise(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}

/** results.json's record of a replayed cassette's use. */
function cassetteOf(cassette: NonNullable<RunBenchmarkOptions<BenchTask>['cassette']>): NonNullable<BenchResults['cassette']> {
  const use = cassette.use();
  return { path: use.path, recorded: use.recorded, replayed: use.replayed, unused: use.unused.map((call) => ({ ...call })), strict: cassette.strict };
}

/** What a whole bench may spend on models (`--max-total-model-calls`, `--max-total-tokens`). */
export interface BenchTotalBudget {
  /** Model calls of every finished run, every role. */
  readonly maxModelCalls?: number;
  /** Prompt plus completion tokens of every finished run. */
  readonly maxTokens?: number;
}

/** The limit of `budget` the finished runs reached, in words, or undefined (also without a budget). */
function totalBudgetReached(budget: BenchTotalBudget | undefined, finished: Iterable<TaskRunResult>): BenchResults['totalBudget'] {
  if (budget === undefined) return undefined;
  let calls = 0;
  let tokens = 0;
  for (const run of finished) {
    calls += run.llmCalls + run.vlmCalls;
    tokens += run.promptTokens + run.completionTokens;
  }
  if (budget.maxModelCalls !== undefined && calls >= budget.maxModelCalls) return { reached: `${calls} model calls reached the limit of ${budget.maxModelCalls} (--max-total-model-calls)` };
  if (budget.maxTokens !== undefined && tokens >= budget.maxTokens) return { reached: `${tokens} tokens reached the limit of ${budget.maxTokens} (--max-total-tokens)` };
  return undefined;
}
