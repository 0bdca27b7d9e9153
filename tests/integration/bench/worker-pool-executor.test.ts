// Runs on the in-process simulator spread over worker threads: the same results as one
// thread, one certificate memory per mode, and a thread that dies costs only its run.
import { readFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TaskRunResult } from '../../../src/agent/task-run-result.js';
import { createBenchExecutor } from '../../../src/bench/compose.js';
import { runBenchmark } from '../../../src/bench/run-benchmark.js';
import type { BenchExecutorOptions } from '../../../src/bench/task-executor.js';
import { createWorkerPoolExecutor, workerThreadsFor, type WorkerPoolHandle } from '../../../src/bench/worker-pool-executor.js';
import { loadSuite } from '../../../src/tasks/load-task-file.js';
import type { Task } from '../../../src/tasks/task-schema.js';
import { readTrace } from '../../../src/trace/read-trace.js';

const repoRoot = path.resolve(import.meta.dirname, '..', '..', '..');
let tasks: Task[];
let root: string;
// One pool for the file: starting a thread from source compiles the TypeScript again.
let pool: WorkerPoolHandle;
const pooled = (): string => path.join(root, 'pooled');

beforeAll(async () => {
  const suite = await loadSuite('sim', { tasksRoot: path.join(repoRoot, 'tasks') });
  // Short and long Settings tasks; senseact runs write certificates.
  tasks = suite.tasks.filter((task) => task.app === 'com.android.settings').slice(0, 8);
  root = await mkdtemp(path.join(tmpdir(), 'senseact-worker-pool-'));
  pool = await createWorkerPoolExecutor(options(pooled(), { concurrency: 2 }), 2);
}, 120_000);
afterAll(async () => {
  await pool?.close();
  await rm(root, { recursive: true, force: true });
});

function options(outDir: string, extra: Partial<BenchExecutorOptions> = {}): BenchExecutorOptions {
  return { suite: 'sim', device: 'sim', faults: 'standard', policy: 'oracle', outDir, cwd: repoRoot, env: {}, signal: new AbortController().signal, ...extra };
}

/** What must not depend on the thread a run ran on. */
const outcome = (result: TaskRunResult): unknown => ({ id: result.id, mode: result.mode, success: result.success, reason: result.reason, steps: result.steps, verification: result.verification, faults: result.faults, llmCalls: result.llmCalls, vlmCalls: result.vlmCalls, imageBytes: result.imageBytes, error: result.error });

async function certificates(outDir: string): Promise<string[]> {
  const text = await readFile(path.join(outDir, 'memory', 'senseact.jsonl'), 'utf8');
  return text.split('\n').filter(Boolean).map((line) => (JSON.parse(line) as { id: string }).id).sort();
}

describe('the worker pool executor', () => {
  it('gives the results of one thread, and one memory per mode with every certificate once', async () => {
    const single = path.join(root, 'single');
    const inProcess = await createBenchExecutor(options(single));
    const one = await runBenchmark({ tasks, modes: ['senseact', 'react-vlm'], repeat: 1, concurrency: 1, outDir: single, resume: false, executor: inProcess.executor, policy: inProcess.policy, suite: 'sim' });
    await inProcess.close();

    expect(pool.notice.split('\n')[1]).toMatch(/^runs on 2 worker threads, as asked/);
    expect(pool.threads).toHaveLength(2);
    const two = await runBenchmark({ tasks, modes: ['senseact', 'react-vlm'], repeat: 1, concurrency: 2, outDir: pooled(), resume: false, executor: pool.executor, policy: pool.policy, suite: 'sim' });

    expect(two.complete).toBe(true);
    expect(two.tasks.map(outcome)).toEqual(one.tasks.map(outcome));
    // Certificates come from the threads but are written here, each once.
    const written = await certificates(pooled());
    expect(written.length).toBeGreaterThan(tasks.length);
    expect(written).toEqual(await certificates(single));
    // Traces are complete: the report's reader finds every run's end.
    for (const result of two.tasks) expect(readTrace(path.join(pooled(), result.traceDir)).events.map((event) => event.type)).toContain('run-end');
  }, 240_000);

  it('a thread that dies costs its run (an infrastructure error) and is replaced for the rest', async () => {
    // The pool's threads write where their options say (pooled()): this bench keeps its results apart.
    const outDir = path.join(root, 'dying');
    let killed = false;
    const results = await runBenchmark({
      tasks: tasks.slice(0, 6), modes: ['react-vlm'], repeat: 1, concurrency: 2, outDir, resume: false, policy: pool.policy, suite: 'sim',
      executor: async (request) => {
        const running = pool.executor(request);
        if (!killed && request.task.id === tasks[3]?.id) {
          killed = true;
          // The run was handed to a thread just now: stop that thread under it.
          await new Promise((resolve) => setImmediate(resolve));
          await pool.threads.find((thread) => thread.busyWith === request.task.id)?.terminate();
        }
        return await running;
      },
    });
    expect(killed).toBe(true);
    expect(results.complete).toBe(true);
    expect(results.tasks.filter((result) => result.error !== null).map((result) => [result.id, result.error])).toEqual([[tasks[3]?.id, expect.stringMatching(/bench worker thread \d exited .* during the run/)]]);
    expect(results.tasks.filter((result) => result.error === null)).toHaveLength(5);
    expect(pool.threads).toHaveLength(2);
  }, 240_000);

  it('is used only when asked, and only where it can run: the in-process simulator at concurrency > 1', () => {
    const base = options(root);
    // Not asked: the main thread (measured faster on 2 cores, docs/grid.md).
    expect(workerThreadsFor({ ...base, concurrency: 2 })).toBe(1);
    expect(workerThreadsFor({ ...base, concurrency: 2, env: { SENSEACT_WORKERS: '' } })).toBe(1);
    expect(workerThreadsFor({ ...base, concurrency: 2, workers: 2 })).toBe(2);
    expect(workerThreadsFor({ ...base, concurrency: 8, env: { SENSEACT_WORKERS: '3' } })).toBe(3);
    expect(workerThreadsFor({ ...base, concurrency: 1, workers: 2 })).toBe(1);
    expect(workerThreadsFor({ ...base, concurrency: 2, env: { SENSEACT_WORKERS: '0' } })).toBe(1);
    expect(workerThreadsFor({ ...base, concurrency: 2, workers: 2, device: 'sim-appium' })).toBe(1);
    expect(workerThreadsFor({ ...base, concurrency: 2, workers: 2, env: { SENSEACT_CASSETTE: `record:${path.join(root, 'c.jsonl')}` } })).toBe(1);
    expect(workerThreadsFor({ ...base, concurrency: 2, workers: 2, env: { SENSEACT_CASSETTE: `replay:${path.join(root, 'c.jsonl')}` } })).toBe(1);
    expect(() => workerThreadsFor({ ...base, concurrency: 2, env: { SENSEACT_WORKERS: 'many' } })).toThrow(/SENSEACT_WORKERS=many: expected a whole number/);
    // --workers wins over the environment, and is capped by the concurrency.
    expect(workerThreadsFor({ ...base, concurrency: 8, workers: 3, env: { SENSEACT_WORKERS: '0' } })).toBe(3);
    expect(workerThreadsFor({ ...base, concurrency: 2, workers: 6 })).toBe(2);
    expect(workerThreadsFor({ ...base, concurrency: 4, workers: 0 })).toBe(1);
    expect(workerThreadsFor({ ...base, concurrency: 4, workers: 1 })).toBe(1);
  });
});
