import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { appendFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BenchError } from '../../../src/bench/bench-error.js';
import { benchResultsSchema } from '../../../src/bench/bench-results.js';
import { FakeTaskExecutor } from '../../../src/bench/fake-task-executor.js';
import { readResultsJournal } from '../../../src/bench/results-journal.js';
import { runBenchmark, safePathSegment, type BenchProgress } from '../../../src/bench/run-benchmark.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const tasks = [
  { id: 'alarm-set', app: 'clock' },
  { id: 'wifi-off', app: 'settings' },
  { id: 'note-new', app: 'notes' },
];

async function readResults(outDir: string) {
  return benchResultsSchema.parse(JSON.parse(await readFile(path.join(outDir, 'results.json'), 'utf8')));
}

describe('runBenchmark with a fake executor', () => {
  let outDir: string;
  beforeEach(async () => {
    outDir = path.join(await mkdtemp(path.join(tmpdir(), 'senseact-bench-')), 'out');
  });
  afterEach(async () => {
    await rm(path.dirname(outDir), { recursive: true, force: true });
  });

  it('runs every (task, mode, repeat) once, within the concurrency bound, and writes results.json', async () => {
    // The first three runs wait until three are in flight: the pool must really run 3 at once.
    let releaseFirstThree: () => void = () => undefined;
    const firstThree = new Promise<void>((resolve) => { releaseFirstThree = resolve; });
    const fake: FakeTaskExecutor = new FakeTaskExecutor((request) => {
      if (fake.calls.length === 3) releaseFirstThree();
      return {
        kind: 'result',
        result: { imagesUploaded: request.mode === 'react-vlm' ? 4 : 1, success: request.task.id !== 'note-new' },
        ...(fake.calls.length <= 3 ? { after: firstThree } : {}),
      };
    });
    const progress: BenchProgress[] = [];
    const results = await runBenchmark({ tasks, modes: ['senseact', 'react-vlm'], repeat: 2, concurrency: 3, outDir, resume: false, executor: fake.executor, policy: 'oracle', suite: 'sim/test', onProgress: (event) => progress.push(event) });

    const keys = fake.calls.map((call) => `${call.task.id}/${call.mode}/${call.repeat}`).sort();
    expect(keys).toHaveLength(12);
    expect(new Set(keys).size).toBe(12);
    expect(fake.maxInFlight).toBe(3);
    expect(results.complete).toBe(true);
    expect(results.oracle).toBe(true);
    expect(results.tasks).toHaveLength(12);
    const senseact = results.modes.find((metrics) => metrics.mode === 'senseact');
    expect(senseact?.successes).toBe(4);
    expect(senseact?.vlmReduction?.aggregate).toBeCloseTo(0.75, 10);
    // results.json on disk is the same, valid document.
    expect(await readResults(outDir)).toEqual(results);
    expect((await readResultsJournal(path.join(outDir, 'results.jsonl'))).results).toHaveLength(12);
    // Trace dirs: one per run under traces/, recorded relative to the out dir.
    expect(fake.calls.find((call) => call.task.id === 'wifi-off' && call.mode === 'react-vlm' && call.repeat === 1)?.traceDir).toBe(path.join(outDir, 'traces', 'wifi-off', 'react-vlm-r1'));
    expect(results.tasks[0]?.traceDir).toBe('traces/alarm-set/senseact-r0');
    expect(progress[0]).toMatchObject({ total: 12, done: 0, running: 0 });
    expect(progress.at(-1)).toMatchObject({ total: 12, done: 12, successes: 8 });
  });

  it('records an executor that throws as an infrastructure error and goes on', async () => {
    const fake = new FakeTaskExecutor((request) => (request.task.id === 'wifi-off' ? { kind: 'throw', error: new Error('adb: device offline') } : { kind: 'result', result: {} }));
    const results = await runBenchmark({ tasks, modes: ['senseact'], repeat: 1, concurrency: 1, outDir, resume: false, executor: fake.executor, policy: 'oracle', suite: 'sim/test' });
    expect(fake.calls).toHaveLength(3);
    const failed = results.tasks.find((task) => task.id === 'wifi-off');
    expect(failed?.success).toBe(false);
    expect(failed?.error).toBe('executor threw: Error: adb: device offline');
    expect(failed?.app).toBe('settings');
    expect(results.modes[0]?.errors).toBe(1);
    expect(results.modes[0]?.successes).toBe(2);
  });

  it('turns a result that breaks the schema or answers another run into an error', async () => {
    const fake = new FakeTaskExecutor((request) =>
      request.task.id === 'alarm-set' ? { kind: 'result', result: { steps: -1 } }
        : request.task.id === 'wifi-off' ? { kind: 'result', result: { mode: 'react-text' } }
          : { kind: 'result', result: { policy: 'llm' } });
    const results = await runBenchmark({ tasks, modes: ['senseact'], repeat: 1, concurrency: 2, outDir, resume: false, executor: fake.executor, policy: 'oracle', suite: 'sim/test' });
    expect(results.tasks.map((task) => task.error)).toEqual([
      expect.stringMatching(/^executor returned an invalid result \(steps: /),
      'executor returned a result for another run (mode react-text ≠ senseact)',
      'executor returned a result for another run (policy llm ≠ oracle)',
    ]);
  });

  it('keeps the trace folder the executor reports, relative to the out dir', async () => {
    const fake = new FakeTaskExecutor((request) => ({ kind: 'result', result: { traceDir: request.task.id === 'alarm-set' ? `${request.traceDir}-1` : 'elsewhere/trace' } }));
    const results = await runBenchmark({ tasks: tasks.slice(0, 2), modes: ['senseact'], repeat: 1, concurrency: 1, outDir, resume: false, executor: fake.executor, policy: 'oracle', suite: 'sim/test' });
    expect(results.tasks.map((task) => task.traceDir)).toEqual(['traces/alarm-set/senseact-r0-1', 'elsewhere/trace']);
  });

  it('refuses a non-empty out dir without resume, naming --resume and --out', async () => {
    const fake = new FakeTaskExecutor();
    await runBenchmark({ tasks, modes: ['senseact'], repeat: 1, concurrency: 1, outDir, resume: false, executor: fake.executor, policy: 'oracle', suite: 'sim/test' });
    const again = runBenchmark({ tasks, modes: ['senseact'], repeat: 1, concurrency: 1, outDir, resume: false, executor: fake.executor, policy: 'oracle', suite: 'sim/test' });
    await expect(again).rejects.toThrow(/is not empty .*pass --resume .*or choose another --out/);
    await expect(again).rejects.toSatisfy((error) => BenchError.isInstance(error));
    expect(fake.calls).toHaveLength(3);
  });

  it('refuses to resume a run under other conditions, naming each difference, unless forced; or a dir that is not a bench dir', async () => {
    const fake = new FakeTaskExecutor((request) => ({ kind: 'result', result: { success: request.task.id !== 'wifi-off' } }));
    const base = { tasks, modes: ['senseact' as const], repeat: 1, concurrency: 1, outDir, executor: fake.executor, policy: 'oracle' as const, suite: 'sim/test', device: 'sim', faults: null, modelLabel: 'none (oracle)' };
    await runBenchmark({ ...base, resume: false });
    const resume = { ...base, resume: true };
    await expect(runBenchmark({ ...resume, policy: 'llm' })).rejects.toThrow(/other conditions:\n {2}- --policy: the run used oracle, this one llm\n.*--force/);
    await expect(runBenchmark({ ...resume, suite: 'sim/other' })).rejects.toThrow(/--suite: the run used sim\/test, this one sim\/other/);
    await expect(runBenchmark({ ...resume, modes: ['senseact', 'react-vlm'] })).rejects.toThrow(/--mode: the run used senseact, this one senseact,react-vlm/);
    await expect(runBenchmark({ ...resume, device: 'sim-appium' })).rejects.toThrow(/--device: the run used sim, this one sim-appium/);
    await expect(runBenchmark({ ...resume, faults: 'standard' })).rejects.toThrow(/--faults: the run used \(none\), this one standard/);
    await expect(runBenchmark({ ...resume, modelLabel: 'gpt-4o' })).rejects.toThrow(/model: the run used none \(oracle\), this one gpt-4o/);
    const twoAtOnce = runBenchmark({ ...resume, device: 'emulator', faults: 'standard' });
    await expect(twoAtOnce).rejects.toThrow(/--device: .*\n {2}- --faults: /);
    expect(fake.calls).toHaveLength(3);
    // The same conditions resume (the errored-free run has nothing left to do); --force mixes them, and each run keeps its own.
    expect((await runBenchmark(resume)).tasks).toHaveLength(3);
    expect(fake.calls).toHaveLength(3);
    const forced = await runBenchmark({ ...resume, faults: 'standard', force: true, tasks: [...tasks, { id: 'extra', app: 'clock' }] });
    expect(forced.options.faults).toBe('standard');
    expect(forced.tasks.map((task) => [task.id, task.conditions?.faults])).toEqual([['alarm-set', null], ['wifi-off', null], ['note-new', null], ['extra', 'standard']]);
    expect(forced.tasks[0]?.conditions).toMatchObject({ suite: 'sim/test', device: 'sim', policy: 'oracle', model: 'none (oracle)' });
    const foreign = path.join(path.dirname(outDir), 'foreign');
    await rm(foreign, { recursive: true, force: true });
    await import('node:fs/promises').then((fs) => fs.mkdir(foreign)).then(() => writeFile(path.join(foreign, 'notes.txt'), 'x'));
    await expect(runBenchmark({ tasks, modes: ['senseact'], repeat: 1, concurrency: 1, outDir: foreign, resume: true, executor: fake.executor, policy: 'oracle', suite: 'sim/test' }))
      .rejects.toThrow(/not a bench output dir/);
  });

  it('refuses an out dir locked by a live benchmark, takes over a stale lock, and releases it at the end', async () => {
    const fake = new FakeTaskExecutor();
    const base = { tasks, modes: ['senseact' as const], repeat: 1, concurrency: 1, outDir, resume: true, executor: fake.executor, policy: 'oracle' as const, suite: 'sim/test' };
    await import('node:fs/promises').then((fs) => fs.mkdir(outDir, { recursive: true }));
    await writeFile(path.join(outDir, 'bench.lock'), `${process.pid}\n`);
    await expect(runBenchmark(base)).rejects.toThrow(new RegExp(`another benchmark \\(pid ${process.pid}\\) is writing to .*choose another --out`));
    expect(fake.calls).toHaveLength(0);
    // A pid above any pid_max: its process is certainly gone, as after a SIGKILL.
    await writeFile(path.join(outDir, 'bench.lock'), '99999999\n');
    const results = await runBenchmark(base);
    expect(results.complete).toBe(true);
    expect(existsSync(path.join(outDir, 'bench.lock'))).toBe(false);
  });

  it('rejects bad options with the option named', async () => {
    const fake = new FakeTaskExecutor();
    const base = { tasks, modes: ['senseact' as const], repeat: 1, concurrency: 1, outDir, resume: false, executor: fake.executor, policy: 'oracle' as const, suite: 'sim/test' };
    await expect(runBenchmark({ ...base, concurrency: 0 })).rejects.toThrow(/^concurrency: must be an integer ≥ 1, got 0/);
    await expect(runBenchmark({ ...base, repeat: 1.5 })).rejects.toThrow(/^repeat: /);
    await expect(runBenchmark({ ...base, modes: [] })).rejects.toThrow(/^modes: at least one mode/);
    await expect(runBenchmark({ ...base, tasks: [tasks[0] ?? { id: 'x', app: 'y' }, tasks[0] ?? { id: 'x', app: 'y' }] })).rejects.toThrow(/task id alarm-set appears twice/);
    expect(fake.calls).toHaveLength(0);
  });

  it('on abort stops starting runs, writes results as incomplete, and resume finishes only the rest', async () => {
    const controller = new AbortController();
    const first = new FakeTaskExecutor((request) => {
      if (request.task.id === 'note-new') {
        controller.abort();
        return { kind: 'hang' };
      }
      return { kind: 'result', result: {} };
    });
    const partial = await runBenchmark({ tasks, modes: ['senseact', 'react-text'], repeat: 1, concurrency: 1, outDir, resume: false, executor: first.executor, policy: 'oracle', suite: 'sim/test', signal: controller.signal });
    expect(partial.complete).toBe(false);
    expect(partial.tasks.map((task) => `${task.id}/${task.mode}`)).toEqual(['alarm-set/senseact', 'alarm-set/react-text', 'wifi-off/senseact', 'wifi-off/react-text']);
    expect((await readResults(outDir)).complete).toBe(false);

    const second = new FakeTaskExecutor();
    const finished = await runBenchmark({ tasks, modes: ['senseact', 'react-text'], repeat: 1, concurrency: 2, outDir, resume: true, executor: second.executor, policy: 'oracle', suite: 'sim/test' });
    expect(second.calls.map((call) => `${call.task.id}/${call.mode}`).sort()).toEqual(['note-new/react-text', 'note-new/senseact']);
    expect(finished.complete).toBe(true);
    expect(finished.tasks).toHaveLength(6);
    expect(finished.startedAt).toBe(partial.startedAt);
    expect(finished.wallTimeMs).toBeGreaterThanOrEqual(partial.wallTimeMs);
  });

  it('runs errored runs again on resume, and the new result replaces the old', async () => {
    const flaky = new FakeTaskExecutor((request) => (request.task.id === 'wifi-off' ? { kind: 'throw', error: new Error('session lost') } : { kind: 'result', result: {} }));
    await runBenchmark({ tasks, modes: ['senseact'], repeat: 1, concurrency: 1, outDir, resume: false, executor: flaky.executor, policy: 'oracle', suite: 'sim/test' });
    const healthy = new FakeTaskExecutor();
    const results = await runBenchmark({ tasks, modes: ['senseact'], repeat: 1, concurrency: 1, outDir, resume: true, executor: healthy.executor, policy: 'oracle', suite: 'sim/test' });
    expect(healthy.calls.map((call) => call.task.id)).toEqual(['wifi-off']);
    expect(results.tasks.map((task) => task.error)).toEqual([null, null, null]);
    expect(results.modes[0]?.successes).toBe(3);
  });

  it('survives a SIGKILL mid-run and a torn journal line: --resume redoes nothing that finished', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'tests/integration/bench/killable-bench-process.ts'), outDir], { cwd: repoRoot, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
    const exited = new Promise<NodeJS.Signals | number | null>((resolve) => child.on('exit', (code, signal) => resolve(signal ?? code)));
    const journalFile = path.join(outDir, 'results.jsonl');
    // t3 hangs, so the child stops after journalling t0..t2; poll until it has.
    for (let attempt = 0; ; attempt++) {
      const contents = await readResultsJournal(journalFile);
      if (contents.results.length === 3) break;
      if (attempt > 400 || child.exitCode !== null) throw new Error(`child never journalled 3 runs (exit ${String(child.exitCode)}): ${stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    const beforeResume = await readResults(outDir);
    expect(beforeResume.complete).toBe(false);
    // As if the kill had landed in the middle of an append.
    await appendFile(journalFile, '{"id":"t3","app":"clo');

    const fake = new FakeTaskExecutor(() => ({ kind: 'result', result: { imagesUploaded: 2 } }));
    const results = await runBenchmark({
      tasks: ['t0', 't1', 't2', 't3', 't4', 't5'].map((id) => ({ id, app: 'clock' })),
      modes: ['react-vlm'], repeat: 1, concurrency: 2, outDir, resume: true, executor: fake.executor, policy: 'oracle', suite: 'sim/kill-test',
    });
    expect(fake.calls.map((call) => call.task.id).sort()).toEqual(['t3', 't4', 't5']);
    expect(results.complete).toBe(true);
    expect(results.tasks.map((task) => task.id)).toEqual(['t0', 't1', 't2', 't3', 't4', 't5']);
    const journal = await readResultsJournal(journalFile);
    expect(journal.skippedLines).toBe(0);
    expect(journal.results).toHaveLength(6);
  });
});

describe('safePathSegment', () => {
  it('keeps safe ids and makes unsafe ones safe and distinct', () => {
    expect(safePathSegment('alarm-set_1.2')).toBe('alarm-set_1.2');
    const slash = safePathSegment('app/task');
    const colon = safePathSegment('app:task');
    expect(slash).toMatch(/^app_task-[0-9a-f]{8}$/);
    expect(colon).not.toBe(slash);
    expect(safePathSegment('..')).not.toContain('..');
  });
});
