import { AppMemory } from '../memory/app-memory.js';
import { estimateTokens } from '../model/estimate-tokens.js';
import type { PlanningOptions } from './planning/planning-options.js';
import * as path from 'node:path';
import { loadSkills } from '../skills/skill-library.js';
import type { Skill } from '../skills/skill-schema.js';
import { createDevice, type CreateDeviceOptions } from '../device/create-device.js';
import type { Device } from '../device/device.js';
import { loadDeviceProfile, parseDeviceProfile, type DeviceProfile } from '../device/device-profile.js';
import type { CertificateMemory } from '../memory/certificate-memory.js';
import { createConfiguredModels } from '../model/create-configured-models.js';
import { modelConfigFromEnv } from '../model/model-config-from-env.js';
import type { PerceptionOptions } from '../perception/perception-options.js';
import type { Task } from '../tasks/task-schema.js';
import { stableHashHex } from '../util/stable-hash.js';
import { safeParsePredicate } from '../verify/parse-predicate.js';
import type { AgentModels } from './agent-session.js';
import type { IrreversibleAction } from './loop/irreversible-action.js';
import type { TraceEvent } from '../trace/trace-event.js';
import { runTask } from './run-task.js';
import { SenseActAgentError } from './senseact-agent-error.js';
import type { AgentMode, TaskRunResult } from './task-run-result.js';
import type { BudgetPrices, ModelBudget } from '../model/model-budget.js';

/**
 * Which device the agent drives: `'sim'` (the bundled simulator, in-process), a device
 * profile name or path (`devices/*.yaml`), a profile object, an Appium server URL with
 * W3C capabilities, or a `Device` you built (you close it).
 */
export type AgentDevice =
  | 'sim'
  | string
  | DeviceProfile
  | { readonly url: string; readonly capabilities: Readonly<Record<string, unknown>> }
  | Device;

export interface SenseActAgentOptions {
  readonly device: AgentDevice;
  /** The models per role. Default: from the environment (`SENSEACT_*` / `OPENAI_*`, see docs/models-and-traces.md). */
  readonly models?: AgentModels;
  /** Default `senseact` (text planner, vision only behind the gate). */
  readonly mode?: AgentMode;
  /** Where run folders go: `<traceRoot>/agent/<task>/<run-id>/`. Default `runs` under `cwd`. */
  readonly traceRoot?: string;
  /** Certificates of earlier runs, and where this agent's go (you open and close it). */
  readonly memory?: CertificateMemory;
  /** Simulator options over the profile's `sim:` section, for a simulator device. */
  readonly sim?: CreateDeviceOptions['sim'];
  readonly perception?: PerceptionOptions;
  readonly gateThreshold?: number;
  /**
   * Skills (`loadSkills(dir)`, or a skills folder) to replay without a model when an
   * instruction matches one; every step is verified and the planner takes over on any
   * mismatch. The run's `result.skill` says how it went.
   */
  readonly skills?: readonly Skill[] | string;
  /** Meta-plans with progress checked on the screen, and plan voting (each off unless set). */
  readonly planning?: Pick<PlanningOptions, 'metaPlan' | 'vote' | 'hintTokens'>;
  /**
   * A per-app abstraction memory (an `AppMemory`, or its folder): every run teaches it
   * what was verified and the planner gets its hints; with a `certifier` model the map is
   * also summarised by it (checked against the map before it is kept).
   */
  readonly appMemory?: AppMemory | string;
  /** Secrets to redact from traces besides anything that looks like a key. */
  readonly secrets?: readonly string[];
  /** Resolves relative paths (profiles, traceRoot). Default `process.cwd()`. */
  readonly cwd?: string;
  /** Environment for models and `${VAR}` in profiles. Default `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Cancels connecting to the device. */
  readonly signal?: AbortSignal;
  /**
   * Asked before an action that cannot be undone runs (`irreversibleAction`: a tap whose
   * label, or a confirm button whose dialog, says delete, pay, buy, send, uninstall,
   * factory reset, or a word of the profile's `irreversible` list): true runs it, false
   * stops the commitment there (the planner reads why). Without it such actions are
   * refused unless `allowIrreversible` is set.
   */
  readonly confirm?: (action: IrreversibleAction) => Promise<boolean>;
  /** Run actions that cannot be undone without asking. Default false. */
  readonly allowIrreversible?: boolean;
}

export interface AgentRunOptions {
  /** Apps the agent may enter; leaving them is refused (the first is the task's app unless `app` says otherwise). */
  readonly allowedPackages: readonly string[];
  /** Maximum executed units. Default 20. */
  readonly stepBudget?: number;
  /** The app the instruction is about. Default: the first allowed package. */
  readonly app?: string;
  /** Launch this app before the run (e.g. the task's app); default: start on whatever screen the device shows. */
  readonly launch?: string;
  /**
   * A predicate over the final screen (docs/predicates.md) that decides success, e.g.
   * `checked(is=switch, near(text="Airplane mode"))`. Without it the outcome only says
   * whether the agent finished: the agent's word is never a verdict.
   */
  readonly check?: string;
  readonly mode?: AgentMode;
  /**
   * Limits on model calls, tokens and cost for this run (`maxCostUsd` needs
   * `budgetPrices`); a run that reaches one stops with the reason `budget: …`.
   */
  readonly budget?: ModelBudget;
  readonly budgetPrices?: BudgetPrices;
  readonly signal?: AbortSignal;
  /** Told of every trace event of the run as it is written (progress: `step-end`, `verify-end`); it must not throw. */
  readonly onEvent?: (event: TraceEvent) => void;
}

/**
 * The outcome of one instruction: `success` / `failure` when a `check` decided it,
 * `finished` (the agent said it is done; nothing checked that) or `stopped` (a guard
 * stopped it: step budget, repeated action, unresolved target) without one, `error` for
 * an infrastructure failure (device lost, no valid model reply).
 */
export type AgentOutcome = 'success' | 'failure' | 'finished' | 'stopped' | 'error';

export interface AgentRunResult {
  readonly outcome: AgentOutcome;
  /** One line: the check's verdict and why the agent stopped, or the error. */
  readonly reason: string;
  /** The agent's answer, for a question. */
  readonly answer?: string;
  /** Executed units. */
  readonly steps: number;
  /** Model usage of the run. */
  readonly calls: { readonly llm: number; readonly vlm: number; readonly images: number; readonly promptTokens: number; readonly completionTokens: number };
  /** The run folder (absolute): trace.jsonl, per-step screens, deltas, model calls. */
  readonly traceDir: string;
  readonly error: string | null;
  /** Everything the loop recorded, as the benchmark stores it. */
  readonly result: TaskRunResult;
}

const defaultStepBudget = 20;
const packageName = /^[A-Za-z][\w]*(\.[A-Za-z_][\w]*)+$/;

/**
 * SenseAct for an instruction of your own, without a task file: the same control loop
 * the benchmark runs (observe → plan → commit → verify → gate → certify), on one device
 * that stays connected between instructions. Create it with {@link SenseActAgent.create},
 * call {@link SenseActAgent.run} per instruction, then {@link SenseActAgent.close}.
 */
export class SenseActAgent {
  private runs = 0;
  /** Read once: a bad skill file throws at create, not in the middle of a run. */
  private readonly skills: readonly Skill[] | undefined;

  private constructor(
    /** The connected device. */
    readonly device: Device,
    private readonly ownsDevice: boolean,
    private readonly models: AgentModels,
    private readonly options: SenseActAgentOptions & { readonly traceRoot: string },
    private readonly appMemory: AppMemory | undefined,
    private readonly irreversibleWords: readonly string[] = [],
  ) {
    const skills = options.skills;
    this.skills = typeof skills === 'string' ? loadSkills(path.resolve(options.cwd ?? process.cwd(), skills)) : skills;
  }

  /**
   * Connects the device and wires the models. Throws `SenseActAgentError` for a device
   * option of no known form or when no model is given or configured, `DeviceProfileError`
   * for a bad profile, `DeviceError` when the device cannot be reached.
   */
  static async create(options: SenseActAgentOptions): Promise<SenseActAgent> {
    const cwd = options.cwd ?? process.cwd();
    const env = options.env ?? process.env;
    const models = options.models ?? modelsFromEnv(env);
    const traceRoot = path.resolve(cwd, options.traceRoot ?? 'runs');
    const appMemory = typeof options.appMemory === 'string' ? await AppMemory.open(path.resolve(cwd, options.appMemory), { countTokens: estimateTokens }) : options.appMemory;
    if (isDevice(options.device)) return new SenseActAgent(options.device, false, models, { ...options, traceRoot }, appMemory);
    const profile = profileOf(options.device, cwd, env);
    const device = await createDevice(profile, { ...(options.sim ? { sim: options.sim } : {}), ...(options.signal ? { signal: options.signal } : {}) });
    return new SenseActAgent(device, true, models, { ...options, traceRoot }, appMemory, profile.irreversible ?? []);
  }

  /**
   * Carries out one instruction on the device as it is now and returns what happened.
   * Throws `SenseActAgentError` for bad options (before touching the device); every
   * failure after that is in the result (`outcome: 'error'`).
   */
  async run(instruction: string, options: AgentRunOptions): Promise<AgentRunResult> {
    const task = adHocTask(instruction, options, this.runs++);
    if (options.launch !== undefined) await this.device.act({ type: 'launch', packageName: options.launch }, options.signal ? { signal: options.signal } : {});
    const result = await runTask({
      task,
      mode: options.mode ?? this.options.mode ?? 'senseact',
      policy: 'llm',
      device: this.device,
      models: this.models,
      traceRoot: this.options.traceRoot,
      suite: 'agent',
      ...(this.options.memory ? { memory: this.options.memory } : {}),
      ...(this.options.perception ? { perception: this.options.perception } : {}),
      ...(this.options.gateThreshold === undefined ? {} : { gateThreshold: this.options.gateThreshold }),
      ...(this.options.secrets ? { secrets: this.options.secrets } : {}),
      ...(this.skills ? { skills: this.skills } : {}),
      ...(this.options.planning ? { planning: this.options.planning } : {}),
      ...(this.appMemory ? { appMemory: this.appMemory } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.budget ? { budget: options.budget } : {}),
      ...(options.budgetPrices ? { budgetPrices: options.budgetPrices } : {}),
      ...(options.onEvent ? { onTraceEvent: options.onEvent } : {}),
      irreversible: { allow: this.options.allowIrreversible === true, words: this.irreversibleWords, ...(this.options.confirm ? { confirm: this.options.confirm } : {}) },
    });
    return {
      outcome: outcomeOf(result, options.check !== undefined),
      reason: result.reason,
      ...(result.answer === undefined ? {} : { answer: result.answer }),
      steps: result.steps,
      calls: { llm: result.llmCalls, vlm: result.vlmCalls, images: result.imagesUploaded, promptTokens: result.promptTokens, completionTokens: result.completionTokens },
      traceDir: path.resolve(this.options.traceRoot, result.traceDir),
      error: result.error,
      result,
    };
  }

  /** Closes the device the agent connected (a `Device` you passed stays open). */
  async close(): Promise<void> {
    if (this.ownsDevice) await this.device.close();
  }
}

function outcomeOf(result: TaskRunResult, checked: boolean): AgentOutcome {
  if (result.error !== null) return 'error';
  if (checked) return result.success ? 'success' : 'failure';
  return result.agentFinished === true ? 'finished' : 'stopped';
}

function isDevice(device: AgentDevice): device is Device {
  return typeof device === 'object' && typeof (device as Partial<Device>).observe === 'function' && typeof (device as Partial<Device>).act === 'function';
}

function profileOf(device: Exclude<AgentDevice, Device>, cwd: string, env: Readonly<Record<string, string | undefined>>): DeviceProfile {
  if (typeof device === 'string') return loadDeviceProfile(device, { cwd, env });
  if ('kind' in device) return parseDeviceProfile(device, 'SenseActAgent option device');
  if ('url' in device) return parseDeviceProfile({ kind: 'appium', name: 'appium', appium: { url: device.url, capabilities: device.capabilities } }, 'SenseActAgent option device');
  throw new SenseActAgentError({ code: 'agent-device', message: "SenseActAgent: option device must be 'sim', a profile name or path, a device profile, { url, capabilities } or a Device." });
}

function modelsFromEnv(env: Readonly<Record<string, string | undefined>>): AgentModels {
  const config = modelConfigFromEnv(env);
  if (!config.ready) {
    throw new SenseActAgentError({ code: 'agent-models', message: `SenseActAgent: no models given and none configured (${config.problems.join('; ')}). Pass models: { planner, vision }, or set SENSEACT_BASE_URL / SENSEACT_API_KEY / SENSEACT_MODEL.` });
  }
  const models = createConfiguredModels({ config });
  return { planner: models.language, verifier: models.language, vision: models.vision, certifier: models.language };
}

/** The instruction as a task the loop runs: no start state, no reference solution, the check when given. */
function adHocTask(instruction: string, options: AgentRunOptions, index: number): Task {
  const bad = (option: string, message: string): SenseActAgentError => new SenseActAgentError({ code: 'agent-run-option', message: `SenseActAgent.run: ${option} ${message}` });
  if (instruction.trim() === '') throw bad('instruction', 'is empty; say what to do, e.g. "Turn on airplane mode"');
  if (options.allowedPackages.length === 0) throw bad('allowedPackages', 'is empty; list the apps the agent may enter, e.g. ["com.android.settings"]');
  const app = options.app ?? options.allowedPackages[0]!;
  for (const name of [...options.allowedPackages, app, ...(options.launch === undefined ? [] : [options.launch])]) {
    if (!packageName.test(name)) throw bad('allowedPackages', `has "${name}", which is not an Android package name such as com.android.settings`);
  }
  if (!options.allowedPackages.includes(app)) throw bad('app', `"${app}" must be one of allowedPackages`);
  const stepBudget = options.stepBudget ?? defaultStepBudget;
  if (!Number.isInteger(stepBudget) || stepBudget < 1) throw bad('stepBudget', `must be a whole number ≥ 1, got ${stepBudget}`);
  if (options.check !== undefined) {
    const parsed = safeParsePredicate(options.check);
    if (!parsed.success) throw bad('check', `is not a predicate (docs/predicates.md): ${parsed.error.message}`);
  }
  const slug = instruction.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 40) || 'instruction';
  return {
    id: `${slug}-${stableHashHex(`${instruction}#${index}`).slice(0, 6)}`,
    app,
    instruction: instruction.trim(),
    source: { benchmark: 'senseact' },
    start: {},
    ...(options.check === undefined ? {} : { success: { screen: options.check } }),
    allowedPackages: [...options.allowedPackages],
    stepBudget,
    tags: ['ad-hoc'],
    difficulty: 'medium',
  };
}
