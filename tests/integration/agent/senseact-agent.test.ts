// SenseActAgent: an instruction of one's own, without a task file, through the same loop
// the benchmark runs, on the simulator with a scripted planner that reads the view it is
// given (as a model would) and picks units by their labels.
import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SenseActAgent } from '../../../src/agent/senseact-agent.js';
import { SenseActAgentError } from '../../../src/agent/senseact-agent-error.js';
import { SimDevice } from '../../../src/device/sim-device.js';
import { AppMemory } from '../../../src/memory/app-memory.js';
import { estimateTokens } from '../../../src/model/estimate-tokens.js';
import type { LanguageModelRequest } from '../../../src/model/language-model.js';
import { ScriptedLanguageModel } from '../../../src/model/scripted-language-model.js';
import { Simulator } from '../../../src/sim/simulator.js';
import { readTrace } from '../../../src/trace/read-trace.js';

const settings = 'com.android.settings';
const airplaneOn = 'checked(is=switch, near(text="Airplane mode"))';
let root: string;

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'senseact-agent-api-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** The id of the unit the view lists with this label (`[n00a3] toggle "Airplane mode"`), if any. */
function unitId(request: LanguageModelRequest, label: string): string | undefined {
  const prompt = request.messages.map((message) => message.content).join('\n');
  return new RegExp(`\\[(n[0-9a-f]+)\\] [a-z-]+ "${label}"`).exec(prompt)?.[1];
}

/** A planner that opens Network & internet, switches airplane mode on, then says it is done. */
function airplanePlanner(): ScriptedLanguageModel {
  return new ScriptedLanguageModel({
    replies: (request) => {
      if (request.role !== 'planner') return JSON.stringify({ verdict: 'pass', reason: 'scripted' });
      const toggle = unitId(request, 'Airplane mode');
      if (toggle !== undefined && !/"Airplane mode" checked/.test(request.messages.map((message) => message.content).join('\n'))) {
        return JSON.stringify({ intent: 'Switch airplane mode on', expectation: airplaneOn, commitment: [{ unit: toggle, checked: true }] });
      }
      if (toggle !== undefined) return JSON.stringify({ intent: 'Airplane mode is on', finish: true });
      const network = unitId(request, 'Network & internet');
      if (network === undefined) throw new Error('the scripted planner found neither Network & internet nor Airplane mode in the view');
      return JSON.stringify({ intent: 'Open Network & internet', expectation: 'exists(text="Airplane mode")', commitment: [{ unit: network }] });
    },
  });
}

describe('SenseActAgent', () => {
  it('carries out an ad-hoc instruction on the simulator and checks it on the final screen', async () => {
    const simulator = new Simulator({ seed: 3 });
    const planner = airplanePlanner();
    const agent = await SenseActAgent.create({ device: new SimDevice(simulator), models: { planner }, traceRoot: root });
    const result = await agent.run('Turn on airplane mode', { allowedPackages: [settings], launch: settings, stepBudget: 6, check: airplaneOn });
    await agent.close();
    expect(result.error).toBeNull();
    expect(result.outcome, result.reason).toBe('success');
    expect((simulator.appState(settings) as { network: { airplaneMode: boolean } }).network.airplaneMode).toBe(true);
    expect(result.steps).toBe(2);
    expect(result.calls.llm).toBe(planner.calls.length);
    expect(result.calls).toMatchObject({ vlm: 0, images: 0 });
    expect(result.traceDir.startsWith(path.join(root, 'agent'))).toBe(true);
    const trace = readTrace(result.traceDir);
    expect(trace.events.find((event) => event.type === 'task-start')).toMatchObject({ instruction: 'Turn on airplane mode' });
    expect(trace.events.filter((event) => event.type === 'act-end')).toHaveLength(2);
    // The simulator stays open: the device is the caller's.
    expect(simulator.currentPackage()).toBe(settings);
  });

  it('stops a run at its model budget with the reason "budget: …"; the same run without one succeeds', async () => {
    const simulator = new Simulator({ seed: 3 });
    const agent = await SenseActAgent.create({ device: new SimDevice(simulator), models: { planner: airplanePlanner() }, traceRoot: root });
    const capped = await agent.run('Turn on airplane mode', { allowedPackages: [settings], launch: settings, stepBudget: 6, check: airplaneOn, budget: { maxModelCalls: 1 } });
    expect(capped.outcome).toBe('failure');
    expect(capped.reason).toMatch(/^budget: /);
    expect((simulator.appState(settings) as { network: { airplaneMode: boolean } }).network.airplaneMode).toBe(false);
    const free = await agent.run('Turn on airplane mode', { allowedPackages: [settings], launch: settings, stepBudget: 6, check: airplaneOn });
    await agent.close();
    expect(free.outcome, free.reason).toBe('success');
  });

  it('without a check, says only whether the agent finished: its word is no verdict', async () => {
    const agent = await SenseActAgent.create({ device: 'sim', models: { planner: airplanePlanner() }, traceRoot: root, sim: { startPackage: settings } });
    try {
      const finished = await agent.run('Turn on airplane mode', { allowedPackages: [settings], stepBudget: 6 });
      expect(finished.outcome).toBe('finished');
      expect(finished.result.success).toBe(false);
      expect(finished.reason).toContain('no success check');
      // The same agent, the same device: a second instruction starts where the first left off (airplane mode is on).
      const checked = await agent.run('Make sure airplane mode is on', { allowedPackages: [settings], stepBudget: 3, check: airplaneOn });
      expect(checked.outcome, checked.reason).toBe('success');
      expect(checked.steps).toBe(0);
    } finally {
      await agent.close();
    }
  });

  it('fails the check when the agent claims success without doing it, and stops at the step budget', async () => {
    const liar = new ScriptedLanguageModel({ replies: () => JSON.stringify({ intent: 'Airplane mode is on', finish: true }) });
    const agent = await SenseActAgent.create({ device: 'sim', models: { planner: liar }, traceRoot: root, sim: { startPackage: settings } });
    try {
      const claimed = await agent.run('Turn on airplane mode', { allowedPackages: [settings], check: airplaneOn });
      expect(claimed.outcome).toBe('failure');
      expect(claimed.reason).toContain('the planner said FINISH');
    } finally {
      await agent.close();
    }
    const wanderer = new ScriptedLanguageModel({
      replies: (request) => JSON.stringify({ intent: 'Scroll the list', expectation: '', commitment: [{ unit: unitId(request, 'content_parent') ?? 'ndae8', direction: 'down' }] }),
    });
    const stuck = await SenseActAgent.create({ device: 'sim', models: { planner: wanderer }, traceRoot: root, sim: { startPackage: settings } });
    try {
      const stopped = await stuck.run('Turn on airplane mode', { allowedPackages: [settings], stepBudget: 2 });
      expect(stopped.outcome).toBe('stopped');
      expect(stopped.result.agentFinished).toBe(false);
    } finally {
      await stuck.close();
    }
  });

  it('learns an app memory folder from its runs, and spends no certifier call on a map too small to summarise', async () => {
    const memoryDir = path.join(root, 'app-memory');
    const certifier = new ScriptedLanguageModel({ model: 'scripted-certifier', replies: () => '"Network & internet" holds "Airplane mode".' });
    const agent = await SenseActAgent.create({ device: 'sim', models: { planner: airplanePlanner(), certifier }, traceRoot: root, sim: { startPackage: settings }, appMemory: memoryDir });
    try {
      const first = await agent.run('Turn on airplane mode', { allowedPackages: [settings], stepBudget: 6, check: airplaneOn });
      expect(first.outcome, first.reason).toBe('success');
      const learned = (await AppMemory.open(memoryDir, { countTokens: estimateTokens })).get(settings);
      expect(learned?.links).toEqual([expect.objectContaining({ unit: 'Network & internet', type: 'click' })]);
      expect(learned?.notes.map((note) => note.instruction)).toEqual(['Turn on airplane mode']);
      const summaries = readTrace(first.traceDir).events.filter((event) => event.type === 'memory-summary-end');
      // One short run makes a small map: it is given as it is, without a certifier call.
      expect(summaries).toEqual([expect.objectContaining({ app: settings, kept: false })]);
      expect(certifier.calls).toHaveLength(0);
      const second = await agent.run('Make sure airplane mode is on', { allowedPackages: [settings], stepBudget: 3, check: airplaneOn });
      expect(second.outcome, second.reason).toBe('success');
    } finally {
      await agent.close();
    }
  });

  it('refuses bad options before touching the device, naming the option', async () => {
    const simulator = new Simulator({ seed: 1 });
    const agent = await SenseActAgent.create({ device: new SimDevice(simulator), models: { planner: airplanePlanner() }, traceRoot: root });
    const before = simulator.currentPackage();
    const runFolders = (): string[] => (existsSync(path.join(root, 'agent')) ? readdirSync(path.join(root, 'agent')) : []);
    const foldersBefore = runFolders();
    await expect(agent.run('Turn on airplane mode', { allowedPackages: [] })).rejects.toThrow(/allowedPackages is empty/);
    await expect(agent.run('Turn on airplane mode', { allowedPackages: ['settings'] })).rejects.toThrow(/"settings", which is not an Android package name/);
    await expect(agent.run('Turn on airplane mode', { allowedPackages: [settings], check: 'checked(' })).rejects.toSatisfy((error) => SenseActAgentError.isInstance(error) && /check is not a predicate/.test((error as Error).message));
    await expect(agent.run('  ', { allowedPackages: [settings] })).rejects.toThrow(/instruction is empty/);
    expect(simulator.currentPackage()).toBe(before);
    expect(runFolders()).toEqual(foldersBefore);
    await expect(SenseActAgent.create({ device: 'sim', env: {}, traceRoot: root })).rejects.toThrow(/no models given and none configured/);
    await expect(SenseActAgent.create({ device: { url: 'not a url', capabilities: {} }, models: { planner: airplanePlanner() } })).rejects.toThrow(/appium\.url/);
  });
});
