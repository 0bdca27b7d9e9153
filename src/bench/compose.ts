import { existsSync, readdirSync } from 'node:fs';
import * as path from 'node:path';
import type { AgentModels } from '../agent/agent-session.js';
import { modelFaultProfile, modelFaultProfiles, type ModelFaultConfig } from '../agent/model-faults/model-fault-profile.js';
import { isSenseActMode, verifyingSenseActModes } from '../agent/loop/run-senseact.js';
import { runTask, type RunTaskOptions } from '../agent/run-task.js';
import type { PolicyName, TaskRunResult } from '../agent/task-run-result.js';
import type { PlanningOptions } from '../agent/planning/planning-options.js';
import type { DeviceProfile } from '../device/device-profile.js';
import { loadDeviceProfile } from '../device/device-profile.js';
import { loadSkills } from '../skills/skill-library.js';
import type { Skill } from '../skills/skill-schema.js';
import { SimDevice } from '../device/sim-device.js';
import { AppMemory } from '../memory/app-memory.js';
import { simDriverAutomationName } from '../device/sim-driver-automation-name.js';
import { CertificateMemory } from '../memory/certificate-memory.js';
import { estimateTokens } from '../model/estimate-tokens.js';
import { modelConfigFromEnv, type ModelConfig } from '../model/model-config-from-env.js';
import { createConfiguredModels } from '../model/create-configured-models.js';
import type { CassetteUse } from '../model/cassette-player.js';
import { modelRoles } from '../model/model-role.js';
import { imageDetailSchema, type ImageDetail } from '../model/vision-model.js';
import type { FaultProfileName } from '../sim/fault-injector.js';
import { SimulatorError } from '../sim/simulator-error.js';
import { simApps } from '../sim/sim-seed-data.js';
import { Simulator, type SimulatorOptions } from '../sim/simulator.js';
import { loadSuite } from '../tasks/load-task-file.js';
import { stateConditionProblem } from '../tasks/state-path-problem.js';
import type { Task } from '../tasks/task-schema.js';
import { repoRoot } from '../device/appium-server.js';
import { debugLog, setDebugLogRedaction } from '../util/debug-log.js';
import { Redactor, secretsFromEnv, urlPasswords } from '../util/redactor.js';
import { stableHash } from '../util/stable-hash.js';
import { BenchError } from './bench-error.js';
import { choosePolicy } from './choose-policy.js';
import { pricesForModels } from './model-prices.js';
import { describeSetupStep, deviceSetupSteps, runDeviceSetup, setupStepProblem, type DeviceSetupOutcome } from './run-device-setup.js';
import { simSeedDataForTask, simSeedForTask, simulatorForTask, type SimProfileSection } from './simulator-for-task.js';
import { defaultBenchTraceFormat, type BenchExecutorHandle, type BenchExecutorOptions } from './task-executor.js';

/**
 * The default wall-clock limit of one bench run (`--run-timeout`), in seconds: far above a
 * model run's usual minutes (a step budget of 30 at 20 s a model call is 10 minutes), so
 * that only a run that hangs meets it.
 */
export const defaultRunTimeoutSeconds = 1800;

/** What a caller inside the bench may wire differently (a worker thread: a replica of the memory). */
export interface BenchWiring {
  /** The certificate memory of a mode; default: `<outDir>/memory/<mode>.jsonl`, opened once. */
  readonly memoryFor?: (mode: string, redactor: Redactor) => Promise<CertificateMemory>;
}

/** The wired executor; `policy` is `llm` only with a configured model, else the oracle plays. */
export type BenchComposition = BenchExecutorHandle<Task>;

/**
 * The cassette setting: `SENSEACT_CASSETTE=record:<file>` records every model call of the
 * run, `replay:<file>` answers from such a file with no endpoint (so the llm policy runs
 * offline, exactly as recorded; recorded calls the runs did not ask for are reported after
 * the bench), `replay-strict:<file>` likewise and makes unused recorded calls an error
 * (`strict`). Throws when the value is malformed.
 */
export function cassetteFromEnv(env: Readonly<Record<string, string | undefined>>, cwd: string): { mode: 'record' | 'replay'; path: string; strict?: true } | undefined {
  const value = env['SENSEACT_CASSETTE'];
  if (value === undefined || value === '') return undefined;
  const match = /^(record|replay|replay-strict):(.+)$/.exec(value);
  if (!match) throw new BenchError({ code: 'bench-cassette', message: `SENSEACT_CASSETTE=${value}: expected record:<file>, replay:<file> or replay-strict:<file>.` });
  const file = path.resolve(cwd, match[2]!);
  return match[1] === 'replay-strict' ? { mode: 'replay', path: file, strict: true } : { mode: match[1] as 'record' | 'replay', path: file };
}

/**
 * The VLM gate's image detail from `SENSEACT_GATE_DETAIL` (`low`, `high` or `auto`);
 * undefined when unset (the gate's default, high). Throws when the value is none of them.
 */
export function gateImageDetailFromEnv(env: Readonly<Record<string, string | undefined>>): ImageDetail | undefined {
  const value = env['SENSEACT_GATE_DETAIL']?.trim();
  if (value === undefined || value === '') return undefined;
  const parsed = imageDetailSchema.safeParse(value.toLowerCase());
  if (!parsed.success) throw new BenchError({ code: 'bench-gate-detail', message: `SENSEACT_GATE_DETAIL=${value}: expected low, high or auto (low costs 85 tokens per screenshot, high up to 1445).` });
  return parsed.data;
}

/**
 * Builds the OpenAI-compatible models for every role (recording or replaying a cassette
 * when asked), with the name of the model behind each role that answers (when replaying,
 * the recorded one).
 */
export function openAiModels(config: ModelConfig, cassette?: { mode: 'record' | 'replay'; path: string }, redactor?: Redactor): AgentModels & { readonly names: readonly string[]; readonly cassetteUse?: () => CassetteUse } {
  const models = createConfiguredModels({ config, ...(cassette ? { cassette: { mode: cassette.mode, path: cassette.path } } : {}), ...(redactor ? { redactor } : {}) });
  return { planner: models.language, verifier: models.language, vision: models.vision, certifier: models.language, names: Object.values(models.modelNames), ...(models.cassetteUse ? { cassetteUse: models.cassetteUse } : {}) };
}

/**
 * The composition root of the benchmark (docs/architecture.md §8): turns the CLI's choices into a
 * task executor that wires a device in the task's start state, the models (or the
 * oracle), the certificate memory and the agent loop. The policy and why it was chosen
 * (`choosePolicy`: `auto` is the oracle on the simulator) are in `notice`.
 */
export async function createBenchExecutor(options: BenchExecutorOptions, wiring: BenchWiring = {}): Promise<BenchComposition> {
  const profile: DeviceProfile = loadDeviceProfile(options.device, { cwd: options.cwd, env: options.env });
  const simDriver = profile.kind === 'appium' && String(profile.appium.capabilities['appium:automationName'] ?? '').toLowerCase() === simDriverAutomationName.toLowerCase();
  const simulated = profile.kind === 'sim' || simDriver;
  const wired = wireModels(options, simulated);
  const { policy, redactor } = wired;
  const simSection = profile.kind === 'sim' ? checkedSimSection(profile) : undefined;
  const faults = checkedFaults(options, profile, { simDriver, simSection, policy });
  const memories = certificateMemories(options, wiring, redactor);
  const planning = await planningAids(options, redactor);
  // DroidTask tasks on a simulated device run their sim twin (same instruction, our apps), under their own id.
  const runnable = twinResolver(simulated && options.suite !== 'sim' ? await simTwinTasks(options.cwd) : new Map<string, Task>(), simulated);
  const budgetPrices = checkedBudgetPrices(options, wired.modelNames, policy);
  // Each injected fault goes into the trace at the step it struck (one fault-log read per device call).
  const traceDeviceFaults = faults.effective !== undefined && faults.effective !== 'none';

  const executor: BenchExecutorHandle<Task>['executor'] = async (request) => {
    const { mode, repeat, signal } = request;
    const task = runnable(request.task);
    if (task === undefined) throw new BenchError({ code: 'bench-sim-twin', message: `task "${request.task.id}": its simTwin "${request.task.simTwin}" is not a task of a simulator suite (tasks/sim, tasks/sim-*)` });
    const common: RunOptions = {
      task,
      mode,
      policy,
      traceRoot: options.outDir,
      suite: 'traces',
      runId: `${mode}-r${repeat}`,
      replaceTrace: true,
      traceFormat: options.trace ?? defaultBenchTraceFormat,
      repeat,
      signal,
      redactor,
      // The answer judge runs on the verifier's model, metered with the run (runTask builds it from models.judge).
      ...(wired.models ? { models: { ...wired.models, judge: wired.models.verifier ?? wired.models.planner } } : {}),
      ...(verifyingSenseActModes.includes(mode) ? { memory: await memories.memoryFor(mode), memoryRun: memoryRun(task.id, mode, repeat) } : {}),
      ...(wired.gateImageDetail === undefined ? {} : { gateImageDetail: wired.gateImageDetail }),
      ...(options.budget === undefined ? {} : { budget: options.budget }),
      ...(budgetPrices === undefined ? {} : { budgetPrices }),
      ...(options.gateThreshold === undefined ? {} : { gateThreshold: options.gateThreshold }),
      ...((options.runTimeoutSeconds ?? defaultRunTimeoutSeconds) > 0 ? { runTimeoutMs: Math.round((options.runTimeoutSeconds ?? defaultRunTimeoutSeconds) * 1000) } : {}),
      // Seeded per task and repeat, as the simulator's faults are: every mode of a run meets the same draws.
      ...(faults.modelFaults === undefined ? {} : { modelFaults: { config: faults.modelFaults, seed: stableHash(`${task.id}#${repeat}#model-faults`) } }),
      ...(planning.skills && verifyingSenseActModes.includes(mode) ? { skills: planning.skills } : {}),
      ...(isSenseActMode(mode) ? { ...planning.planningOptions, ...(planning.appMemory ? { appMemory: planning.appMemory, appMemoryRun: `${path.resolve(options.outDir)}#${memoryRun(task.id, mode, repeat)}` } : {}) } : {}),
    };
    if (profile.kind === 'sim') return runOnSimulator(common, profile, { faults: faults.faults, simSection, traceDeviceFaults });
    return runOnAppium(common, profile, { faults: faults.faults, simDriver, traceDeviceFaults });
  };
  return {
    executor,
    policy,
    notice: wired.notice,
    simulated,
    modelLabel: policy === 'oracle' ? 'none (oracle)' : wired.plannerName ?? wired.config.models.planner,
    redactor,
    faults: faults.effective === 'none' ? null : faults.effective ?? null,
    prices: pricesForModels(wired.modelNames),
    ...(wired.models?.cassetteUse && wired.cassette !== undefined ? { cassette: { use: wired.models.cassetteUse, strict: wired.cassette.strict === true } } : {}),
    checkTask: (task) => {
      const twin = runnable(task);
      if (twin === undefined) return `their simTwin is not a task of a simulator suite (tasks/sim, tasks/sim-*)`;
      return whyTaskCannotRun(twin, { policy, simulated, apps: simSection?.apps, deviceName: profile.name });
    },
    retainRuns: memories.retainRuns,
    describeTask: (task) => describeBenchTask(task, runnable(task), { simulated, profile }),
    close: memories.close,
  };
}

/** The bench's models and policy, with the notice that says which plays and why, and the redactor of every file it writes. */
interface WiredModels {
  readonly config: ModelConfig;
  readonly cassette: ReturnType<typeof cassetteFromEnv>;
  readonly gateImageDetail: ImageDetail | undefined;
  readonly policy: PolicyName;
  readonly notice: string;
  readonly redactor: Redactor;
  readonly models: ReturnType<typeof openAiModels> | undefined;
  /** The models that answer (a replayed cassette's: the ones it recorded, whatever the environment names now). */
  readonly modelNames: readonly string[];
  readonly plannerName: string | undefined;
}

/** Reads the model settings of the environment, chooses the policy, and builds the models when a model plays. */
function wireModels(options: BenchExecutorOptions, simulated: boolean): WiredModels {
  // --temperature sets every role, over SENSEACT_[<ROLE>_]TEMPERATURE (a vote's own temperature still wins per request).
  const config = modelConfigFromEnv(options.env, options.temperature === undefined ? {} : { generation: Object.fromEntries(modelRoles.map((role) => [role, { temperature: options.temperature }])) });
  const cassette = cassetteFromEnv(options.env, options.cwd);
  const gateImageDetail = gateImageDetailFromEnv(options.env);
  const choice = choosePolicy({ wanted: options.policy, simulated, config, cassette, dryRun: options.dryRun === true, temperature: options.temperature });
  const policy: PolicyName = choice.policy;
  let notice = choice.notice;
  // A line of its own: the policy line stays within 120 columns.
  if (policy === 'oracle' && options.temperature !== undefined) notice += `\n--temperature ${options.temperature} is recorded but changes nothing: the oracle samples nothing.`;
  // One redaction pass for every file of the bench: the configured key, secret-named
  // variables of the environment, key patterns, and passwords typed during the runs.
  const redactor = new Redactor([...(config.apiKey ? [config.apiKey] : []), ...urlPasswords(config.baseUrl), ...secretsFromEnv(options.env)]);
  setDebugLogRedaction((line) => redactor.text(line));
  const models = policy === 'llm' && options.dryRun !== true ? openAiModels(config, cassette, redactor) : undefined;
  const modelNames = models?.names ?? [];
  if (cassette?.mode === 'replay' && policy === 'llm') notice += `; recorded with ${[...new Set(modelNames)].join(', ') || 'no model calls'}`;
  return { config, cassette, gateImageDetail, policy, notice, redactor, models, modelNames, plannerName: models?.planner.modelName('planner') };
}

/** The device faults to inject (and how results name them) and the model faults, refused where they cannot apply. */
function checkedFaults(options: BenchExecutorOptions, profile: DeviceProfile, context: { readonly simDriver: boolean; readonly simSection: SimProfileSection | undefined; readonly policy: PolicyName }): { readonly faults: FaultProfileName | undefined; readonly effective: string | undefined; readonly modelFaults: ModelFaultConfig | undefined } {
  const faults = options.faults as FaultProfileName | undefined;
  if (faults !== undefined && profile.kind !== 'sim' && !context.simDriver) {
    throw new BenchError({ code: 'bench-faults', message: `--faults ${faults}: fault injection needs the simulator; device profile "${profile.name}" is a real device. Drop --faults or use --device sim.` });
  }
  const profileFaults = context.simSection?.faults ?? (context.simDriver ? (profile.kind === 'appium' ? profile.appium.capabilities['senseact:faults'] : undefined) : undefined);
  const effective = faults ?? (typeof profileFaults === 'string' ? profileFaults : profileFaults === undefined ? undefined : `the faults of device profile ${profile.name}`);
  const modelFaults = options.modelFaults === undefined ? undefined : modelFaultProfile(options.modelFaults);
  if (options.modelFaults !== undefined && modelFaults === undefined) {
    throw new BenchError({ code: 'bench-model-faults', message: `--model-faults ${options.modelFaults}: unknown profile; choose from ${Object.keys(modelFaultProfiles).join(', ')}.` });
  }
  if (modelFaults !== undefined && context.policy !== 'oracle') {
    throw new BenchError({ code: 'bench-model-faults', message: `--model-faults ${options.modelFaults}: model errors are injected into the oracle's replies; a real model makes its own. Run with --policy oracle, or drop --model-faults.` });
  }
  return { faults, effective, modelFaults };
}

/** Certificates carry the run that wrote them, so a resumed bench can drop those of unfinished runs. */
function memoryRun(taskId: string, mode: string, repeat: number): string {
  return `${taskId}/${mode}-r${repeat}`;
}

/** One certificate memory per mode, opened on first use; `retainRuns` drops the certificates of runs that did not finish. */
function certificateMemories(options: BenchExecutorOptions, wiring: BenchWiring, redactor: Redactor): Required<Pick<BenchComposition, 'retainRuns' | 'close'>> & { readonly memoryFor: (mode: string) => Promise<CertificateMemory> } {
  const memories = new Map<string, Promise<CertificateMemory>>();
  const memoryFor = (mode: string): Promise<CertificateMemory> => {
    let memory = memories.get(mode);
    if (!memory) {
      memory = wiring.memoryFor?.(mode, redactor) ?? CertificateMemory.open(path.join(options.outDir, 'memory', `${mode}.jsonl`), { redactor });
      memories.set(mode, memory);
    }
    return memory;
  };
  const retainRuns = async (kept: readonly { id: string; mode: string; repeat: number }[]): Promise<void> => {
    const keep = new Set(kept.map((run) => memoryRun(run.id, run.mode, run.repeat)));
    const folder = path.join(options.outDir, 'memory');
    const files = existsSync(folder) ? readdirSync(folder).filter((name) => name.endsWith('.jsonl')) : [];
    for (const file of files) {
      const dropped = await (await memoryFor(file.replace(/\.jsonl$/, ''))).retainRuns((run) => keep.has(run));
      if (dropped > 0) debugLog('bench', `memory ${file}: dropped ${dropped} certificate(s) of runs that did not finish`);
    }
  };
  const close = async (): Promise<void> => {
    for (const memory of memories.values()) await (await memory).close();
  };
  return { memoryFor, retainRuns, close };
}

/** The skills and planning aids of every senseact run of the bench (none when none was asked for), read once before the first run. */
async function planningAids(options: BenchExecutorOptions, redactor: Redactor): Promise<{ readonly skills: readonly Skill[] | undefined; readonly appMemory: AppMemory | undefined; readonly planningOptions: { readonly planning?: PlanningOptions } }> {
  // A bad skill file stops the bench with its name and field.
  const skills = options.skills === undefined ? undefined : loadSkills(options.skills);
  if (options.skills !== undefined && skills?.length === 0) throw new BenchError({ code: 'bench-skills', message: `--skills ${options.skills}: no skills there; write some with senseact skills induce <run-dir...> --out ${options.skills}` });
  const planning = options.planning;
  const appMemory = planning?.appMemoryDir === undefined ? undefined : await AppMemory.open(planning.appMemoryDir, { countTokens: estimateTokens, redactor });
  const chosenPlanning: PlanningOptions = {
    ...(planning?.metaPlan === true ? { metaPlan: true } : {}),
    ...(planning !== undefined && planning.vote > 1 ? { vote: { samples: planning.vote, temperature: planning.voteTemperature } } : {}),
  };
  return { skills, appMemory, planningOptions: Object.keys(chosenPlanning).length > 0 ? { planning: chosenPlanning } : {} };
}

/** The task a bench task runs as: itself, or on a simulated device its sim twin under its own id (undefined when the twin is not found). */
function twinResolver(simTwins: ReadonlyMap<string, Task>, simulated: boolean): (task: Task) => Task | undefined {
  return (task) => {
    if (!simulated || task.simTwin === undefined) return task;
    const twin = simTwins.get(task.simTwin);
    return twin === undefined ? undefined : { ...twin, id: task.id };
  };
}

/** A cost limit is counted at the command line's prices, else the model's list price when known; without either it is refused for a model. */
function checkedBudgetPrices(options: BenchExecutorOptions, modelNames: readonly string[], policy: PolicyName): { promptPerMillionUsd: number; completionPerMillionUsd: number } | undefined {
  const knownPrices = options.prices ?? pricesForModels(modelNames);
  const budgetPrices = knownPrices.unknown === true ? undefined : { promptPerMillionUsd: knownPrices.promptPerMillionUsd, completionPerMillionUsd: knownPrices.completionPerMillionUsd };
  if (options.budget?.maxCostUsd !== undefined && budgetPrices === undefined && policy === 'llm') {
    throw new BenchError({ code: 'bench-budget', message: `--max-cost ${options.budget.maxCostUsd}: ${knownPrices.label}; a cost limit needs the model's prices: give --price-prompt and --price-completion, or limit calls or tokens instead (--max-model-calls, --max-tokens).` });
  }
  return budgetPrices;
}

/** What every run of the bench gives runTask, whatever the device. */
type RunOptions = Omit<RunTaskOptions, 'device'> & { readonly repeat: number; readonly signal: AbortSignal };

/** One run on an in-process simulator started in the task's state. */
async function runOnSimulator(common: RunOptions, profile: Extract<DeviceProfile, { kind: 'sim' }>, context: { readonly faults: FaultProfileName | undefined; readonly simSection: SimProfileSection | undefined; readonly traceDeviceFaults: boolean }): Promise<TaskRunResult> {
  const simulator = simulatorForTask(common.task, { repeat: common.repeat, ...(context.faults === undefined ? {} : { faults: context.faults }), ...(context.simSection === undefined ? {} : { profile: context.simSection }) });
  const device = new SimDevice(simulator, { name: profile.name, ...(profile.settle === undefined ? {} : { settle: profile.settle }) });
  try {
    return await runTask({ ...common, device, probe: device, traceDeviceFaults: context.traceDeviceFaults });
  } finally {
    await device.close();
  }
}

/** One run on an Appium device (a phone, an emulator, or the simulator's own Appium driver), with the task's start steps inside the run. */
async function runOnAppium(common: RunOptions, profile: Extract<DeviceProfile, { kind: 'appium' }>, context: { readonly faults: FaultProfileName | undefined; readonly simDriver: boolean; readonly traceDeviceFaults: boolean }): Promise<TaskRunResult> {
  const { task, signal, repeat } = common;
  // WebdriverIO takes about a second to load: only runs on Appium load it (not every bench worker thread).
  const [{ AppiumDevice }, { createDevice }] = await Promise.all([import('../device/appium-device.js'), import('../device/create-device.js')]);
  const device = await createDevice(profile, {
    signal,
    capabilities: {
      // The simulator's driver starts in the task's state, as the in-process simulator does.
      ...(context.simDriver ? { 'senseact:seed': simSeedForTask(task, repeat), 'senseact:initialState': simSeedDataForTask(task) } : {}),
      ...(context.faults === undefined ? {} : { 'senseact:faults': context.faults }),
      ...(task.start.launch === undefined ? {} : { 'appium:appPackage': task.start.launch }),
    },
  });
  // The simulator's own Appium driver says what the apps hold and which faults fired, as the
  // in-process one does; a real device runs the task's adb queries.
  try {
    // The start steps run inside the run, so that each one's outcome is in its trace.
    const startSteps = device instanceof AppiumDevice
      ? async (report: (outcome: DeviceSetupOutcome) => void): Promise<void> => {
        const setup = await runDeviceSetup(deviceSetupSteps(task, profile.reset), device, { taskId: task.id, signal, onStep: report });
        if (setup.length > 0) debugLog('bench', `${task.id}: start steps on ${device.info.servedBy ?? device.info.name}: ${setup.map((record) => `${record.step} (${record.outcome})`).join('; ')}`);
      }
      : undefined;
    // A real device watches the profile's adb queries for side effects; the simulator's driver, every app's state.
    const watch = !context.simDriver && profile.watch !== undefined ? { watch: profile.watch } : {};
    return await runTask({ ...common, device, ...(device instanceof AppiumDevice ? { probe: device, traceDeviceFaults: context.traceDeviceFaults } : {}), ...watch, ...(startSteps === undefined ? {} : { startSteps }) });
  } finally {
    await device.close();
  }
}

/** What `bench --dry-run` says of a task: the twin it runs as, or its start steps and success checks. */
function describeBenchTask(task: Task, twin: Task | undefined, context: { readonly simulated: boolean; readonly profile: DeviceProfile }): string {
  if (twin !== task && twin !== undefined) return `${task.id}: runs its sim twin ${task.simTwin}`;
  const steps = context.simulated ? [] : deviceSetupSteps(task, context.profile.kind === 'appium' ? context.profile.reset : undefined);
  const checks = [
    ...(task.success?.screen === undefined ? [] : ['screen']),
    ...(task.success?.state === undefined ? [] : ['state']),
    ...(task.success?.adb === undefined ? [] : [`adb ×${task.success.adb.length}`]),
    ...(task.success?.judge === undefined ? [] : ['judge: model']),
    ...(task.answer === undefined ? [] : [`answer (${task.answer.judge})`]),
  ];
  return `${task.id}: start [${steps.map(describeSetupStep).join('; ')}]; success: ${checks.join(', ')}`;
}

/**
 * The simulator suites' tasks by id — `tasks/sim` and every `tasks/sim-*` (the project's own
 * tasks/ when `cwd` has tasks/sim, else the shipped one): the twins of DroidTask and
 * AndroidWorld tasks. An id found in two of them stops the bench (a twin must be one task).
 */
async function simTwinTasks(cwd: string): Promise<Map<string, Task>> {
  const own = path.join(cwd, 'tasks');
  const tasksRoot = existsSync(path.join(own, 'sim')) ? own : path.join(repoRoot(), 'tasks');
  const suites = readdirSync(tasksRoot, { withFileTypes: true }).filter((entry) => entry.isDirectory() && (entry.name === 'sim' || entry.name.startsWith('sim-'))).map((entry) => entry.name).sort();
  const twins = new Map<string, Task>();
  for (const name of suites) {
    for (const task of (await loadSuite(name, { tasksRoot })).tasks) {
      if (twins.has(task.id)) throw new BenchError({ code: 'bench-sim-twin', message: `task id "${task.id}" is in two simulator suites (tasks/${name} and another tasks/sim*): a twin id must name one task; rename one of them` });
      twins.set(task.id, task);
    }
  }
  return twins;
}

/**
 * A sim profile's `sim:` section, checked by starting one simulator with it, so a bad
 * app list, screen, seed data or fault config stops the bench before its first run.
 */
function checkedSimSection(profile: Extract<DeviceProfile, { kind: 'sim' }>): SimProfileSection {
  const section = profile.sim;
  try {
    new Simulator(section as SimulatorOptions);
  } catch (error) {
    if (!SimulatorError.isInstance(error)) throw error;
    throw new BenchError({ code: 'bench-device-profile', message: `device profile ${profile.name}: its sim: section does not start a simulator: ${error.message}`, cause: error });
  }
  return section;
}

/** Why the wired device and policy cannot run a task (see `BenchExecutorHandle.checkTask`). */
export function whyTaskCannotRun(task: Task, context: { readonly policy: PolicyName; readonly simulated: boolean; readonly apps: readonly string[] | undefined; readonly deviceName: string }): string | undefined {
  if (context.policy === 'oracle' && (task.solution?.length ?? 0) === 0) {
    return 'no reference solution (solution:) for the oracle policy to play; run them with a model (--policy llm)';
  }
  if (context.simulated) {
    const installed = context.apps ?? simApps.map((entry) => entry.app.packageName);
    const missing = [task.app, ...Object.keys(task.start.state ?? {}), ...(task.start.launch === undefined ? [] : [task.start.launch])].find((packageName) => !installed.includes(packageName));
    if (missing !== undefined) return `the simulator of device profile ${context.deviceName} has no app ${missing} (it has ${installed.join(', ')}); run them on a device with that app`;
    // A state check's path must name something in the app's state (judged on its default state).
    for (const [index, check] of (task.success?.state ?? []).entries()) {
      const app = simApps.find((entry) => entry.app.packageName === check.app)?.app;
      const problem = app === undefined ? undefined : stateConditionProblem(check, app.defaultState());
      if (problem !== undefined) return `success.state[${index}] (${check.app}) path ${problem}`;
    }
    return undefined;
  }
  if (task.uncovered !== undefined) return `not covered: ${task.uncovered}`;
  const badStep = (task.start.device ?? []).map(setupStepProblem).find((problem) => problem !== undefined);
  if (badStep !== undefined) return badStep;
  const success = task.success;
  if (task.answer === undefined && success !== undefined && success.state !== undefined && success.screen === undefined && success.adb === undefined && success.judge === undefined) {
    return `their success check reads only the simulator's app state (success.state), which device profile ${context.deviceName} cannot give; run them on the simulator`;
  }
  return undefined;
}
