// Measures what worker threads buy on this machine: the main job's suite on the
// in-process simulator at --concurrency 1 (one thread), at --concurrency N on the main
// thread only (SENSEACT_WORKERS=0), and at --concurrency N on N worker threads, in
// alternating rounds so that load from elsewhere hits all three alike. Prints wall time
// and CPU time per configuration and round, the speedup of each round (ratio within the
// round), and checks that every configuration gives the same results.
//
//   npm run build && npx tsx scripts/bench-parallel.ts [--concurrency 2] [--rounds 3] [--tasks 96]
//                                     [--modes senseact,react-vlm,open-loop] [--faults standard] [--from dist|src]
//
// By default the compiled dist/ runs (what `npx senseact` runs): from src/ every worker
// thread compiles the TypeScript again when it starts. A warm-up run (not counted) comes
// first, and the order of the configurations turns every round.
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { existsSync } from 'node:fs';
import { agentModeSchema, type TaskRunResult } from '../src/agent/task-run-result.js';
import type * as RunBenchmarkModule from '../src/bench/run-benchmark.js';
import type * as WorkerPoolModule from '../src/bench/worker-pool-executor.js';
import { loadSuite } from '../src/tasks/load-task-file.js';

const { values } = parseArgs({
  options: {
    concurrency: { type: 'string', default: '2' },
    rounds: { type: 'string', default: '3' },
    tasks: { type: 'string' },
    modes: { type: 'string', default: 'senseact,react-vlm,open-loop' },
    faults: { type: 'string', default: 'standard' },
    from: { type: 'string', default: 'dist' },
  },
});
const repoRoot = path.resolve(import.meta.dirname, '..');
if (values.from === 'dist' && !existsSync(path.join(repoRoot, 'dist', 'bench', 'bench-worker.js'))) throw new Error('dist/ is missing or old: run `npm run build` first (or pass --from src)');
const code = values.from === 'dist' ? '../dist' : '../src';
const extension = values.from === 'dist' ? 'js' : 'ts';
const { runBenchmark } = (await import(`${code}/bench/run-benchmark.${extension}`)) as typeof RunBenchmarkModule;
const { createParallelBenchExecutor } = (await import(`${code}/bench/worker-pool-executor.${extension}`)) as typeof WorkerPoolModule;
const concurrency = Number(values.concurrency);
const rounds = Number(values.rounds ?? '3');
const modes = values.modes.split(',').map((mode) => agentModeSchema.parse(mode));
const suite = await loadSuite('sim', { tasksRoot: path.join(repoRoot, 'tasks') });
const tasks = values.tasks === undefined ? suite.tasks : suite.tasks.slice(0, Number(values.tasks));
const scratch = await mkdtemp(path.join(tmpdir(), 'senseact-bench-parallel-'));

interface Configuration {
  readonly name: string;
  readonly concurrency: number;
  readonly workers: string;
}
const configurations: Configuration[] = [
  { name: 'c1 main thread', concurrency: 1, workers: '0' },
  { name: `c${concurrency} worker threads`, concurrency, workers: String(concurrency) },
  { name: `c${concurrency} main thread`, concurrency, workers: '0' },
];

async function measure(configuration: Configuration, round: number, only = tasks): Promise<{ wallMs: number; cpuMs: number; results: readonly TaskRunResult[] }> {
  const outDir = path.join(scratch, `${round}-${configuration.name.replace(/\s+/g, '-')}`);
  const controller = new AbortController();
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const handle = await createParallelBenchExecutor({
    suite: 'sim', device: 'sim', faults: values.faults === 'none' ? undefined : values.faults, policy: 'oracle', outDir, cwd: repoRoot,
    env: { ...process.env, SENSEACT_WORKERS: configuration.workers, SENSEACT_API_KEY: '', OPENAI_API_KEY: '' },
    signal: controller.signal, concurrency: configuration.concurrency,
  });
  let results;
  try {
    results = await runBenchmark({ tasks: only, modes, repeat: 1, concurrency: configuration.concurrency, outDir, resume: false, executor: handle.executor, policy: handle.policy, suite: 'sim', device: 'sim', faults: values.faults });
  } finally {
    await handle.close();
  }
  const wallMs = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  if (!results.complete || results.tasks.some((result) => result.error !== null)) throw new Error(`${configuration.name}: incomplete or errored runs`);
  return { wallMs, cpuMs: (cpu.user + cpu.system) / 1000, results: results.tasks };
}

const outcome = (result: TaskRunResult): string => `${result.id} ${result.mode} ${result.success} ${result.steps} ${JSON.stringify(result.verification)} ${result.faults.join(',')}`;
process.stdout.write(`bench-parallel: ${tasks.length} tasks × ${modes.length} modes = ${tasks.length * modes.length} runs per configuration, faults ${values.faults}, oracle policy, code from ${values.from}/, ${availableParallelism()} cores, load average ${loadavg().map((value) => value.toFixed(1)).join(' ')}; ${rounds} rounds\n`);
const rows: string[] = [];
const speedups: number[] = [];
let reference: string[] | undefined;
try {
  // Warm-up (not counted): module loading, JIT and the tokenizer's tables would otherwise land on the first configuration.
  await measure(configurations[0]!, 0, tasks.slice(0, 6));
  for (let round = 1; round <= rounds; round++) {
    const measured: Awaited<ReturnType<typeof measure>>[] = [];
    const order = round % 2 === 1 ? [0, 1, 2] : [2, 1, 0];
    for (const configurationIndex of order) {
      const configuration = configurations[configurationIndex]!;
      const result = await measure(configuration, round);
      const outcomes = result.results.map(outcome);
      reference ??= outcomes;
      const same = outcomes.every((line, index) => line === reference?.[index]);
      measured[configurationIndex] = result;
      rows.push(`round ${round}  ${configuration.name.padEnd(20)} wall ${(result.wallMs / 1000).toFixed(1).padStart(6)} s   cpu ${(result.cpuMs / 1000).toFixed(1).padStart(6)} s   load ${loadavg()[0]?.toFixed(1)}   results ${same ? 'same as the first' : 'DIFFER'}`);
      process.stdout.write(`${rows.at(-1)}\n`);
    }
    const [one, workers, mainOnly] = measured;
    if (one && workers && mainOnly) {
      speedups.push(one.wallMs / workers.wallMs);
      process.stdout.write(`round ${round}  speedup c${concurrency} workers vs c1: ${(one.wallMs / workers.wallMs).toFixed(2)}x; c${concurrency} main thread vs c1: ${(one.wallMs / mainOnly.wallMs).toFixed(2)}x\n`);
    }
  }
  const sorted = [...speedups].sort((a, b) => a - b);
  process.stdout.write(`median speedup of ${concurrency} worker threads over one thread: ${(sorted[Math.floor(sorted.length / 2)] ?? Number.NaN).toFixed(2)}x over ${speedups.length} rounds\n`);
} finally {
  await rm(scratch, { recursive: true, force: true });
}
