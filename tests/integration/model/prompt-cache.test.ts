// The planner prompt's stable start (system text, allowed apps, task, then the history, which
// only grows) is what a provider's prefix cache serves; played here by the mock server's
// prefix cache through the real OpenAI client, and shown by the bench table and results.json.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTask } from '../../../src/agent/run-task.js';
import type { TaskRunResult } from '../../../src/agent/task-run-result.js';
import { benchResultsSchema } from '../../../src/bench/bench-results.js';
import type { CliIo } from '../../../src/cli/cli-io.js';
import { main } from '../../../src/cli/main.js';
import { computeModeMetrics } from '../../../src/bench/compute-mode-metrics.js';
import { formatResultsTable } from '../../../src/bench/format-results-table.js';
import { simulatorForTask } from '../../../src/bench/simulator-for-task.js';
import { SimDevice } from '../../../src/device/sim-device.js';
import { labelMatchAnswer } from '../../../src/model/mock-label-model.js';
import { startMockOpenAiServer } from '../../../src/model/mock-openai-server.js';
import { modelConfigFromEnv } from '../../../src/model/model-config-from-env.js';
import { OpenAiLanguageModel } from '../../../src/model/openai-language-model.js';
import { loadSuite } from '../../../src/tasks/load-task-file.js';

const repoRoot = path.resolve(import.meta.dirname, '..', '..', '..');
const suite = await loadSuite('sim', { tasksRoot: path.join(repoRoot, 'tasks') });
const task = suite.tasks.find((candidate) => candidate.id === 'settings-airplane-on')!;
const prices = { label: 'test prices $2/$8, cached $0.50', promptPerMillionUsd: 2, completionPerMillionUsd: 8, cachedPromptPerMillionUsd: 0.5 };

let root: string;
beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'senseact-prompt-cache-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

async function run(prefixCache: boolean): Promise<TaskRunResult> {
  const mock = await startMockOpenAiServer({ prefixCache, reply: (request) => JSON.stringify(labelMatchAnswer(request)) });
  try {
    const planner = new OpenAiLanguageModel({ config: modelConfigFromEnv({ SENSEACT_BASE_URL: mock.url, SENSEACT_MODEL: 'm' }), retry: { initialDelayMs: 1, maxDelayMs: 5, budgetMs: 10_000 } });
    const device = new SimDevice(simulatorForTask(task, { seed: 3 }));
    return await runTask({ task, mode: 'senseact', policy: 'llm', device, probe: device, models: { planner }, traceRoot: root, suite: 'prompt-cache' });
  } finally {
    await mock.close();
  }
}

function table(runs: TaskRunResult[]): string {
  return formatResultsTable(
    benchResultsSchema.parse({
      version: 1,
      policy: 'llm',
      oracle: false,
      options: { suite: 'sim', modes: ['senseact'], repeat: 1, concurrency: 1, device: 'sim', faults: null, modelFaults: null, policy: 'llm', modelLabel: 'm', taskIds: [task.id] },
      prices,
      startedAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:10.000Z',
      wallTimeMs: 1000,
      complete: true,
      expectedRuns: runs.length,
      modes: computeModeMetrics(runs, ['senseact'], prices),
      tasks: runs,
    }),
  );
}

describe('prompt caching', () => {
  it("an endpoint's cached prompt tokens are the planner prompt's shared start, shown in the table; none without a cache", async () => {
    const cached = await run(true);
    expect(cached.success, cached.reason).toBe(true);
    expect(cached.llmCalls).toBeGreaterThanOrEqual(2);
    // Every call after the first starts with the same system text, task and history.
    expect(cached.cachedPromptTokens).toBeGreaterThan(0);
    expect(cached.cachedPromptTokens).toBe(cached.sharedPrefixTokens);
    expect(cached.cachedPromptTokens! / cached.promptTokens).toBeGreaterThan(0.3);
    expect(table([cached])).toContain(`cached prompt tokens (inside tok in, at $0.5 per 1M): senseact ${cached.cachedPromptTokens}`);

    const plain = await run(false);
    expect(plain.cachedPromptTokens).toBeUndefined();
    expect(plain.sharedPrefixTokens).toBe(cached.sharedPrefixTokens);
    expect(table([plain])).not.toContain('cached prompt tokens');
  });

  it('a bench on an endpoint with a prefix cache: results.json and the table carry cached tokens, priced at --price-cached-prompt', async () => {
    const mock = await startMockOpenAiServer({ prefixCache: true, reply: (request) => JSON.stringify(labelMatchAnswer(request)) });
    const stdout: string[] = [];
    const io: CliIo = { stdout: (text) => void stdout.push(text), stderr: () => undefined, cwd: root, env: { SENSEACT_BASE_URL: mock.url, SENSEACT_MODEL: 'm' } };
    const argv = ['bench', '--suite', path.join(repoRoot, 'tasks', 'sim'), '--tasks', 'settings-airplane-on,settings-dark-theme', '--mode', 'senseact', '--device', 'sim', '--policy', 'llm'];
    try {
      expect(await main([...argv, '--out', 'cached', '--price-prompt', '2', '--price-completion', '8', '--price-cached-prompt', '0.5'], io)).toBe(0);
    } finally {
      await mock.close();
    }
    const results = benchResultsSchema.parse(JSON.parse(await readFile(path.join(root, 'cached', 'results.json'), 'utf8')));
    const [first, second] = results.tasks;
    // The second run's first call is served the system text and the allowed apps the first run's calls began with.
    expect(second?.cachedPromptTokens).toBeGreaterThan(second!.sharedPrefixTokens ?? 0);
    expect(first?.cachedPromptTokens).toBeGreaterThan(0);
    expect(results.prices.cachedPromptPerMillionUsd).toBe(0.5);
    const cached = results.tasks.reduce((total, run) => total + (run.cachedPromptTokens ?? 0), 0);
    const prompt = results.tasks.reduce((total, run) => total + run.promptTokens, 0);
    const completion = results.tasks.reduce((total, run) => total + run.completionTokens, 0);
    expect(results.modes[0]?.costUsd).toBeCloseTo(((prompt - cached) * 2 + cached * 0.5 + completion * 8) / 1e6, 12);
    expect(results.modes[0]?.cachedPromptTokens).toBe(cached);
    expect(stdout.join('').replace(/\n +/g, ' ')).toContain(`cached prompt tokens (inside tok in, at $0.5 per 1M): senseact ${cached} (${((cached / prompt) * 100).toFixed(1)}%)`);

    // Negative control: the same bench on an endpoint without a cache reports none.
    const plain = await startMockOpenAiServer({ reply: (request) => JSON.stringify(labelMatchAnswer(request)) });
    const plainOut: string[] = [];
    try {
      expect(await main([...argv, '--out', 'plain'], { ...io, stdout: (text) => void plainOut.push(text), env: { SENSEACT_BASE_URL: plain.url, SENSEACT_MODEL: 'm' } })).toBe(0);
    } finally {
      await plain.close();
    }
    const plainResults = benchResultsSchema.parse(JSON.parse(await readFile(path.join(root, 'plain', 'results.json'), 'utf8')));
    expect(plainResults.tasks.map((run) => run.cachedPromptTokens)).toEqual([undefined, undefined]);
    expect(plainResults.modes[0]?.cachedPromptTokens).toBeUndefined();
    expect(plainOut.join('')).not.toContain('cached prompt tokens');
  });
});
