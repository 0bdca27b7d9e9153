// The report's summary page shows the spread over `--repeat k` that the CLI prints:
// the same figures, from results.json alone.
import { readFile } from 'node:fs/promises';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FakeTaskExecutor } from '../../../src/bench/fake-task-executor.js';
import { formatRepeatTable } from '../../../src/bench/format-results-table.js';
import { runBenchmark } from '../../../src/bench/run-benchmark.js';
import { readBenchResults, writeBenchReport } from '../../../src/bench/write-bench-report.js';
import type { Task } from '../../../src/tasks/task-schema.js';
import { simSuite, temporaryRunRoot } from '../../helpers/sim-suite.js';

const tasks = simSuite.tasks.filter((task) => task.id === 'settings-wifi-off' || task.id === 'settings-airplane-on');

async function bench(outDir: string, repeat: number): Promise<void> {
  // Both tasks succeed in repeat 0, one in repeat 1, none in repeat 2: 100%, 50%, 0% → 50.0% ± 50.0%.
  const fake = new FakeTaskExecutor<Task>((request) => ({ kind: 'result', result: { policy: 'oracle', success: request.repeat === 0 || (request.repeat === 1 && request.task.id === 'settings-wifi-off') } }));
  await runBenchmark({ tasks, modes: ['senseact'], repeat, concurrency: 1, outDir, resume: false, executor: fake.executor, policy: 'oracle', suite: 'sim' });
}

describe('the report summary with --repeat', () => {
  const root = temporaryRunRoot('senseact-report-repeat-');

  it('shows the mean ± sd table over three repeats, with the figures the CLI prints', async () => {
    const outDir = path.join(root.dir(), 'three');
    await bench(outDir, 3);
    const page = await readFile((await writeBenchReport(outDir)).htmlFile, 'utf8');
    expect(page).toContain('<h2>Over repeats</h2>');
    expect(page).toContain('<td>senseact</td><td>3</td><td>50.0% ± 50.0%</td>');
    expect(formatRepeatTable(await readBenchResults(outDir))).toMatch(/^senseact +3 +50\.0% ± 50\.0%/m);
  });

  it('has no such table for a single repeat', async () => {
    const outDir = path.join(root.dir(), 'one');
    await bench(outDir, 1);
    const page = await readFile((await writeBenchReport(outDir)).htmlFile, 'utf8');
    expect(page).toContain('<h2>Per app</h2>');
    expect(page).not.toContain('Over repeats');
  });
});
