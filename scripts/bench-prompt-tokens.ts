// Where the prompt tokens go: the per-section breakdown (o200k estimates: system prompt,
// task, history, certificates, feedback, view, images, ...) per task and per call, for
// every mode, on a task suite with the oracle policy (or an existing bench run).
//
//   npx tsx scripts/bench-prompt-tokens.ts [--suite sim] [--modes senseact,react-text,react-vlm]
//                                          [--faults standard] [--tasks 96] [--json out.json]
//   npx tsx scripts/bench-prompt-tokens.ts --from runs/bench-sim-...   # a `senseact bench` output dir
//
// Runs go through the bench's own composition root (certificate memory per mode, as
// `senseact bench` does), so the numbers are the bench's. Sections come from how each
// prompt is built (src/agent/prompts/agent-prompts.ts labels its parts), not from string offsets.
// "prompt@phone" re-costs every screenshot as a 1080×2400 phone screenshot at high detail
// (1445 tokens); the simulator's own screenshots are that size, so it differs from "prompt"
// only for images of another size or detail.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { agentModeSchema, type AgentMode, type TaskRunResult } from '../src/agent/task-run-result.js';
import { benchResultsSchema, type BenchResults } from '../src/bench/bench-results.js';
import { createBenchExecutor } from '../src/bench/compose.js';
import { formatPromptTokenBreakdown, pairedTokenRatio, promptTokenBreakdown, type CallSections, type PairedTokenRatio } from '../src/bench/prompt-token-breakdown.js';
import { benchFiles, runBenchmark } from '../src/bench/run-benchmark.js';
import { loadSuite } from '../src/tasks/load-task-file.js';
import { readTrace } from '../src/trace/read-trace.js';

const { values } = parseArgs({
  options: {
    suite: { type: 'string', default: 'sim' },
    modes: { type: 'string', default: 'senseact,react-text,react-vlm' },
    faults: { type: 'string' },
    tasks: { type: 'string' },
    from: { type: 'string' },
    json: { type: 'string' },
  },
});
const repoRoot = path.resolve(import.meta.dirname, '..');

let outDir: string;
let results: BenchResults;
let scratch: string | undefined;
if (values.from !== undefined) {
  outDir = path.resolve(values.from);
  results = benchResultsSchema.parse(JSON.parse(await readFile(path.join(outDir, benchFiles.results), 'utf8')));
} else {
  const modes = values.modes.split(',').map((mode) => agentModeSchema.parse(mode.trim()));
  const suite = await loadSuite(values.suite, { tasksRoot: path.join(repoRoot, 'tasks') });
  const limit = values.tasks === undefined ? suite.tasks.length : Number(values.tasks);
  // Every k-th task, so every app is in a smaller set.
  const stride = Math.max(1, Math.floor(suite.tasks.length / limit));
  const tasks = suite.tasks.filter((_task, index) => index % stride === 0).slice(0, limit);
  scratch = await mkdtemp(path.join(tmpdir(), 'senseact-prompt-tokens-'));
  outDir = scratch;
  const signal = new AbortController().signal;
  const handle = await createBenchExecutor({ suite: suite.name, device: 'sim', faults: values.faults, policy: 'oracle', outDir, cwd: repoRoot, env: {}, signal });
  try {
    results = await runBenchmark({ tasks, modes, repeat: 1, concurrency: 1, outDir, resume: false, executor: handle.executor, policy: handle.policy, suite: suite.name, device: 'sim', faults: values.faults ?? null, modelLabel: handle.modelLabel, signal });
  } finally {
    await handle.close();
  }
}

/** The model calls of one run, from its trace. */
const calls = new Map<TaskRunResult, CallSections[]>();
for (const run of results.tasks) {
  const trace = await readTrace(path.join(outDir, run.traceDir));
  calls.set(
    run,
    trace.events
      .filter((event) => event.type === 'model-call-end' || event.type === 'vlm-call-end')
      .map((event) => ({ role: String(event['role']), promptTokens: Number(event['promptTokens']), sections: (event['promptSections'] as Record<string, number> | undefined) ?? {}, ...(typeof event['sharedPrefixTokens'] === 'number' ? { sharedPrefixTokens: event['sharedPrefixTokens'] } : {}) })),
  );
}

const modes = results.options.modes;
const breakdown = promptTokenBreakdown(results.tasks, modes, (run) => calls.get(run) ?? []);
const has = (mode: AgentMode): boolean => modes.includes(mode);
const ratios: PairedTokenRatio[] = [];
for (const [mode, baseline, phoneSize] of [
  ['senseact', 'react-text', false],
  ['senseact', 'react-vlm', false],
  ['senseact', 'react-vlm', true],
  ['react-vlm', 'react-text', false],
] as const) {
  if (!has(mode) || !has(baseline)) continue;
  const ratio = pairedTokenRatio(results.tasks, mode, baseline, { phoneSize });
  if (ratio) ratios.push(ratio);
}

console.log(`suite ${results.options.suite}: ${results.options.taskIds.length} tasks, faults ${results.options.faults ?? 'none'}, ${results.oracle ? 'oracle policy (reference solutions; oracle results), prompt tokens are local o200k estimates' : `llm policy (${results.options.modelLabel}); sections are local o200k estimates, totals the provider's`}`);
console.log(formatPromptTokenBreakdown(breakdown, ratios));
if (values.json !== undefined) await writeFile(values.json, `${JSON.stringify({ options: results.options, breakdown, ratios }, null, 2)}\n`);
if (scratch !== undefined) await rm(scratch, { recursive: true, force: true });
