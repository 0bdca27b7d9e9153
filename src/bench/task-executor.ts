import type { CassetteUse } from '../model/cassette-player.js';
import type { ModelBudget } from '../model/model-budget.js';
import type { AgentMode, PolicyName, TaskRunResult } from '../agent/task-run-result.js';
import type { TraceFormat } from '../trace/trace-writer.js';
import type { Redactor } from '../util/redactor.js';
import type { TokenPrices } from './bench-results.js';

/** The least the runner needs to know about a task: its id and its app (for per-app metrics). */
export interface BenchTask {
  readonly id: string;
  readonly app: string;
}

/** One (task, mode, repeat) for the executor to run. */
export interface TaskExecutionRequest<Task extends BenchTask = BenchTask> {
  readonly task: Task;
  readonly mode: AgentMode;
  /** 0-based repeat index. */
  readonly repeat: number;
  /** The bench output dir (absolute). */
  readonly outDir: string;
  /**
   * Where this run should write its trace folder (absolute):
   * `<outDir>/traces/<task>/<mode>-r<repeat>`, i.e. a `TraceWriter` with root `outDir`,
   * suite `traces`, task id and run id `<mode>-r<repeat>`. It may hold an earlier
   * attempt's trace when an errored run is retried on resume: replace it. The result's
   * `traceDir` says where the trace really is (absolute, or relative to `outDir`).
   */
  readonly traceDir: string;
  /** Aborted when the whole benchmark is cancelled; the executor must stop promptly. */
  readonly signal: AbortSignal;
}

/**
 * Runs one task in one mode and returns what happened. A task that fails is a value
 * (`success: false`); an infrastructure failure may throw, and the runner records it in
 * `error` and goes on.
 */
export type TaskExecutor<Task extends BenchTask = BenchTask> = (request: TaskExecutionRequest<Task>) => Promise<TaskRunResult>;

/** What `createExecutor` is told: the CLI's device, fault and policy choices. */
export interface BenchExecutorOptions {
  readonly suite: string;
  /** Device profile name or path (`devices/*.yaml`). */
  readonly device: string;
  /** Fault profile name, when faults are injected (simulator only). */
  readonly faults: string | undefined;
  /** Model error profile (`--model-faults`) injected into the oracle's replies, seeded per run. */
  readonly modelFaults?: string | undefined;
  /** `auto`: the oracle on the simulator; on a real device the llm policy when a model is configured, else the oracle (choosePolicy; the handle's notice says which and why). */
  readonly policy: PolicyName | 'auto';
  readonly outDir: string;
  /** A skills folder (--skills): the SenseAct modes replay a matching skill before planning. */
  readonly skills?: string;
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly signal: AbortSignal;
  /** Runs the bench keeps in flight (`--concurrency`); a factory may spread them over threads. */
  readonly concurrency?: number;
  /**
   * Worker threads for runs on the in-process simulator (`--workers`), at most `concurrency`:
   * 0 or 1 keeps them on the main thread; default `SENSEACT_WORKERS`, else 0 (measured
   * faster on 2 cores: docs/grid.md, "Both cores").
   */
  readonly workers?: number;
  /** Meta-plans, voting and app memory for the senseact modes; all off when absent. */
  readonly planning?: BenchPlanning;
  /** The VLM gate's threshold τ for the SenseAct modes (`--gate-threshold`); default the gate's. */
  readonly gateThreshold?: number;
  /** Sampling temperature of every model role (`--temperature`, 0..2), over the environment's; the oracle samples nothing. */
  readonly temperature?: number;
  /** `--dry-run`: the executor is only checked and described, never run (`--policy llm` then needs no model). */
  readonly dryRun?: boolean;
  /** Limits on each run's model calls, tokens and cost (`--max-model-calls`, `--max-tokens`, `--max-cost`). */
  readonly budget?: ModelBudget;
  /** Prices from the command line (`--price-prompt`, `--price-completion`); else the configured model's list price counts a cost limit. */
  readonly prices?: TokenPrices;
  /** How each run is written (`--trace`); default {@link defaultBenchTraceFormat}. */
  readonly trace?: TraceFormat;
  /** `--run-timeout`: each run's wall-clock limit in seconds (0: none); default `defaultRunTimeoutSeconds`. */
  readonly runTimeoutSeconds?: number;
}

/** How a bench writes its runs unless told (`--trace`). */
export const defaultBenchTraceFormat: TraceFormat = 'compact';

/** The bench's planning aids (docs/planning.md): `--meta-plan`, `--vote n`, `--vote-temperature`, `--app-memory <dir>`. */
export interface BenchPlanning {
  readonly metaPlan: boolean;
  /** Plan samples per round (1: no voting). */
  readonly vote: number;
  readonly voteTemperature: number;
  /** Where the per-app abstraction memory is read and learned (absolute). */
  readonly appMemoryDir?: string;
}

/** A wired executor plus the resources to release after the run. */
export interface BenchExecutorHandle<Task extends BenchTask = BenchTask> {
  readonly executor: TaskExecutor<Task>;
  /** A label for the models used (e.g. `gpt-4o-mini`), or `none` for the oracle policy. */
  readonly modelLabel: string;
  /** The policy really used (resolves `auto`). */
  readonly policy: PolicyName;
  /** The device is the simulator (in process or behind Appium with its driver). */
  readonly simulated?: boolean;
  /** What the user is told first: one line that says which policy and models and why, then a line for each option that qualifies it (a temperature the oracle ignores, worker threads). */
  readonly notice: string;
  /** The redaction pass of every file the runs write; the runner passes results through it too. */
  readonly redactor?: Redactor;
  /** The faults really injected (the --faults profile, else the device profile's), recorded in results; default: the asked --faults. */
  readonly faults?: string | null;
  /** Prices for the cost estimate of the models used; default: the bench's. */
  readonly prices?: TokenPrices;
  /**
   * Why this executor cannot run `task` in `mode` at all (no reference solution for the
   * oracle, an app the device does not have, a check the device cannot decide), or
   * undefined when it can. Asked for every (task, mode) before the first run.
   */
  readonly checkTask?: (task: Task, mode: AgentMode) => string | undefined;
  /**
   * Before the first run: drops from shared state (the certificate memory) what runs other
   * than `kept` wrote — the runs a killed benchmark had in flight, and those about to run
   * again — so that resuming gives what an uninterrupted benchmark would have.
   */
  retainRuns?(kept: readonly Pick<TaskRunResult, 'id' | 'mode' | 'repeat'>[]): Promise<void>;
  /** When the runs replay a cassette: how they used it (read after the runs), and whether unused recorded calls are an error (`replay-strict:`). */
  readonly cassette?: { readonly use: () => CassetteUse; readonly strict: boolean };
  /** One line on how `task` would run on this device (its start steps, its success check), for `--dry-run`. */
  readonly describeTask?: (task: Task) => string;
  close(): Promise<void>;
}

/** Builds the real executor (agent + device + models). The composition root provides it. */
export type BenchExecutorFactory<Task extends BenchTask = BenchTask> = (options: BenchExecutorOptions) => Promise<BenchExecutorHandle<Task>>;
