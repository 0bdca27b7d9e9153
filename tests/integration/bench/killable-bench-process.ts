// A benchmark process for the kill-and-resume test: it runs tasks t0..t5 in one mode with
// the fake executor; t3 hangs forever, so the parent can kill this process mid-run.
import { FakeTaskExecutor } from '../../../src/bench/fake-task-executor.js';
import { runBenchmark } from '../../../src/bench/run-benchmark.js';

const outDir = process.argv[2];
if (outDir === undefined) throw new Error('usage: killable-bench-process.ts <out-dir>');
// A hung device call holds a socket open; this timer plays that part, so the process
// stays alive (an unsettled promise alone would let Node exit) until it is killed.
setInterval(() => undefined, 60_000);
const fake = new FakeTaskExecutor((request) => (request.task.id === 't3' ? { kind: 'hang', ignoreAbort: true } : { kind: 'result', result: { imagesUploaded: 2 } }));
await runBenchmark({
  tasks: ['t0', 't1', 't2', 't3', 't4', 't5'].map((id) => ({ id, app: 'clock' })),
  modes: ['react-vlm'],
  repeat: 1,
  concurrency: 1,
  outDir,
  resume: false,
  executor: fake.executor,
  policy: 'oracle',
  suite: 'sim/kill-test',
});
