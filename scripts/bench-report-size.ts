// Measures the HTML report against its budgets: summary ≤ 2 MB for 300 runs, a run page
// ≤ 300 KB (plus images), build ≤ 3 s and ≤ 200 MB for 300 runs.
//
//   npx tsx scripts/bench-report-size.ts --run-dir <bench output dir>   (a real run, e.g. the main job's)
//   npx tsx scripts/bench-report-size.ts [--synthetic 300]               (SYNTHETIC 2-step traces)
//
// The build is timed inside this process after the modules are loaded (what `senseact
// bench` pays at its end); memory is the process's peak RSS over the build (sampled every
// 10 ms) and its V8 heap. `--repeat k` builds k times and reports each (the first pays
// the JIT warm-up). Also prints the runner's own overhead per run with the fake executor.
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { FakeTaskExecutor } from '../src/bench/fake-task-executor.js';
import { runBenchmark } from '../src/bench/run-benchmark.js';
import { writeBenchReport } from '../src/bench/write-bench-report.js';
import { writeSyntheticBench } from '../tests/integration/report/synthetic-run-folder.js';

const { values } = parseArgs({
  options: {
    'run-dir': { type: 'string' },
    synthetic: { type: 'string' },
    repeat: { type: 'string', default: '2' },
    runner: { type: 'boolean', default: false },
  },
});

const budgets = { summaryBytes: 2 * 1024 * 1024, runPageBytes: 300 * 1024, buildMs: 3_000, rssBytes: 200 * 1024 * 1024 } as const;
const mib = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
const kib = (bytes: number): string => `${(bytes / 1024).toFixed(0)} KiB`;

async function measure(runDir: string, label: string): Promise<void> {
  for (let round = 1; round <= Number(values.repeat); round++) {
    let peak = process.memoryUsage().rss;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 10);
    const cpu = process.cpuUsage();
    const started = performance.now();
    const report = await writeBenchReport(runDir);
    const elapsed = performance.now() - started;
    const used = process.cpuUsage(cpu);
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage().rss);
    const verdict = (ok: boolean): string => (ok ? 'ok' : 'OVER BUDGET');
    process.stdout.write([
      `${label}, build ${round}: ${report.runPages} runs, load average ${loadavg()[0]?.toFixed(1)}`,
      `  summary page   ${kib(report.summaryBytes).padStart(9)}   (budget ${mib(budgets.summaryBytes)} for 300 runs: ${verdict(report.summaryBytes <= budgets.summaryBytes)})`,
      `  run pages      ${kib(report.runPageBytes).padStart(9)} in total, largest ${kib(report.largestRunPage?.bytes ?? 0)} (${path.relative(runDir, report.largestRunPage?.file ?? '')}; budget ${kib(budgets.runPageBytes)}: ${verdict((report.largestRunPage?.bytes ?? 0) <= budgets.runPageBytes)}), mean ${kib(report.runPageBytes / Math.max(report.runPages, 1))}`,
      `  screenshots    ${report.screenshots} linked from the run folders (not copied); ${report.screensDrawn} distinct screens drawn, once each`,
      `  shared folder  ${kib(report.sharedBytes).padStart(9)} (style sheet and screen sprites, ${path.relative(runDir, report.sharedDir)}/)`,
      `  build          ${(elapsed / 1000).toFixed(2)} s wall, ${((used.user + used.system) / 1000 / 1000).toFixed(2)} s CPU (budget ${budgets.buildMs / 1000} s: ${verdict(elapsed <= budgets.buildMs)})`,
      `  memory         peak RSS ${mib(peak)} (budget ${mib(budgets.rssBytes)}: ${verdict(peak <= budgets.rssBytes)}), heap now ${mib(process.memoryUsage().heapUsed)}`,
      '',
    ].join('\n'));
  }
}

const root = await mkdtemp(path.join(tmpdir(), 'senseact-bench-size-'));
try {
  if (values['run-dir'] !== undefined) await measure(path.resolve(values['run-dir']), `report of ${values['run-dir']}`);
  if (values.synthetic !== undefined || values['run-dir'] === undefined) {
    const tasks = Number(values.synthetic ?? '300');
    const outDir = path.join(root, 'synthetic');
    await writeSyntheticBench(outDir, tasks, { screenshots: true, hostile: true });
    await measure(outDir, `report of a SYNTHETIC bench dir (${tasks} runs of 2 steps, hostile text)`);
  }
  if (values.runner) {
    process.stdout.write('runner overhead with the fake executor (no agent work; fsync per run + atomic results.json rewrite):\n');
    for (const [runs, concurrency] of [[100, 1], [100, 4], [500, 4], [1000, 4]] as const) {
      const outDir = path.join(root, `runner-${runs}-${concurrency}`);
      const fake = new FakeTaskExecutor();
      const started = performance.now();
      const results = await runBenchmark({
        tasks: Array.from({ length: runs / 2 }, (_, index) => ({ id: `task-${index}`, app: `app-${index % 7}` })),
        modes: ['senseact', 'react-vlm'],
        repeat: 1,
        concurrency,
        outDir,
        resume: false,
        executor: fake.executor,
        policy: 'oracle',
        suite: 'synthetic',
      });
      const elapsed = performance.now() - started;
      if (results.tasks.length !== runs || !results.complete) throw new Error(`expected ${runs} finished runs, got ${results.tasks.length}`);
      process.stdout.write(`  ${String(runs).padStart(4)} runs, concurrency ${concurrency}: ${elapsed.toFixed(0)} ms total, ${(elapsed / runs).toFixed(2)} ms per run\n`);
    }
  }
} finally {
  await rm(root, { recursive: true, force: true });
}
