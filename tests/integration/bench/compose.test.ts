// The benchmark's composition root on the in-process simulator: the device profile's
// sim: section reaches the simulator of every task, a section or task that cannot run
// stops the bench before its first run, and a replayed cassette names the model it
// recorded.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BenchError } from '../../../src/bench/bench-error.js';
import { createBenchExecutor, whyTaskCannotRun } from '../../../src/bench/compose.js';
import type { BenchExecutorOptions } from '../../../src/bench/task-executor.js';
import { startMockOpenAiServer } from '../../../src/model/mock-openai-server.js';
import { loadSuite } from '../../../src/tasks/load-task-file.js';
import type { Task } from '../../../src/tasks/task-schema.js';
import { readTrace } from '../../../src/trace/read-trace.js';
import { openRunFiles } from '../../../src/trace/run-files.js';

const repoRoot = path.resolve(import.meta.dirname, '..', '..', '..');
const simSuite = await loadSuite('sim', { tasksRoot: path.join(repoRoot, 'tasks') });
const labSuite = await loadSuite('androidlab', { tasksRoot: path.join(repoRoot, 'tasks') });
const airplane = simSuite.tasks.find((task) => task.id === 'settings-airplane-on')!;
const clockTask = simSuite.tasks.find((task) => task.app === 'com.google.android.deskclock')!;
let root: string;

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'senseact-compose-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

function options(device: string, extra: Partial<BenchExecutorOptions> = {}): BenchExecutorOptions {
  return { suite: 'sim', device, faults: undefined, policy: 'oracle', outDir: path.join(root, 'out'), cwd: repoRoot, env: {}, signal: new AbortController().signal, ...extra };
}

async function profile(name: string, simLines: readonly string[]): Promise<string> {
  const file = path.join(root, `${name}.yaml`);
  await writeFile(file, ['kind: sim', `name: ${name}`, 'sim:', ...simLines.map((line) => `  ${line}`), 'settle:', '  intervalMs: 0', '  timeoutMs: 5000', ''].join('\n'));
  return file;
}

async function run(handle: Awaited<ReturnType<typeof createBenchExecutor>>, task: Task, outDir: string) {
  const signal = new AbortController().signal;
  return await handle.executor({ task, mode: 'senseact', repeat: 0, outDir, traceDir: path.join(outDir, 'traces', task.id, 'senseact-r0'), signal });
}

async function firstScreen(outDir: string, result: { traceDir: string }): Promise<string> {
  const folder = path.resolve(outDir, result.traceDir);
  const { artifacts } = readTrace(folder);
  const files = openRunFiles(folder, artifacts === undefined ? {} : { artifacts });
  const before = files.names.filter((file) => file.endsWith('before.xml'))[0];
  if (before === undefined) throw new Error(`no before.xml in ${folder}: ${files.names.join(', ')}`);
  const bytes = files.read(before);
  return bytes === undefined ? '' : Buffer.from(bytes).toString('utf8');
}

describe('createBenchExecutor on the simulator', () => {
  it("honours the device profile's sim: section: apps, screen and faults reach every task's simulator", async () => {
    const device = await profile('sim-small', ['apps: [com.android.settings]', 'screen: { width: 720, height: 1600, density: 320 }', "faults: { slow-settle: { rate: 1, observations: 1 } }", 'seed: 9']);
    const handle = await createBenchExecutor(options(device));
    try {
      expect(handle.faults).toBe('the faults of device profile sim-small');
      expect(handle.checkTask?.(clockTask, 'senseact')).toMatch(/^the simulator of device profile sim-small has no app com\.google\.android\.deskclock \(it has com\.android\.settings\)/);
      expect(handle.checkTask?.(airplane, 'senseact')).toBeUndefined();
      const outDir = path.join(root, 'small');
      const result = await run(handle, airplane, outDir);
      expect(result.error).toBeNull();
      expect(result.faults).toContain('slow-settle');
      expect(await firstScreen(outDir, result)).toMatch(/<hierarchy [^>]*width="720"/);
    } finally {
      await handle.close();
    }
    // Negative control: --faults none overrides the profile's faults, and the default profile keeps the default screen.
    const plain = await createBenchExecutor(options(device, { faults: 'none' }));
    try {
      expect(plain.faults).toBeNull();
      const result = await run(plain, airplane, path.join(root, 'plain'));
      expect(result.faults).toEqual([]);
    } finally {
      await plain.close();
    }
    const standard = await createBenchExecutor(options('sim'));
    try {
      const outDir = path.join(root, 'standard');
      expect(await firstScreen(outDir, await run(standard, airplane, outDir))).toMatch(/<hierarchy [^>]*width="1080"/);
    } finally {
      await standard.close();
    }
  });

  it('refuses a sim: section that does not start a simulator, before any run', async () => {
    const device = await profile('sim-broken', ['apps: [com.example.nothere]']);
    const created = createBenchExecutor(options(device));
    await expect(created).rejects.toSatisfy((error) => BenchError.isInstance(error));
    await expect(created).rejects.toThrow(/device profile sim-broken: its sim: section does not start a simulator: .*unknown package "com\.example\.nothere"/);
  });

  it('injects --model-faults into the oracle\'s replies, seeded per task and repeat, and refuses them for a real model', async () => {
    const handle = await createBenchExecutor(options('sim', { modelFaults: 'standard' }));
    try {
      const outDir = path.join(root, 'model-faults');
      const first = await run(handle, clockTask, outDir);
      const again = await run(handle, clockTask, outDir);
      expect(first.error).toBeNull();
      expect(again.modelFaults).toEqual(first.modelFaults);
    } finally {
      await handle.close();
    }
    await expect(createBenchExecutor(options('sim', { modelFaults: 'heavy' }))).rejects.toThrow(/--model-faults heavy: unknown profile; choose from none, standard/);
    await expect(createBenchExecutor(options('sim', { modelFaults: 'standard', policy: 'llm', env: { SENSEACT_BASE_URL: 'http://127.0.0.1:9/v1', SENSEACT_MODEL: 'gpt-4o-mini' } }))).rejects.toThrow(/--model-faults standard: .*--policy oracle/);
  });

  it('gives --gate-threshold to the SenseAct runs: with τ = 1 every dropped tap opens the gate, with the default every second', async () => {
    const device = await profile('sim-dropping', ["faults: { dropped-tap: { rate: 1 } }"]);
    const opened = async (gateThreshold?: number): Promise<number> => {
      const handle = await createBenchExecutor(options(device, gateThreshold === undefined ? {} : { gateThreshold }));
      try {
        const result = await run(handle, airplane, path.join(root, `gate-${gateThreshold ?? 'default'}`));
        expect(result.error).toBeNull();
        expect(result.verification.fail).toBeGreaterThan(1);
        return (result.gateReasons['repeated-failure'] ?? 0) / result.verification.fail;
      } finally {
        await handle.close();
      }
    };
    expect(await opened(1)).toBe(1);
    expect(await opened()).toBeLessThanOrEqual(0.5);
  });

  it('a key in the environment never turns a simulator run into model calls: --policy auto is the oracle, --policy llm calls the model', async () => {
    const server = await startMockOpenAiServer({ reply: () => ({ text: JSON.stringify({ intent: 'Done', finish: true }), usage: { promptTokens: 10, completionTokens: 5 } }) });
    try {
      const env = { OPENAI_API_KEY: 'sk-test-not-a-key', OPENAI_BASE_URL: server.url, SENSEACT_MODEL: 'mock-model' };
      const requests = async (policy: 'auto' | 'llm'): Promise<{ policy: string; notice: string; requests: number }> => {
        const before = server.requests.length;
        const handle = await createBenchExecutor(options('sim', { policy, env }));
        try {
          const outDir = path.join(root, `key-in-env-${policy}`);
          await handle.executor({ task: airplane, mode: 'senseact', repeat: 0, outDir, traceDir: path.join(outDir, 'traces', airplane.id, 'senseact-r0'), signal: new AbortController().signal });
          return { policy: handle.policy, notice: handle.notice, requests: server.requests.length - before };
        } finally {
          await handle.close();
        }
      };
      expect(await requests('auto')).toEqual({ policy: 'oracle', notice: expect.stringMatching(/^policy: oracle, because the device is the simulator: no model is called; --policy llm would call mock-model\.$/), requests: 0 });
      // Negative control: asked for, the same environment reaches the model.
      const asked = await requests('llm');
      expect(asked.policy).toBe('llm');
      expect(asked.requests).toBeGreaterThan(0);
    } finally {
      await server.close();
    }
  });

  it('sends --temperature with every model call of every role, over the environment\'s per-role temperature', async () => {
    const server = await startMockOpenAiServer({ reply: () => ({ text: JSON.stringify({ intent: 'Done', finish: true }), usage: { promptTokens: 10, completionTokens: 5 } }) });
    try {
      const env = { SENSEACT_BASE_URL: server.url, SENSEACT_MODEL: 'mock-model', SENSEACT_PLANNER_TEMPERATURE: '1.5' };
      const temperatures = async (extra: Partial<BenchExecutorOptions>, mode: 'senseact' | 'react-vlm'): Promise<unknown[]> => {
        const before = server.requests.length;
        const handle = await createBenchExecutor(options('sim', { policy: 'llm', env, ...extra }));
        try {
          const outDir = path.join(root, `temperature-${mode}-${extra.temperature ?? 'env'}`);
          await handle.executor({ task: airplane, mode, repeat: 0, outDir, traceDir: path.join(outDir, 'traces', airplane.id, `${mode}-r0`), signal: new AbortController().signal });
        } finally {
          await handle.close();
        }
        return server.requests.slice(before).map((request) => (request.body as { temperature?: number }).temperature);
      };
      const flagged = [...(await temperatures({ temperature: 0.3 }, 'senseact')), ...(await temperatures({ temperature: 0.3 }, 'react-vlm'))];
      expect(flagged.length).toBeGreaterThanOrEqual(2);
      expect(new Set(flagged)).toEqual(new Set([0.3]));
      // Negative control: without the flag the planner's temperature comes from the environment.
      expect(await temperatures({}, 'senseact')).toEqual([1.5]);
    } finally {
      await server.close();
    }
  });

  it('says a temperature the oracle ignores on a line of its own, under the policy line', async () => {
    const handle = await createBenchExecutor(options('sim', { temperature: 0.7 }));
    try {
      expect(handle.notice).toBe('policy: oracle, because --policy oracle was given: reference solutions, no model is called.\n--temperature 0.7 is recorded but changes nothing: the oracle samples nothing.');
    } finally {
      await handle.close();
    }
    // Negative control: without --temperature the notice is the policy line alone.
    const plain = await createBenchExecutor(options('sim'));
    try {
      expect(plain.notice).not.toContain('\n');
    } finally {
      await plain.close();
    }
  });

  it('says which tasks a policy and device cannot run, and passes those they can', () => {
    const labTask = labSuite.tasks.find((task) => task.app.includes('bluecoins'))!;
    const simulated = { policy: 'oracle' as const, simulated: true, apps: undefined, deviceName: 'sim' };
    expect(whyTaskCannotRun(labTask, simulated)).toMatch(/^no reference solution \(solution:\) for the oracle policy/);
    expect(whyTaskCannotRun(labTask, { ...simulated, policy: 'llm' })).toMatch(/has no app /);
    expect(whyTaskCannotRun(airplane, simulated)).toBeUndefined();
    const phone = { policy: 'llm' as const, simulated: false, apps: undefined, deviceName: 'emulator' };
    expect(whyTaskCannotRun(labTask, phone)).toBeUndefined();
    const stateOnly = simSuite.tasks.find((task) => task.success?.state !== undefined && task.success.screen === undefined && task.success.adb === undefined && task.answer === undefined)!;
    expect(whyTaskCannotRun(stateOnly, phone)).toMatch(/reads only the simulator's app state \(success\.state\), which device profile emulator cannot give/);
  });

  it('refuses a state check whose path names nothing in the app state, before any run, with the nearest key; every sim task passes', () => {
    const simulated = { policy: 'oracle' as const, simulated: true, apps: undefined, deviceName: 'sim' };
    expect(simSuite.tasks.map((task) => whyTaskCannotRun(task, simulated)).filter((reason) => reason !== undefined)).toEqual([]);
    const misspelled = { ...airplane, success: { ...airplane.success!, state: airplane.success!.state!.map((check) => ({ ...check, path: 'network.airplaneMod' })) } };
    expect(whyTaskCannotRun(misspelled, simulated)).toBe('success.state[0] (com.android.settings) path network.airplaneMod: network has no key "airplaneMod": did you mean network.airplaneMode? (keys: wifi, wifiNetwork, wifiAutoOn, airplaneMode, mobileData, bluetooth, privateDns)');
  });

  it('labels a replayed cassette with the model it recorded, not the one the environment names', async () => {
    const cassette = path.join(root, 'recorded.jsonl');
    const entry = { v: 1, hash: 'a'.repeat(32), occurrence: 0, role: 'planner', model: 'qwen2.5-7b-instruct', request: { messages: [] }, reply: { text: '{}', usage: { promptTokens: 1, completionTokens: 1 }, latencyMs: 1, model: 'qwen2.5-7b-instruct' } };
    await writeFile(cassette, `${JSON.stringify(entry)}\n`);
    const handle = await createBenchExecutor(options('sim', { policy: 'llm', env: { SENSEACT_CASSETTE: `replay:${cassette}`, SENSEACT_MODEL: 'gpt-4o' } }));
    try {
      expect(handle.policy).toBe('llm');
      expect(handle.modelLabel).toBe('qwen2.5-7b-instruct');
      expect(handle.notice).toContain('recorded with qwen2.5-7b-instruct');
      expect(handle.prices).toMatchObject({ unknown: true, label: expect.stringContaining('no known price for qwen2.5-7b-instruct') });
    } finally {
      await handle.close();
    }
    // Negative control: a live configuration is labelled and priced as configured.
    const live = await createBenchExecutor(options('sim', { policy: 'llm', env: { SENSEACT_BASE_URL: 'http://127.0.0.1:9/v1', SENSEACT_MODEL: 'gpt-4o-mini' } }));
    try {
      expect(live.modelLabel).toBe('gpt-4o-mini');
      expect(live.prices).toMatchObject({ promptPerMillionUsd: 0.15, completionPerMillionUsd: 0.6 });
    } finally {
      await live.close();
    }
  });
});
