// App memory through the whole loop: the oracle's verified run teaches the map and a
// task-family note; a scripted planner that follows hints then needs fewer steps than
// without them, and one that ignores hints needs as many either way (negative control).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTask } from '../../../src/agent/run-task.js';
import { simulatorForTask } from '../../../src/bench/simulator-for-task.js';
import { SimDevice } from '../../../src/device/sim-device.js';
import { AppMemory } from '../../../src/memory/app-memory.js';
import { estimateTokens } from '../../../src/model/estimate-tokens.js';
import type { LanguageModelRequest } from '../../../src/model/language-model.js';
import { ScriptedLanguageModel } from '../../../src/model/scripted-language-model.js';
import { loadSuite } from '../../../src/tasks/load-task-file.js';
import type { Task } from '../../../src/tasks/task-schema.js';
import { readTrace } from '../../../src/trace/read-trace.js';

const repoRoot = path.resolve(import.meta.dirname, '..', '..', '..');
const suite = await loadSuite('sim', { tasksRoot: path.join(repoRoot, 'tasks') });
const darkTheme = { ...(suite.tasks.find((candidate) => candidate.id === 'settings-dark-theme') as Task), stepBudget: 30 };
let root: string;

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'senseact-app-memory-loop-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/**
 * A scripted explorer for "Turn my phone to Dark theme": switches the Dark theme toggle on
 * when it sees it; else, when `followHints` and a hint names a control on this screen,
 * taps it; else goes back from a sub-page, or taps the next main-page entry it has not
 * tried (in view order).
 */
function explorer(followHints: boolean): ScriptedLanguageModel {
  const tried = new Set<string>();
  return new ScriptedLanguageModel({
    replies: (request: LanguageModelRequest) => {
      const prompt = request.messages.at(-1)?.content ?? '';
      const screen = prompt.slice(prompt.indexOf('<screen>'));
      const toggle = /\[(n[0-9a-f]+)\] toggle "Dark theme[^"]*"( checked)?/.exec(screen);
      if (toggle && toggle[2] === undefined) return JSON.stringify({ intent: 'Switch Dark theme on', expectation: 'checked(is=switch, near(text~"Dark theme"))', commitment: [{ unit: toggle[1], checked: true }] });
      if (toggle) return JSON.stringify({ intent: 'Done', finish: true });
      const units = [...screen.matchAll(/\[(n[0-9a-f]+)\] click "([^"]+)"/g)].map((match) => ({ id: match[1]!, label: match[2]! }));
      if (followHints) {
        const hinted = [...prompt.slice(0, prompt.indexOf('<screen>')).matchAll(/tap "([^"]+)"/g)].map((match) => match[1]);
        const unit = units.find((candidate) => hinted.includes(candidate.label));
        if (unit) return JSON.stringify({ intent: `Open ${unit.label}`, commitment: [{ unit: unit.id }] });
      }
      if (units.some((unit) => unit.label === 'Navigate up')) return JSON.stringify({ intent: 'Go back', commitment: [{ unit: 'nav-back' }] });
      const next = units.find((unit) => !tried.has(unit.label) && unit.label !== 'Search settings');
      if (next) tried.add(next.label);
      return next ? JSON.stringify({ intent: `Open ${next.label}`, commitment: [{ unit: next.id }] }) : JSON.stringify({ intent: 'Give up', finish: true });
    },
  });
}

async function run(planner: ScriptedLanguageModel | undefined, appMemory?: AppMemory, certifier?: ScriptedLanguageModel, task: Task = darkTheme) {
  const device = new SimDevice(simulatorForTask(task, { seed: 7 }));
  const models = planner ? { planner, ...(certifier ? { certifier } : {}) } : certifier ? { planner: certifier, certifier } : undefined;
  const result = await runTask({ task, mode: 'senseact', policy: planner ? 'llm' : 'oracle', device, probe: device, ...(models ? { models } : {}), traceRoot: root, suite: 'app-memory', ...(appMemory ? { appMemory } : {}) });
  return { result, events: (await readTrace(result.traceDir)).events };
}

describe('app memory in the loop', () => {
  it('learns from the oracle\'s verified run; a planner that follows hints then needs fewer steps, one that ignores them as many', async () => {
    const memory = await AppMemory.open(path.join(root, 'memory'), { countTokens: estimateTokens });
    const taught = await run(undefined, memory);
    expect(taught.result.success).toBe(true);
    expect(memory.get('com.android.settings')?.notes.map((note) => note.task)).toEqual(['settings-dark-theme']);

    const blind = await run(explorer(true));
    const guided = await run(explorer(true), memory);
    expect(blind.result.success).toBe(true);
    expect(guided.result.success).toBe(true);
    expect(guided.result.steps).toBeLessThan(blind.result.steps);
    expect(guided.result.planning?.memoryHints).toBeGreaterThan(0);
    expect(guided.result.planning?.memoryTokens).toBeGreaterThan(0);
    expect(guided.result.promptTokensBySection['memory']).toBeGreaterThan(0);
    expect(guided.events.some((event) => event.type === 'memory-hints-end')).toBe(true);

    // Negative control: the same explorer, deaf to hints, gains nothing from the memory.
    const deaf = await run(explorer(false), memory);
    expect(deaf.result.steps).toBe(blind.result.steps);
    // Without a memory nothing is injected or counted.
    expect(blind.result.planning).toBeUndefined();
    expect(blind.result.promptTokensBySection['memory']).toBeUndefined();
  });

  it('has a given certifier compress the map a run taught; the call is traced and counted in the run', async () => {
    const memory = await AppMemory.open(path.join(root, 'memory-summarised'), { countTokens: estimateTokens });
    const settings = suite.tasks.filter((candidate) => candidate.app === 'com.android.settings' && candidate.solution !== undefined).slice(0, 4);
    for (const task of settings.slice(0, 3)) await run(undefined, memory, undefined, task);
    const certifier = new ScriptedLanguageModel({ model: 'scripted-certifier', replies: () => 'Most settings open from "Settings"; "Display" holds "Dark theme".' });
    const last = await run(undefined, memory, certifier, darkTheme);
    const summaries = last.events.filter((event) => event.type === 'memory-summary-end');
    expect(summaries).toEqual([expect.objectContaining({ app: 'com.android.settings', kept: true })]);
    expect(certifier.calls.map((call) => call.request.role)).toEqual(['certifier']);
    expect(memory.get('com.android.settings')?.summary?.model).toBe('scripted-certifier');
    // Without a certifier the map stays as learned and nothing is called: one call fewer for the same oracle run.
    const plain = await run(undefined, memory, undefined, darkTheme);
    expect(last.result.llmCalls).toBe(plain.result.llmCalls + 1);
    expect(plain.events.some((event) => event.type === 'memory-summary-end')).toBe(false);
    expect(memory.get('com.android.settings')?.summary).toBeUndefined();
  });
});
