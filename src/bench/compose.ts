import * as path from 'node:path';
import type { AgentModels } from '../agent/agent-session.js';
import { ModelAnswerJudge } from '../agent/model-answer-judge.js';
import { runTask } from '../agent/run-task.js';
import type { PolicyName } from '../agent/task-run-result.js';
import { AppiumDevice } from '../device/appium-device.js';
import { createDevice } from '../device/create-device.js';
import type { DeviceProfile } from '../device/device-profile.js';
import { loadDeviceProfile } from '../device/device-profile.js';
import { SimDevice } from '../device/sim-device.js';
import { CertificateMemory } from '../memory/certificate-memory.js';
import { modelConfigFromEnv, type ModelConfig } from '../model/model-config-from-env.js';
import { createConfiguredModels } from '../model/create-configured-models.js';
import { imageDetailSchema, type ImageDetail } from '../model/vision-model.js';
import type { FaultProfileName } from '../sim/fault-injector.js';
import { simApps } from '../sim/sim-seed-data.js';
import type { Simulator } from '../sim/simulator.js';
import type { Task } from '../tasks/task-schema.js';
import { parseHierarchy } from '../ui/parse-hierarchy.js';
import type { UiTree } from '../ui/ui-tree.js';
import { debugLog } from '../util/debug-log.js';
import { BenchError } from './bench-error.js';
import { simSeedDataForTask, simSeedForTask, simulatorForTask } from './simulator-for-task.js';
import type { BenchExecutorHandle, BenchExecutorOptions } from './task-executor.js';

/** The wired executor; `policy` is `llm` only with a configured model, else the oracle plays. */
export type BenchComposition = BenchExecutorHandle<Task>;

/**
 * The cassette setting: `SENSEACT_CASSETTE=record:<file>` records every model call of the
 * run, `replay:<file>` answers from such a file with no endpoint (so the llm policy runs
 * offline, exactly as recorded). Throws when the value is malformed.
 */
export function cassetteFromEnv(env: Readonly<Record<string, string | undefined>>, cwd: string): { mode: 'record' | 'replay'; path: string } | undefined {
  const value = env['SENSEACT_CASSETTE'];
  if (value === undefined || value === '') return undefined;
  const match = /^(record|replay):(.+)$/.exec(value);
  if (!match) throw new BenchError({ code: 'bench-cassette', message: `SENSEACT_CASSETTE=${value}: expected record:<file> or replay:<file>.` });
  return { mode: match[1] as 'record' | 'replay', path: path.resolve(cwd, match[2]!) };
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

/** Builds the OpenAI-compatible models for every role (recording or replaying a cassette when asked). */
export function openAiModels(config: ModelConfig, cassette?: { mode: 'record' | 'replay'; path: string }): AgentModels {
  const models = createConfiguredModels({ config, ...(cassette ? { cassette } : {}) });
  return { planner: models.language, verifier: models.language, vision: models.vision };
}

/**
 * Runs a task's `adb shell ...` queries on the device through Appium's `mobile: shell`
 * (the server must allow the insecure feature `adb_shell`; `startAppiumServer` does).
 * A command that fails is left out, so its check is inconclusive rather than passed.
 */
async function adbOutputsThrough(device: AppiumDevice, commands: readonly string[], signal?: AbortSignal): Promise<Record<string, string>> {
  const outputs: Record<string, string> = {};
  for (const command of commands) {
    const shell = /^adb\s+shell\s+(.+)$/s.exec(command.trim())?.[1];
    if (shell === undefined) {
      debugLog('bench', `adb check "${command}" is not an "adb shell ..." command; it cannot run through Appium`);
      continue;
    }
    try {
      const { value } = await device.execute('mobile: shell', { command: shell, args: [], includeStderr: false }, signal ? { signal } : {});
      outputs[command] = typeof value === 'string' ? value : JSON.stringify(value);
    } catch (error) {
      debugLog('bench', `adb check "${command}" failed: ${error instanceof Error ? error.message : String(error)} (start Appium with --allow-insecure '*:adb_shell')`);
    }
  }
  return outputs;
}

/** Per-app state keyed by the simulator's app keys, read by package as task checks do. */
function appStateByPackage(state: unknown): (packageName: string) => unknown {
  const byKey = (state ?? {}) as Record<string, unknown>;
  return (packageName) => {
    const entry = simApps.find((candidate) => candidate.app.packageName === packageName);
    return entry ? byKey[entry.key] : undefined;
  };
}

/** The simulator's screen without label-stripping faults: what the oracle's "eyes" see. */
function groundTruthOf(simulator: Simulator): () => UiTree | undefined {
  return () => parseHierarchy(simulator.groundTruthSource(), { packageName: simulator.currentPackage(), activity: simulator.currentActivity(), sourceName: 'simulator ground truth' });
}

/**
 * The composition root of the benchmark (DESIGN.md §2): turns the CLI's choices into a
 * task executor that wires a device in the task's start state, the models (or the
 * oracle), the certificate memory and the agent loop. `policy: 'llm'` without a
 * configured model falls back to the oracle and says so in `notice`.
 */
export async function createBenchExecutor(options: BenchExecutorOptions): Promise<BenchComposition> {
  const profile: DeviceProfile = loadDeviceProfile(options.device, { cwd: options.cwd });
  const config = modelConfigFromEnv(options.env);
  const cassette = cassetteFromEnv(options.env, options.cwd);
  const gateImageDetail = gateImageDetailFromEnv(options.env);
  const wanted = options.policy;
  let policy: PolicyName;
  let notice: string;
  if (wanted === 'oracle') {
    policy = 'oracle';
    notice = 'policy: oracle (reference solutions through the full loop; no model is called). Results are oracle results.';
  } else if (cassette?.mode === 'replay') {
    policy = 'llm';
    notice = `policy: llm, replaying the recorded model calls in ${cassette.path} (no endpoint is called)`;
  } else if (config.ready) {
    policy = 'llm';
    notice = `policy: llm (planner ${config.models.planner}, vision ${config.models.vision} at ${config.baseUrl})${cassette ? `, recording to ${cassette.path}` : ''}`;
  } else if (wanted === 'auto') {
    policy = 'oracle';
    notice = `policy: oracle — no model is configured (${config.problems.join('; ') || 'set SENSEACT_API_KEY or SENSEACT_BASE_URL'}), so reference solutions play through the full loop. Results are oracle results.`;
  } else {
    throw new BenchError({ code: 'bench-no-model', message: `--policy llm needs a model: ${config.problems.join('; ')}. Or run with --policy oracle.` });
  }
  const models = policy === 'llm' ? openAiModels(config, cassette) : undefined;
  const faults = options.faults as FaultProfileName | undefined;
  if (faults !== undefined && profile.kind !== 'sim' && !profile.name.startsWith('sim')) {
    throw new BenchError({ code: 'bench-faults', message: `--faults ${faults}: fault injection needs the simulator; device profile "${profile.name}" is a real device. Drop --faults or use --device sim.` });
  }
  const memories = new Map<string, Promise<CertificateMemory>>();
  const memoryFor = (mode: string): Promise<CertificateMemory> => {
    let memory = memories.get(mode);
    if (!memory) {
      memory = CertificateMemory.open(path.join(options.outDir, 'memory', `${mode}.jsonl`));
      memories.set(mode, memory);
    }
    return memory;
  };
  const secrets = config.apiKey ? [config.apiKey] : [];

  const executor: BenchExecutorHandle<Task>['executor'] = async (request) => {
    const { task, mode, repeat, signal } = request;
    const common = {
      task,
      mode,
      policy,
      traceRoot: options.outDir,
      suite: 'traces',
      runId: `${mode}-r${repeat}`,
      replaceTrace: true,
      repeat,
      signal,
      secrets,
      ...(models ? { models, judges: { model: new ModelAnswerJudge(models.verifier ?? models.planner) } } : {}),
      ...(mode === 'senseact' || mode === 'senseact-text' ? { memory: await memoryFor(mode) } : {}),
      ...(gateImageDetail === undefined ? {} : { gateImageDetail }),
    };
    if (profile.kind === 'sim') {
      const simulator = simulatorForTask(task, { repeat, ...(faults === undefined ? {} : { faults }) });
      const device = new SimDevice(simulator, { name: profile.name, ...(profile.settle === undefined ? {} : { settle: profile.settle }) });
      try {
        return await runTask({
          ...common,
          device,
          appState: (packageName) => simulator.appState(packageName),
          groundTruth: groundTruthOf(simulator),
          faults: () => simulator.faultLog().map((event) => event.kind),
        });
      } finally {
        await device.close();
      }
    }
    const simDriver = profile.appium.capabilities['appium:automationName'] === 'SenseActSim';
    const device = await createDevice(profile, {
      signal,
      capabilities: {
        // The simulator's driver starts in the task's state, as the in-process simulator does.
        ...(simDriver ? { 'senseact:seed': simSeedForTask(task, repeat), 'senseact:initialState': simSeedDataForTask(task) } : {}),
        ...(faults === undefined ? {} : { 'senseact:faults': faults }),
        ...(task.start.launch === undefined ? {} : { 'appium:appPackage': task.start.launch }),
      },
    });
    // The simulator's own Appium driver can say what the apps hold, as the in-process one does.
    try {
      return await runTask({
        ...common,
        device,
        ...(!simDriver && device instanceof AppiumDevice ? { loadAdbOutputs: (commands: readonly string[], signal?: AbortSignal) => adbOutputsThrough(device, commands, signal) } : {}),
        ...(simDriver && device instanceof AppiumDevice ? { loadAppState: async (signal?: AbortSignal) => appStateByPackage((await device.execute('mobile: senseactState', {}, signal ? { signal } : {})).value) } : {}),
      });
    } finally {
      await device.close();
    }
  };
  return {
    executor,
    policy,
    notice,
    modelLabel: policy === 'oracle' ? 'none (oracle)' : config.models.planner,
    close: async () => {
      for (const memory of memories.values()) await (await memory).close();
    },
  };
}
