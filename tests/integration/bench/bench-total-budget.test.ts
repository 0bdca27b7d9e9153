// A bench's total budget (--max-total-model-calls, --max-total-tokens): no new run starts
// once the finished runs reach it, results.json says which limit, and a resume with a
// higher limit finishes the rest. Negative control: a limit the runs stay under changes nothing.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeTaskExecutor } from '../../../src/bench/fake-task-executor.js';
import { runBenchmark } from '../../../src/bench/run-benchmark.js';

const tasks = [
  { id: 'alarm-set', app: 'clock' },
  { id: 'wifi-off', app: 'settings' },
  { id: 'note-new', app: 'notes' },
  { id: 'dark-on', app: 'settings' },
];

describe('the total budget of a bench', () => {
  let outDir: string;
  beforeEach(async () => {
    outDir = path.join(await mkdtemp(path.join(tmpdir(), 'senseact-total-budget-')), 'out');
  });
  afterEach(async () => {
    await rm(path.dirname(outDir), { recursive: true, force: true });
  });

  // Every run makes 3 model calls of 100 + 20 tokens.
  const executor = (): FakeTaskExecutor => new FakeTaskExecutor(() => ({ kind: 'result', result: { llmCalls: 3, promptTokens: 100, completionTokens: 20 } }));
  const bench = (fake: FakeTaskExecutor, totalBudget: { maxModelCalls?: number; maxTokens?: number } | undefined, resume = false) =>
    runBenchmark({ tasks, modes: ['senseact'], repeat: 1, concurrency: 1, outDir, resume, executor: fake.executor, policy: 'oracle', suite: 'sim/test', ...(totalBudget === undefined ? {} : { totalBudget }) });

  it('stops starting runs once the finished runs made the calls allowed; a resume with a higher limit finishes', async () => {
    const fake = executor();
    const results = await bench(fake, { maxModelCalls: 5 });
    expect(fake.calls).toHaveLength(2);
    expect(results.complete).toBe(false);
    expect(results.totalBudget).toEqual({ reached: '6 model calls reached the limit of 5 (--max-total-model-calls)' });
    const resumed = await bench(executor(), { maxModelCalls: 100 }, true);
    expect([resumed.complete, resumed.tasks.length, resumed.totalBudget]).toEqual([true, 4, undefined]);
  });

  it('counts tokens likewise', async () => {
    const fake = executor();
    const results = await bench(fake, { maxTokens: 300 });
    expect(fake.calls).toHaveLength(3);
    expect(results.totalBudget?.reached).toBe('360 tokens reached the limit of 300 (--max-total-tokens)');
  });

  it('negative control: a limit the runs stay under, or none, runs everything', async () => {
    const fake = executor();
    const results = await bench(fake, { maxModelCalls: 13 });
    expect([fake.calls.length, results.complete, results.totalBudget]).toEqual([4, true, undefined]);
  });
});
