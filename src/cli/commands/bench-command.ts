import * as path from 'node:path';
import { formatDifficultyTable } from '../../bench/format-difficulty-table.js';
import { loadPublishedResults } from '../../bench/published-results.js';
import { Option } from 'commander';
import { agentModeSchema, policyNameSchema, type AgentMode, type PolicyName, type TaskRunResult } from '../../agent/task-run-result.js';
import { BenchError } from '../../bench/bench-error.js';
import { createBarProgressReporter, createLineProgressReporter, type BenchProgressReporter, type ProgressBarStream } from '../../bench/bench-progress-reporter.js';
import { defaultTokenPrices, type BenchResults, type TokenPrices } from '../../bench/bench-results.js';
import { describeBenchDisk } from '../../bench/folder-bytes.js';
import { formatPerAppTable, formatRepeatTable, formatResultsTable } from '../../bench/format-results-table.js';
import { formatSkillTable } from '../../bench/format-skill-table.js';
import { dryRunNeeds } from '../../bench/dry-run-needs.js';
import { benchFiles, defaultBreakAfterInfrastructureErrors, runBenchmark, type BenchTotalBudget, type RunBenchmarkOptions } from '../../bench/run-benchmark.js';
import { defaultRunTimeoutSeconds } from '../../bench/compose.js';
import { selectTasks, splitList, type TaskSelection } from '../../bench/select-tasks.js';
import { defaultBenchTraceFormat, type BenchExecutorFactory, type BenchExecutorHandle, type BenchExecutorOptions, type BenchPlanning } from '../../bench/task-executor.js';
import { traceFormats, type TraceFormat } from '../../trace/trace-writer.js';
import { defaultVoteTemperature } from '../../agent/planning/planning-options.js';
import { isSenseActMode } from '../../agent/loop/run-senseact.js';
import { defaultGateThreshold } from '../../agent/loop/vlm-gate.js';
import { validateBenchPlan } from '../../bench/validate-bench-plan.js';
import { writeJunit } from '../../bench/write-junit.js';
import { skillsDigest, type SkillsDigest } from '../../skills/skills-digest.js';
import { faultProfiles } from '../../sim/fault-injector.js';
import { modelFaultProfiles } from '../../agent/model-faults/model-fault-profile.js';
import { writeBenchReport } from '../../bench/write-bench-report.js';
import { loadSuite, type LoadSuiteOptions } from '../../tasks/load-task-file.js';
import type { Suite, Task } from '../../tasks/task-schema.js';
import { exitCodes, type CliIo } from '../cli-io.js';
import type { ModelBudget } from '../../model/model-budget.js';
import type { CommandRegistration } from '../command-registration.js';
import { tasksRootFor } from '../tasks-root.js';
import { statSync } from 'node:fs';

/** What `senseact bench` needs from outside: the real executor, and (for tests) the rest. */
export interface BenchCommandDependencies {
  /** Wires agent + device + models (the composition root's `createBenchExecutor`). */
  readonly createExecutor: BenchExecutorFactory<Task>;
  /** Writes the HTML report of a run dir and returns its path. Default: `writeBenchReport`. */
  readonly writeReport?: (runDir: string) => Promise<string>;
  readonly loadSuite?: (nameOrDir: string, options: LoadSuiteOptions) => Promise<Suite>;
  /** Where the progress bar goes when stderr is a terminal; null for plain lines. Default: process.stderr when it is a TTY. */
  readonly progressTty?: ProgressBarStream | null;
  readonly now?: () => Date;
  /** Cancels the run (default: SIGINT / SIGTERM of this process). */
  readonly signal?: AbortSignal;
}

/** Parsed and validated options of `senseact bench`. */
export interface BenchCommandOptions {
  readonly suite: string;
  readonly modes: AgentMode[];
  readonly device: string;
  readonly faults: string | undefined;
  readonly modelFaults: string | undefined;
  readonly concurrency: number;
  /** `--workers`: threads for runs on the in-process simulator (0: the main thread); undefined: as many as fit. */
  readonly workers: number | undefined;
  readonly repeat: number;
  readonly out: string;
  readonly resume: boolean;
  /** `--dry-run`: check and describe the plan, run nothing. */
  readonly dryRun?: boolean;
  /** With --resume: go on although the recorded run had other conditions. */
  readonly force: boolean;
  readonly policy: PolicyName | 'auto';
  /** From --price-prompt / --price-completion; undefined: the known price of the models used. */
  readonly prices: TokenPrices | undefined;
  readonly selection: TaskSelection;
  /** Where to write JUnit XML, resolved. */
  readonly junit: string | undefined;
  /** Print the comparison as one wide table (every column) instead of tables that fit 120 columns. */
  readonly wide?: boolean;
  /** A skills folder (--skills), resolved: the SenseAct modes replay a matching skill without a model before planning. */
  readonly skills?: string;
  /** Meta-plans, voting and app memory (docs/planning.md); off unless asked for. */
  readonly planning: BenchPlanning;
  /** `--gate-threshold`: the VLM gate's τ for the SenseAct modes; undefined: the gate's default. */
  readonly gateThreshold?: number;
  /** `--temperature`: sampling temperature of every model role; undefined: the configured one. */
  readonly temperature?: number;
  /** `--max-model-calls`, `--max-tokens`, `--max-cost`: limits of each run; undefined: none. */
  readonly budget?: ModelBudget;
  /** `--breaker <n>`: infrastructure errors in a row before no new run starts (0: never); undefined: the default. */
  readonly breaker?: number;
  /** `--run-timeout <seconds>`: each run's wall-clock limit (0: none); undefined: the default. */
  readonly runTimeoutSeconds?: number;
  /** `--trace`: how each run is written (default `compact`). */
  readonly trace: TraceFormat;
  /** `--max-total-model-calls`, `--max-total-tokens`: what the whole bench may spend; undefined: no limit. */
  readonly totalBudget?: BenchTotalBudget;
}

interface RawOptions {
  suite: string;
  mode: string;
  device: string;
  faults?: string;
  modelFaults?: string;
  concurrency: string;
  workers?: string;
  repeat: string;
  out?: string;
  resume?: boolean;
  force?: boolean;
  dryRun?: boolean;
  policy: string;
  pricePrompt?: string;
  priceCompletion?: string;
  priceCachedPrompt?: string;
  tasks?: string;
  tags?: string;
  junit?: string;
  wide?: boolean;
  skills?: string;
  metaPlan?: boolean;
  vote?: string;
  voteTemperature?: string;
  appMemory?: string;
  gateThreshold?: string;
  temperature?: string;
  maxModelCalls?: string;
  maxTokens?: string;
  maxCost?: string;
  maxTotalModelCalls?: string;
  maxTotalTokens?: string;
  breaker?: string;
  runTimeout?: string;
  trace?: string;
}

/** `senseact bench`'s exit codes, listed in its --help and the README. */
export const benchExitCodesHelp = `
Exit codes:
  ${exitCodes.ok}  every run finished (task failures are results, not errors)
  ${exitCodes.failure}  interrupted: some runs did not finish (finish them with --resume); ${exitCodes.interrupted} when
     Ctrl-C (SIGINT) stopped it, ${exitCodes.terminated} for SIGTERM, as a shell and npx report a signal
  ${exitCodes.badInput}  bad input: an option, the suite, the device profile, or tasks that cannot run
     under the chosen policy and device; nothing was run
  ${exitCodes.infrastructureError}  at least one run ended in an infrastructure error (device lost, model
     endpoint down or failing); the first causes are printed and results.json has them all;
     or a SENSEACT_CASSETTE=replay-strict: replay left recorded calls unused
`;

/**
 * `senseact bench`: runs a suite in one or more modes, prints the comparison table and
 * the paths of results.json and the HTML report. The composition root provides the
 * executor factory; register with `createBenchCommand({ createExecutor })`.
 */
export function createBenchCommand(dependencies: BenchCommandDependencies): CommandRegistration {
  return (program, io, setExitCode) => {
    program
      .command('bench')
      .description('Run a task suite in one or more agent modes and compare them (success, VLM calls, tokens, cost).')
      .requiredOption('--suite <suite>', 'suite name under tasks/ (e.g. sim, androidlab) or a folder of task YAML files')
      .requiredOption('--mode <modes>', `comma-separated modes: ${agentModeSchema.options.join(', ')}`, 'senseact')
      .requiredOption('--device <profile>', 'device profile name or path (devices/*.yaml)')
      .option('--faults <profile>', `fault profile to inject (simulator only): ${Object.keys(faultProfiles).join(', ')}`)
      .option('--model-faults <profile>', `model errors to inject into the oracle's replies (seeded: invalid JSON, invented or wrong unit ids, stale or missing expectations): ${Object.keys(modelFaultProfiles).join(', ')}`)
      .option('--concurrency <n>', 'runs in flight at once', '1')
      .option('--workers <n>', 'worker threads for runs on the in-process simulator, at most --concurrency (default SENSEACT_WORKERS, else 0: all on the main thread, which was faster on 2 cores; see docs/grid.md)')
      .option('--repeat <k>', 'runs per task and mode', '1')
      .option('--out <dir>', 'output dir (default runs/bench-<suite>-<timestamp>)')
      .option('--dry-run', 'load the suite and the device profile, check that every task can run there (start steps, checks, policy) and print how each would start; run nothing (--policy llm needs no model then)')
      .option('--resume', 'finish an interrupted run in --out, skipping runs already done')
      .option('--force', 'with --resume: go on although the run in --out had another suite, modes, device, faults, gate threshold, temperature, policy or model')
      .option('--tasks <ids>', 'comma-separated task ids or globs to run (e.g. clock-*,notes-create)')
      .option('--tags <tags>', 'comma-separated tags: run the tasks that have any of them')
      .option('--junit <file>', 'also write JUnit XML (one testcase per task, mode and repeat)')
      .option('--wide', 'print the comparison as one wide table with every column (about 200 characters); by default it is split into tables that fit 120 columns')
      .option('--skills <dir>', 'skills folder (senseact skills induce --out): senseact modes replay a matching skill without a model, each step verified, and hand over to the planner on any mismatch')
      .option('--meta-plan', 'senseact modes: ask for a meta-plan of at most 5 sub-tasks with completion checks; progress is checked on the screen and FINISH is refused while a checked sub-task is unmet')
      .option('--vote <n>', 'senseact modes: sample n plans per round and commit by majority over (units, arguments); n-1 extra planner calls per round', '1')
      .option('--vote-temperature <t>', `sampling temperature of the --vote samples (default ${defaultVoteTemperature})`)
      .option('--app-memory <dir>', 'senseact modes: learn a per-app abstraction memory (page map, task-family notes) from verified runs into <dir>, and give its hints to the planner; inspect with senseact memory show <app> --dir <dir>')
      .option('--gate-threshold <n>', `senseact modes: consecutive failures on the same target that open the VLM gate (τ, a whole number ≥ 1; default ${defaultGateThreshold})`)
      .option('--temperature <t>', 'sampling temperature of every model role, 0 to 2 (over SENSEACT_[<ROLE>_]TEMPERATURE); recorded in each run\'s conditions')
      .addOption(new Option('--policy <policy>', 'who decides actions: llm (the configured model), oracle (reference solutions, no model), or auto (the oracle on the simulator; on a real device llm when a model is configured, else oracle)').default('auto'))
      .option('--max-model-calls <n>', 'stop a run after n model calls (every role); it fails with the reason "budget: …" (a task file\'s modelBudget applies too, the tighter wins)')
      .option('--max-tokens <n>', 'stop a run once its prompt + completion tokens reach n (the call that crosses completes); a failure "budget: …"')
      .option('--max-cost <usd>', 'stop a run once its model cost reaches this many US dollars (at --price-prompt/--price-completion, else the model\'s list price); a failure "budget: …"')
      .option('--run-timeout <seconds>', `each run's wall-clock limit: a run past it is stopped and ends as an infrastructure error ('run timeout: …', exit ${exitCodes.infrastructureError}), its trace kept (default ${defaultRunTimeoutSeconds}; 0: none)`)
      .option('--max-total-model-calls <n>', 'the whole bench: no new run starts once its finished runs made n model calls (the runs in flight finish); exit 1 with the --resume line')
      .option('--max-total-tokens <n>', 'the whole bench: no new run starts once its finished runs used n prompt + completion tokens; exit 1 with the --resume line')
      .option('--breaker <n>', `stop starting runs once n runs in a row ended in an infrastructure error (a dead endpoint or device), exit ${exitCodes.infrastructureError} with the cause and the --resume line (default ${defaultBreakAfterInfrastructureErrors}; 0: never)`)
      .option('--trace <format>', `how each run is written: ${traceFormats.join(', ')} (compact: one trace.jsonl per run, gzip-compressed to trace.jsonl.gz when the run closes, its screens, model calls and other files compressed in traces/_store/, identical content stored once; full: a folder of files per run; none: no trace, the report shows outcomes only)`, defaultBenchTraceFormat)
      .option('--price-prompt <usd>', 'USD per 1M prompt tokens for the cost estimate (default: the list price of the configured model, when known)')
      .option('--price-completion <usd>', 'USD per 1M completion tokens (default: as --price-prompt)')
      .option('--price-cached-prompt <usd>', "USD per 1M prompt tokens the endpoint served from its prompt cache (its reply's cached_tokens; with --price-prompt; default: the prompt price)")
      .addHelpText('after', benchExitCodesHelp)
      .action(async (raw: RawOptions) => {
        const options = parseBenchOptions(raw, io, (dependencies.now ?? (() => new Date()))());
        setExitCode(await runBenchCommand(options, io, dependencies));
      });
  };
}

/**
 * Validates the raw option strings. Throws `BenchError` naming the option and the
 * accepted values. `now` names the default output dir.
 */
export function parseBenchOptions(raw: RawOptions, io: CliIo, now: Date): BenchCommandOptions {
  const bad: BadOption = (option, message) => new BenchError({ code: 'bench-cli-option', message: `${option}: ${message}` });
  const modes = parseModes(raw.mode, bad);
  const policy = raw.policy === 'auto' ? { success: true as const, data: 'auto' as const } : policyNameSchema.safeParse(raw.policy);
  if (!policy.success) throw bad('--policy', `unknown policy "${raw.policy}"; choose llm, oracle or auto`);
  const prices = parsePrices(raw, bad);
  checkFaultProfiles(raw, bad);
  const ids = optionList('--tasks', raw.tasks, bad);
  const tags = optionList('--tags', raw.tags, bad);
  checkPlaces(raw, io, bad);
  const planning = parsePlanning(raw, io, bad);
  const gateThreshold = raw.gateThreshold === undefined ? undefined : parseGateThreshold(raw.gateThreshold);
  const temperature = raw.temperature === undefined ? undefined : parseTemperature(raw.temperature);
  if (gateThreshold !== undefined && !modes.some(isSenseActMode)) throw bad('--gate-threshold', `only the SenseAct modes have a VLM gate; none of ${modes.join(', ')} is one`);
  const budget = parseBudget(raw, bad);
  const trace = traceFormats.find((format) => format === (raw.trace ?? defaultBenchTraceFormat));
  if (trace === undefined) throw bad('--trace', `expected ${traceFormats.join(', ')}, got "${raw.trace}"`);
  const resume = raw.resume === true;
  if (resume && raw.out === undefined) throw bad('--resume', 'needs --out <dir>: the output dir of the run to finish');
  return {
    suite: raw.suite,
    modes,
    device: raw.device,
    faults: raw.faults,
    modelFaults: raw.modelFaults,
    concurrency: positiveNumber('--concurrency', raw.concurrency, bad),
    workers: raw.workers === undefined ? undefined : wholeNumber('--workers', raw.workers, bad),
    repeat: positiveNumber('--repeat', raw.repeat, bad),
    out: path.resolve(io.cwd, raw.out ?? defaultOutDir(raw.suite, now)),
    resume,
    ...(raw.dryRun === true ? { dryRun: true } : {}),
    force: raw.force === true,
    policy: policy.data,
    prices,
    selection: { ...(ids === undefined ? {} : { ids }), ...(tags === undefined ? {} : { tags }) },
    junit: raw.junit === undefined ? undefined : path.resolve(io.cwd, raw.junit),
    ...(raw.wide === true ? { wide: true } : {}),
    ...(raw.skills === undefined ? {} : { skills: path.resolve(io.cwd, raw.skills) }),
    planning,
    ...(gateThreshold === undefined ? {} : { gateThreshold }),
    ...(temperature === undefined ? {} : { temperature }),
    ...(budget === undefined ? {} : { budget }),
    ...(raw.breaker === undefined ? {} : { breaker: parseBreaker(raw.breaker, bad) }),
    ...(raw.runTimeout === undefined ? {} : { runTimeoutSeconds: parseRunTimeout(raw.runTimeout, bad) }),
    trace,
    ...parseTotalBudget(raw, bad),
  };
}

/** Makes the error of a bad option: `<option>: <message>` (exit 2). */
type BadOption = (option: string, message: string) => BenchError;

/** `--mode a,b`: known modes, each once, at least one. */
function parseModes(text: string, bad: BadOption): AgentMode[] {
  const modes: AgentMode[] = [];
  for (const name of text.split(',').map((part) => part.trim()).filter(Boolean)) {
    const parsed = agentModeSchema.safeParse(name);
    if (!parsed.success) throw bad('--mode', `unknown mode "${name}"; choose from ${agentModeSchema.options.join(', ')}`);
    if (modes.includes(parsed.data)) throw bad('--mode', `mode "${name}" is listed twice`);
    modes.push(parsed.data);
  }
  if (modes.length === 0) throw bad('--mode', `give at least one mode, e.g. --mode senseact,react-vlm (modes: ${agentModeSchema.options.join(', ')})`);
  return modes;
}

/** A whole number ≥ 1 (`--concurrency`, `--repeat`, `--vote`). */
function positiveNumber(option: string, text: string, bad: BadOption): number {
  if (!/^\d+$/.test(text.trim()) || Number(text) < 1) throw bad(option, `expected a whole number ≥ 1, got "${text}"`);
  return Number(text);
}

/** `--workers`: a whole number ≥ 0. */
function wholeNumber(option: string, text: string, bad: BadOption): number {
  if (!/^\d+$/.test(text.trim())) throw bad(option, `expected a whole number ≥ 0 (0: the main thread only), got "${text}"`);
  return Number(text);
}

/** `--price-prompt` and `--price-completion`: both or neither, US dollars per 1M tokens ≥ 0; `--price-cached-prompt` only with them. */
function parsePrices(raw: RawOptions, bad: BadOption): TokenPrices | undefined {
  if ((raw.pricePrompt === undefined) !== (raw.priceCompletion === undefined)) {
    throw bad(raw.pricePrompt === undefined ? '--price-prompt' : '--price-completion', 'give both --price-prompt and --price-completion, or neither (then the configured model\'s list price is used when known)');
  }
  if (raw.pricePrompt === undefined || raw.priceCompletion === undefined) {
    if (raw.priceCachedPrompt !== undefined) throw bad('--price-cached-prompt', 'give it with --price-prompt and --price-completion (the cached price is a part of those prices)');
    return undefined;
  }
  const price = (option: string, text: string): number => {
    const value = Number(text);
    if (text.trim() === '' || !Number.isFinite(value) || value < 0) throw bad(option, `expected US dollars per 1M tokens (a number ≥ 0), got "${text}"`);
    return value;
  };
  const promptPrice = price('--price-prompt', raw.pricePrompt);
  const completionPrice = price('--price-completion', raw.priceCompletion);
  const cachedPrice = raw.priceCachedPrompt === undefined ? undefined : price('--price-cached-prompt', raw.priceCachedPrompt);
  const label = `prices from the command line: $${promptPrice} prompt${cachedPrice === undefined ? '' : ` ($${cachedPrice} cached)`} / $${completionPrice} completion per 1M tokens`;
  return { label, promptPerMillionUsd: promptPrice, completionPerMillionUsd: completionPrice, ...(cachedPrice === undefined ? {} : { cachedPromptPerMillionUsd: cachedPrice }) };
}

/** `--faults` and `--model-faults` name known profiles. */
function checkFaultProfiles(raw: RawOptions, bad: BadOption): void {
  if (raw.faults !== undefined && !Object.hasOwn(faultProfiles, raw.faults)) {
    throw bad('--faults', `unknown fault profile "${raw.faults}"; choose from ${Object.keys(faultProfiles).join(', ')} (or put a fault config in the device profile's sim: section)`);
  }
  if (raw.modelFaults !== undefined && !Object.hasOwn(modelFaultProfiles, raw.modelFaults)) {
    throw bad('--model-faults', `unknown model fault profile "${raw.modelFaults}"; choose from ${Object.keys(modelFaultProfiles).join(', ')}`);
  }
}

/** A comma-separated option (`--tasks`, `--tags`): at least one value when given. */
function optionList(option: string, text: string | undefined, bad: BadOption): string[] | undefined {
  if (text === undefined) return undefined;
  const items = splitList(text);
  if (items.length === 0) throw bad(option, 'give at least one value (comma-separated)');
  return items;
}

/** `--force` goes with `--resume`; `--junit`, `--suite` and `--device` name something (the JUnit file not a folder). */
function checkPlaces(raw: RawOptions, io: CliIo, bad: BadOption): void {
  if (raw.force === true && raw.resume !== true) throw bad('--force', 'only goes with --resume');
  if (raw.junit !== undefined && raw.junit.trim() === '') throw bad('--junit', 'give a file name for the JUnit XML');
  // Checked before any run: the JUnit file is written last, after the runs it reports.
  if (raw.junit !== undefined && isDirectory(path.resolve(io.cwd, raw.junit))) throw bad('--junit', `${raw.junit} is a folder: give a file name for the JUnit XML`);
  if (raw.suite.trim() === '') throw bad('--suite', 'give a suite name (e.g. sim) or a folder of task YAML files');
  if (raw.device.trim() === '') throw bad('--device', 'give a device profile name or path (devices/*.yaml)');
}

/** The planning aids: `--meta-plan`, `--vote n` with `--vote-temperature` (0..2, only with n ≥ 2), `--app-memory <dir>`. */
function parsePlanning(raw: RawOptions, io: CliIo, bad: BadOption): BenchPlanning {
  const vote = positiveNumber('--vote', raw.vote ?? '1', bad);
  const voteTemperature = raw.voteTemperature === undefined ? defaultVoteTemperature : Number(raw.voteTemperature);
  if (raw.voteTemperature !== undefined && (raw.voteTemperature.trim() === '' || !Number.isFinite(voteTemperature) || voteTemperature < 0 || voteTemperature > 2)) throw bad('--vote-temperature', `expected a number from 0 to 2, got "${raw.voteTemperature}"`);
  if (raw.voteTemperature !== undefined && vote === 1) throw bad('--vote-temperature', 'only goes with --vote n (n ≥ 2)');
  if (raw.appMemory !== undefined && raw.appMemory.trim() === '') throw bad('--app-memory', 'give the folder of the app memory (created when missing)');
  return {
    metaPlan: raw.metaPlan === true,
    vote,
    voteTemperature,
    ...(raw.appMemory === undefined ? {} : { appMemoryDir: path.resolve(io.cwd, raw.appMemory) }),
  };
}

/** `--run-timeout <seconds>`: a number ≥ 0 (0: no limit). */
function parseRunTimeout(text: string, bad: BadOption): number {
  const seconds = Number(text);
  if (text.trim() === '' || !Number.isFinite(seconds) || seconds < 0) throw bad('--run-timeout', `expected seconds (a number ≥ 0; 0: no limit), got "${text}"`);
  return seconds;
}

/** A limit option's whole number ≥ 1, or undefined when it is not given. */
function wholeLimit(option: string, text: string | undefined, bad: BadOption): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text.trim()) || Number(text) < 1) throw bad(option, `expected a whole number ≥ 1, got "${text}"`);
  return Number(text);
}

/** `--max-total-model-calls`, `--max-total-tokens`: whole numbers ≥ 1. */
function parseTotalBudget(raw: RawOptions, bad: BadOption): { totalBudget?: BenchTotalBudget } {
  const calls = wholeLimit('--max-total-model-calls', raw.maxTotalModelCalls, bad);
  const tokens = wholeLimit('--max-total-tokens', raw.maxTotalTokens, bad);
  if (calls === undefined && tokens === undefined) return {};
  return { totalBudget: { ...(calls === undefined ? {} : { maxModelCalls: calls }), ...(tokens === undefined ? {} : { maxTokens: tokens }) } };
}

/** `--breaker <n>`: a whole number ≥ 0. */
function parseBreaker(text: string, bad: BadOption): number {
  if (!/^\d+$/.test(text.trim())) throw bad('--breaker', `expected a whole number ≥ 0 (0: never stop), got "${text}"`);
  return Number(text);
}

/** `--max-model-calls`, `--max-tokens` (whole numbers ≥ 1) and `--max-cost` (US dollars > 0); undefined when none is given. */
function parseBudget(raw: RawOptions, bad: BadOption): ModelBudget | undefined {
  const calls = wholeLimit('--max-model-calls', raw.maxModelCalls, bad);
  const tokens = wholeLimit('--max-tokens', raw.maxTokens, bad);
  const cost = raw.maxCost === undefined ? undefined : Number(raw.maxCost);
  if (raw.maxCost !== undefined && (raw.maxCost.trim() === '' || cost === undefined || !Number.isFinite(cost) || cost <= 0)) throw bad('--max-cost', `expected US dollars (a number > 0), got "${raw.maxCost}"`);
  if (calls === undefined && tokens === undefined && cost === undefined) return undefined;
  return { ...(calls === undefined ? {} : { maxModelCalls: calls }), ...(tokens === undefined ? {} : { maxTokens: tokens }), ...(cost === undefined ? {} : { maxCostUsd: cost }) };
}

/** `--gate-threshold`: a whole number ≥ 1 (the gate opens when a target has failed that many times in a row). Throws `BenchError` otherwise. */
export function parseGateThreshold(text: string): number {
  if (!/^\d+$/.test(text.trim()) || Number(text) < 1) {
    throw new BenchError({ code: 'bench-cli-option', message: `--gate-threshold: expected a whole number ≥ 1 (consecutive failures on the same target before vision is asked; default ${defaultGateThreshold}), got "${text}"` });
  }
  return Number(text);
}

/** `--temperature`: a number from 0 to 2, as OpenAI-compatible endpoints accept. Throws `BenchError` otherwise. */
export function parseTemperature(text: string): number {
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value) || value < 0 || value > 2) {
    throw new BenchError({ code: 'bench-cli-option', message: `--temperature: expected a number from 0 to 2 (0: the most repeatable answers), got "${text}"` });
  }
  return value;
}

/** `runs/bench-<suite>-<UTC timestamp>`, with the suite reduced to a safe folder name. */
export function defaultOutDir(suite: string, now: Date): string {
  const name = path.basename(path.resolve(suite)).replace(/[^A-Za-z0-9._-]/g, '_') || 'suite';
  const stamp = now.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
  return path.join('runs', `bench-${name}-${stamp}`);
}

async function runBenchCommand(options: BenchCommandOptions, io: CliIo, dependencies: BenchCommandDependencies): Promise<number> {
  const suite = await (dependencies.loadSuite ?? loadSuite)(options.suite, { tasksRoot: tasksRootFor(io.cwd, options.suite) });
  const tasks = selectTasks(suite.tasks, options.selection, suite.name);
  // What the skills folder holds as the run starts: recorded in results.json, and a resume must find the same.
  const skills = options.skills === undefined ? undefined : skillsDigest(options.skills);
  const controller = new AbortController();
  const signals = stopOnSignals(controller, dependencies.signal);
  const tty = dependencies.progressTty === undefined ? (process.stderr.isTTY ? process.stderr : null) : dependencies.progressTty;
  let reporter: BenchProgressReporter | undefined;
  let handle: BenchExecutorHandle<Task> | undefined;
  let results: BenchResults;
  try {
    handle = await dependencies.createExecutor(executorOptions(options, io, controller.signal));
    if (options.dryRun === true) printDryRunTasks(handle, tasks, options, suite.name, io);
    validateBenchPlan({ suite: suite.name, tasks, modes: options.modes, ...(handle.checkTask ? { checkTask: handle.checkTask } : {}) });
    if (options.dryRun === true) {
      printDryRunPlan(handle, tasks, options, suite.name, io);
      return exitCodes.ok;
    }
    io.stderr(`${handle.notice}\n`);
    reporter = tty === null ? createLineProgressReporter(io.stderr) : createBarProgressReporter(tty);
    results = await runBenchmark(benchmarkOptions(options, io, { handle, tasks, suiteName: suite.name, skills, onProgress: reporter.onProgress, signal: controller.signal }));
  } finally {
    reporter?.stop();
    signals.release();
    await handle?.close();
  }
  const unusedCalls = await printResults(results, options, io, dependencies);
  return exitCodeOf(results, options, io, { stoppedBy: signals.stoppedBy(), unusedCalls });
}

/** How the bench hears it should stop: SIGINT / SIGTERM (which one sets the exit code), or the caller's signal when it gives one. */
interface BenchStopSignals {
  /** Undoes the listeners. */
  release(): void;
  /** The process signal that stopped the bench, if one did. */
  stoppedBy(): 'SIGINT' | 'SIGTERM' | undefined;
}

/** Aborts the bench on SIGINT / SIGTERM (or on the caller's signal, when it gives one). */
function stopOnSignals(controller: AbortController, signal: AbortSignal | undefined): BenchStopSignals {
  // The signal that stopped the bench sets its exit code (130, 143), the same through npx, which exits so on its own.
  let stoppedBy: 'SIGINT' | 'SIGTERM' | undefined;
  if (signal !== undefined) {
    signal.addEventListener('abort', () => controller.abort(), { once: true });
    return { release: () => undefined, stoppedBy: () => stoppedBy };
  }
  const stopOnInterrupt = (): void => {
    stoppedBy ??= 'SIGINT';
    controller.abort();
  };
  const stopOnTerminate = (): void => {
    stoppedBy ??= 'SIGTERM';
    controller.abort();
  };
  process.once('SIGINT', stopOnInterrupt);
  process.once('SIGTERM', stopOnTerminate);
  return {
    release: () => {
      process.off('SIGINT', stopOnInterrupt);
      process.off('SIGTERM', stopOnTerminate);
    },
    stoppedBy: () => stoppedBy,
  };
}

/** What the executor factory is given: the device, policy, models' settings, planning aids and limits of the command line. */
function executorOptions(options: BenchCommandOptions, io: CliIo, signal: AbortSignal): BenchExecutorOptions {
  return {
    suite: options.suite,
    device: options.device,
    faults: options.faults,
    modelFaults: options.modelFaults,
    policy: options.policy,
    outDir: options.out,
    ...(options.skills === undefined ? {} : { skills: options.skills }),
    cwd: io.cwd,
    env: io.env,
    signal,
    planning: options.planning,
    ...(options.gateThreshold === undefined ? {} : { gateThreshold: options.gateThreshold }),
    ...(options.temperature === undefined ? {} : { temperature: options.temperature }),
    concurrency: options.concurrency,
    ...(options.workers === undefined ? {} : { workers: options.workers }),
    ...(options.dryRun === true ? { dryRun: true } : {}),
    ...(options.budget === undefined ? {} : { budget: options.budget }),
    ...(options.prices === undefined ? {} : { prices: options.prices }),
    ...(options.runTimeoutSeconds === undefined ? {} : { runTimeoutSeconds: options.runTimeoutSeconds }),
    trace: options.trace,
  };
}

/** `--dry-run`: every task listed, the ones that cannot run with why; the plan check after it then stops with exit 2. */
function printDryRunTasks(handle: BenchExecutorHandle<Task>, tasks: readonly Task[], options: BenchCommandOptions, suiteName: string, io: CliIo): void {
  io.stderr(`${handle.notice}\n`);
  const checkTask = handle.checkTask?.bind(handle);
  let blocked = 0;
  for (const task of tasks) {
    const reason = options.modes.map((mode) => checkTask?.(task, mode)).find((found) => found !== undefined);
    if (reason !== undefined) blocked++;
    io.stdout(reason === undefined ? `${handle.describeTask?.(task) ?? task.id}\n` : `${task.id}: cannot run: ${reason}\n`);
  }
  if (blocked > 0) io.stdout(`dry run: ${tasks.length - blocked} of ${tasks.length} tasks of suite ${suiteName} can run on device ${options.device}, ${blocked} cannot (reasons above); nothing was run\n`);
}

/** `--dry-run` once the plan passed its check: what would run, and on a device what the tasks still need. */
function printDryRunPlan(handle: BenchExecutorHandle<Task>, tasks: readonly Task[], options: BenchCommandOptions, suiteName: string, io: CliIo): void {
  io.stdout(`dry run: ${tasks.length} tasks of suite ${suiteName} × ${options.modes.length} mode(s) can run on device ${options.device}; nothing was run\n`);
  // "Can run" is not "can be judged": on a device, say what the tasks still need (the simulator runs its twins, which need none of it).
  if (handle.simulated !== true) for (const line of dryRunNeeds(tasks)) io.stdout(`  ${line}\n`);
}

/** What runBenchmark is given: the plan, the wired executor, the conditions results.json records, and the progress reporter. */
function benchmarkOptions(options: BenchCommandOptions, io: CliIo, bench: { readonly handle: BenchExecutorHandle<Task>; readonly tasks: readonly Task[]; readonly suiteName: string; readonly skills: SkillsDigest | undefined; readonly onProgress: BenchProgressReporter['onProgress']; readonly signal: AbortSignal }): RunBenchmarkOptions<Task> {
  const { handle, skills } = bench;
  return {
    tasks: bench.tasks,
    modes: options.modes,
    repeat: options.repeat,
    concurrency: options.concurrency,
    ...(options.workers === undefined ? {} : { workers: options.workers }),
    outDir: options.out,
    resume: options.resume,
    force: options.force,
    executor: handle.executor,
    policy: handle.policy,
    suite: bench.suiteName,
    device: options.device,
    ...(handle.simulated === undefined ? {} : { simulated: handle.simulated }),
    faults: handle.faults === undefined ? options.faults ?? null : handle.faults,
    modelFaults: options.modelFaults ?? null,
    gateThreshold: options.gateThreshold ?? null,
    temperature: options.temperature ?? null,
    modelLabel: handle.modelLabel,
    ...(skills === undefined ? {} : { skills }),
    planning: {
      metaPlan: options.planning.metaPlan,
      vote: options.planning.vote,
      voteTemperature: options.planning.vote > 1 ? options.planning.voteTemperature : null,
      appMemory: options.planning.appMemoryDir ?? null,
    },
    reference: loadPublishedResults(/^[\w-]+$/.test(options.suite) ? path.join(tasksRootFor(io.cwd, options.suite), options.suite) : path.resolve(io.cwd, options.suite)) ?? null,
    prices: options.prices ?? handle.prices ?? defaultTokenPrices,
    onProgress: bench.onProgress,
    ...(handle.redactor === undefined ? {} : { redactor: handle.redactor }),
    ...(handle.retainRuns === undefined ? {} : { beforeRuns: handle.retainRuns.bind(handle) }),
    ...(options.breaker === undefined ? {} : { breakAfterInfrastructureErrors: options.breaker }),
    ...(options.totalBudget === undefined ? {} : { totalBudget: options.totalBudget }),
    ...(handle.cassette === undefined ? {} : { cassette: handle.cassette }),
    signal: bench.signal,
  };
}

/** The tables, then where results, JUnit, the report and the disk use are, and a cassette's unused calls (returned: they may set the exit code). */
async function printResults(results: BenchResults, options: BenchCommandOptions, io: CliIo, dependencies: BenchCommandDependencies): Promise<string | undefined> {
  io.stdout(formatResultsTable(results, { wide: options.wide === true }));
  io.stdout(formatPerAppTable(results));
  io.stdout(formatRepeatTable(results));
  io.stdout(formatDifficultyTable(results));
  const skillTable = formatSkillTable(results.tasks);
  if (skillTable !== '') io.stdout(skillTable);
  io.stdout(`results: ${path.join(options.out, benchFiles.results)}\n`);
  if (options.junit !== undefined) {
    await writeJunit(options.junit, results);
    io.stdout(`junit: ${options.junit}\n`);
  }
  const writeReport = dependencies.writeReport ?? (async (runDir: string) => (await writeBenchReport(runDir)).htmlFile);
  io.stdout(`report: ${await writeReport(options.out)}\n`);
  io.stdout(`${describeBenchDisk(options.out)}\n`);
  const unusedCalls = describeUnusedCassetteCalls(results);
  if (unusedCalls !== undefined) io.stderr(unusedCalls);
  return unusedCalls;
}

/** The exit code, with what to do on stderr: a tripped breaker or infrastructure errors (4), the bench's total budget reached (1), an interrupted bench (130, 143, 1), unused calls of a strict cassette (4), else 0. */
function exitCodeOf(results: BenchResults, options: BenchCommandOptions, io: CliIo, ended: { readonly stoppedBy: 'SIGINT' | 'SIGTERM' | undefined; readonly unusedCalls: string | undefined }): number {
  const { stoppedBy, unusedCalls } = ended;
  if (results.breaker !== undefined) {
    const { failures, cause, run } = results.breaker;
    io.stderr(`senseact: stopped starting runs after ${failures} runs in a row ended in an infrastructure error (exit ${exitCodes.infrastructureError}); the cause:\n  ${cause}\n  trace: ${path.join(options.out, run)}\nOnce the cause is fixed, finish the benchmark with: npx senseact bench ${resumeArguments(options, results).join(' ')}\n`);
    return exitCodes.infrastructureError;
  }
  if (results.totalBudget !== undefined && !results.complete) {
    io.stderr(`senseact: no new run started after the bench's total budget was reached: ${results.totalBudget.reached}; ${results.expectedRuns - results.tasks.length} runs did not run (exit ${exitCodes.failure}). Raise the limit and finish the benchmark with: npx senseact bench ${resumeArguments(options, results).join(' ')}\n`);
    return exitCodes.failure;
  }
  if (!results.complete) {
    const again = resumeArguments(options, results);
    io.stderr(`senseact: the benchmark was interrupted${stoppedBy === undefined ? '' : ` (${stoppedBy})`}; finish it with: npx senseact bench ${again.join(' ')}\n`);
    return stoppedBy === 'SIGINT' ? exitCodes.interrupted : stoppedBy === 'SIGTERM' ? exitCodes.terminated : exitCodes.failure;
  }
  const errored = results.tasks.filter((task) => task.error !== null);
  if (errored.length > 0) {
    io.stderr(describeInfrastructureErrors(errored, results.tasks.length, options.out));
    return exitCodes.infrastructureError;
  }
  if (unusedCalls !== undefined && results.cassette?.strict === true) return exitCodes.infrastructureError;
  return exitCodes.ok;
}

/**
 * The recorded calls a replay did not use, when there are any: the runs made fewer or
 * other calls than the recording (a changed step budget, prompt or screen), so the replay
 * does not reproduce it. A warning, or under `replay-strict:` the error the exit code says.
 */
function describeUnusedCassetteCalls(results: BenchResults): string | undefined {
  const cassette = results.cassette;
  if (cassette === undefined || cassette.unused.length === 0) return undefined;
  const byRole = new Map<string, number>();
  for (const call of cassette.unused) byRole.set(call.role, (byRole.get(call.role) ?? 0) + 1);
  const roles = [...byRole].map(([role, count]) => `${role} ${count}`).join(', ');
  const examples = cassette.unused.slice(0, 3).map((call) => `  ${call.role} ${call.hash.slice(0, 12)}#${call.occurrence} ${JSON.stringify(call.snippet)}`);
  const head = cassette.strict
    ? `senseact: the replay did not use ${cassette.unused.length} of the ${cassette.recorded} recorded calls in ${cassette.path} (${roles}); SENSEACT_CASSETTE=replay-strict makes that an error (exit ${exitCodes.infrastructureError}):`
    : `senseact: warning: the replay did not use ${cassette.unused.length} of the ${cassette.recorded} recorded calls in ${cassette.path} (${roles}):`;
  const why = 'The runs made fewer or other model calls than the recording (a changed step budget, prompt or screen, or only some of its tasks ran), so their results are not the recorded ones. Compare with: npx senseact cassette <file> --hash <hash>.';
  return `${head}\n${examples.join('\n')}${cassette.unused.length > 3 ? `\n  … ${cassette.unused.length - 3} more in results.json (cassette.unused)` : ''}\n${why}${cassette.strict ? '' : ' SENSEACT_CASSETTE=replay-strict:<file> makes this an error.'}\n`;
}

/** The options that finish this benchmark in its --out dir (`senseact bench … --resume`). */
function resumeArguments(options: BenchCommandOptions, results: BenchResults): string[] {
  return [
    `--suite ${options.suite}`, `--mode ${options.modes.join(',')}`, `--device ${options.device}`,
    ...(options.faults === undefined ? [] : [`--faults ${options.faults}`]),
    ...(options.modelFaults === undefined ? [] : [`--model-faults ${options.modelFaults}`]),
    ...(options.selection.ids === undefined ? [] : [`--tasks ${options.selection.ids.join(',')}`]),
    ...(options.selection.tags === undefined ? [] : [`--tags ${options.selection.tags.join(',')}`]),
    ...(options.skills === undefined ? [] : [`--skills ${options.skills}`]),
    ...(options.planning.metaPlan ? ['--meta-plan'] : []),
    ...(options.planning.vote > 1 ? [`--vote ${options.planning.vote}`, `--vote-temperature ${options.planning.voteTemperature}`] : []),
    ...(options.planning.appMemoryDir === undefined ? [] : [`--app-memory ${options.planning.appMemoryDir}`]),
    ...(options.gateThreshold === undefined ? [] : [`--gate-threshold ${options.gateThreshold}`]),
    ...(options.temperature === undefined ? [] : [`--temperature ${options.temperature}`]),
    ...(options.budget?.maxModelCalls === undefined ? [] : [`--max-model-calls ${options.budget.maxModelCalls}`]),
    ...(options.budget?.maxTokens === undefined ? [] : [`--max-tokens ${options.budget.maxTokens}`]),
    ...(options.budget?.maxCostUsd === undefined ? [] : [`--max-cost ${options.budget.maxCostUsd}`]),
    ...(options.breaker === undefined ? [] : [`--breaker ${options.breaker}`]),
    ...(options.runTimeoutSeconds === undefined ? [] : [`--run-timeout ${options.runTimeoutSeconds}`]),
    ...(options.totalBudget?.maxModelCalls === undefined ? [] : [`--max-total-model-calls ${options.totalBudget.maxModelCalls}`]),
    ...(options.totalBudget?.maxTokens === undefined ? [] : [`--max-total-tokens ${options.totalBudget.maxTokens}`]),
    ...(options.prices === undefined ? [] : [`--price-prompt ${options.prices.promptPerMillionUsd} --price-completion ${options.prices.completionPerMillionUsd}`]),
    ...(options.prices?.cachedPromptPerMillionUsd === undefined ? [] : [`--price-cached-prompt ${options.prices.cachedPromptPerMillionUsd}`]),
    `--concurrency ${options.concurrency}`, `--repeat ${options.repeat}`, `--policy ${results.policy}`, `--out ${options.out}`, '--resume',
  ];
}

/** How many distinct error causes the terminal shows; results.json has every one. */
const shownCauses = 3;

/**
 * The summary of runs that ended in an infrastructure error: how many, then the first
 * few distinct causes with one run each and its trace folder.
 */
export function describeInfrastructureErrors(errored: readonly TaskRunResult[], total: number, outDir: string): string {
  const byCause = new Map<string, TaskRunResult[]>();
  for (const run of errored) {
    // Ids that differ per request (a completion's chatcmpl-… id quoted in the error) do not make another cause.
    const cause = (run.error ?? '').replace(/chatcmpl-[A-Za-z0-9_-]+/g, 'chatcmpl-…');
    byCause.set(cause, [...(byCause.get(cause) ?? []), run]);
  }
  const lines = [...byCause].slice(0, shownCauses).map(([cause, runs]) => {
    const first = runs[0]!;
    const others = runs.length > 1 ? ` (and ${runs.length - 1} more run${runs.length > 2 ? 's' : ''})` : '';
    return `  - ${first.id} ${first.mode} r${first.repeat}${others}: ${cause}\n    trace: ${path.join(outDir, first.traceDir)}`;
  });
  const more = byCause.size > shownCauses ? `\n  … ${byCause.size - shownCauses} more distinct causes in ${path.join(outDir, benchFiles.results)}` : '';
  return `senseact: ${errored.length} of ${total} runs ended in an infrastructure error (exit ${exitCodes.infrastructureError}); ${byCause.size === 1 ? 'the cause' : 'the first causes'}:\n${lines.join('\n')}${more}\n`;
}

function isDirectory(file: string): boolean {
  return statSync(file, { throwIfNoEntry: false })?.isDirectory() === true;
}
