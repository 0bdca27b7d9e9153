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
// "Stable prefix" is the share of each role's prompt tokens a prefix cache can serve: per run
// (shared with an earlier call of the run) and across the bench (shared with any earlier call,
// as one endpoint sees them, in the blocks and minimum of a token-granular cache, vLLM and
// OpenAI; docs/models-and-traces.md, "Prompt caching").
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { agentModeSchema, type AgentMode, type TaskRunResult } from '../src/agent/task-run-result.js';
import { benchResultsSchema, type BenchResults } from '../src/bench/bench-results.js';
import { createBenchExecutor } from '../src/bench/compose.js';
import { formatPrefixCacheShares, prefixCacheShares, type BenchPromptCall } from '../src/bench/prefix-cache-share.js';
import { formatPromptTokenBreakdown, pairedTokenRatio, promptTokenBreakdown, type CallSections, type PairedTokenRatio } from '../src/bench/prompt-token-breakdown.js';
import { benchFiles, runBenchmark } from '../src/bench/run-benchmark.js';
import { loadSuite } from '../src/tasks/load-task-file.js';
import { promptPrefixText } from '../src/model/shared-prompt-prefix.js';
import { readTrace } from '../src/trace/read-trace.js';
import { openRunFiles } from '../src/trace/run-files.js';

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

/** The model calls of one run, from its trace; and every call's prompt text in the order the runs started (what one endpoint's prefix cache sees). */
const calls = new Map<TaskRunResult, CallSections[]>();
const benchCalls: BenchPromptCall[] = [];
const blobs = new Map<string, Uint8Array>();
const traces = results.tasks.map((run) => ({ run, dir: path.join(outDir, run.traceDir), trace: readTrace(path.join(outDir, run.traceDir)) }));
const startOf = (trace: ReturnType<typeof readTrace>): string => String(trace.events.find((event) => event.type === 'run-start')?.['startedAt'] ?? '');
// Runs in the order they started (ties in plan order): with --concurrency 1, the order the endpoint got their calls.
for (const { run, dir, trace } of traces.sort((a, b) => startOf(a.trace).localeCompare(startOf(b.trace)))) {
  const files = openRunFiles(dir, { ...(trace.artifacts ? { artifacts: trace.artifacts } : {}), blobs });
  const ended = trace.events.filter((event) => event.type === 'model-call-end' || event.type === 'vlm-call-end');
  calls.set(
    run,
    ended.map((event) => ({ role: String(event['role']), promptTokens: Number(event['promptTokens']), sections: (event['promptSections'] as Record<string, number> | undefined) ?? {}, ...(typeof event['sharedPrefixTokens'] === 'number' ? { sharedPrefixTokens: event['sharedPrefixTokens'] } : {}) })),
  );
  if (run.error !== null) continue;
  for (const event of ended) {
    const bytes = typeof event['artifact'] === 'string' && event['error'] === undefined ? files.read(event['artifact']) : undefined;
    if (bytes === undefined) continue;
    const record = JSON.parse(new TextDecoder().decode(bytes)) as { messages: { role: string; content: string }[] };
    benchCalls.push({ mode: run.mode, role: String(event['role']), promptTokens: Number(event['promptTokens']), text: promptPrefixText(record.messages), sharedInRun: typeof event['sharedPrefixTokens'] === 'number' ? event['sharedPrefixTokens'] : 0 });
  }
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
const shares = prefixCacheShares(benchCalls);
console.log(formatPrefixCacheShares(shares));
if (values.json !== undefined) await writeFile(values.json, `${JSON.stringify({ options: results.options, breakdown, ratios, prefixCacheShares: shares }, null, 2)}\n`);
if (scratch !== undefined) await rm(scratch, { recursive: true, force: true });
