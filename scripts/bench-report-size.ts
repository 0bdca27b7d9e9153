// Measures (1) the HTML report's size per task on a SYNTHETIC bench dir of N tasks
// (2-step traces written through the real TraceWriter, as in the report tests), with and
// without screenshots, and (2) the bench runner's own overhead per run with the fake
// executor (journal fsync + atomic results.json rewrite + metrics), at several sizes.
// Run: npx tsx scripts/bench-report-size.ts [N]
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { FakeTaskExecutor } from '../src/bench/fake-task-executor.js';
import { runBenchmark } from '../src/bench/run-benchmark.js';
import { writeBenchReport } from '../src/bench/write-bench-report.js';
import { writeSyntheticBench } from '../tests/integration/report/synthetic-run-folder.js';

const tasks = Number(process.argv[2] ?? '50');
const root = await mkdtemp(path.join(tmpdir(), 'senseact-bench-size-'));
try {
  console.log(`report size on a synthetic bench dir of ${tasks} tasks (senseact mode, 2 steps each, hostile text on):`);
  for (const screenshots of [false, true]) {
    const outDir = path.join(root, `report-${screenshots ? 'shots' : 'wire'}`);
    await writeSyntheticBench(outDir, tasks, { screenshots, hostile: true });
    const started = performance.now();
    const report = await writeBenchReport(outDir);
    const elapsed = performance.now() - started;
    const total = report.htmlBytes + report.assetBytes;
    console.log(`  ${screenshots ? 'screenshot on step 0 (tiny synthetic 4x8 PNG)' : 'no screenshots (SVG wireframes)    '}: HTML ${report.htmlBytes} B + assets ${report.assetBytes} B = ${(total / tasks / 1024).toFixed(1)} KiB per task; built in ${elapsed.toFixed(0)} ms (${(elapsed / tasks).toFixed(1)} ms/task)`);
  }

  console.log('runner overhead with the fake executor (no agent work; fsync per run + atomic results.json rewrite):');
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
    console.log(`  ${String(runs).padStart(4)} runs, concurrency ${concurrency}: ${elapsed.toFixed(0)} ms total, ${(elapsed / runs).toFixed(2)} ms per run`);
  }
} finally {
  await rm(root, { recursive: true, force: true });
}
