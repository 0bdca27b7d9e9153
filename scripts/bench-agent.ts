// Agent overhead per step, excluding model and device time, and model calls / images per
// task for each mode, on a small simulator task set with the oracle policy.
//
//   npx tsx scripts/bench-agent.ts [--tasks 20] [--faults standard]
//
// Overhead per step = the step's wall time − its device time − its model time, from each
// `step-end` event of the trace (so trace writing, perception, verification, prompts and
// the oracle's own work all count as overhead: an upper bound on the agent's cost).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { runTask } from '../src/agent/run-task.js';
import { agentModeSchema, type AgentMode } from '../src/agent/task-run-result.js';
import { simulatorForTask } from '../src/bench/simulator-for-task.js';
import { SimDevice } from '../src/device/sim-device.js';
import { loadSuite } from '../src/tasks/load-task-file.js';
import { readTrace } from '../src/trace/read-trace.js';

function option(name: string, fallback: string): string {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? (process.argv[index + 1] ?? fallback) : fallback;
}

function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

const taskCount = Number(option('tasks', '20'));
const faults = option('faults', 'standard') as 'standard' | 'none';
// Every mode the bench knows, so a new one is measured without editing this list.
const modes: readonly AgentMode[] = agentModeSchema.options;
const suite = await loadSuite('sim', { tasksRoot: path.resolve(import.meta.dirname, '..', 'tasks') });
// Every k-th task, so all four apps are in the set.
const stride = Math.max(1, Math.floor(suite.tasks.length / taskCount));
const tasks = suite.tasks.filter((_task, index) => index % stride === 0).slice(0, taskCount);
const root = await mkdtemp(path.join(tmpdir(), 'senseact-bench-agent-'));

console.log(`${tasks.length} sim tasks, faults ${faults}, oracle policy (reference solutions; oracle results)`);
const modeWidth = Math.max(...modes.map((mode) => mode.length));
console.log(`${'mode'.padEnd(modeWidth)}  success  llm/task  vlm/task  images/task  steps/task  overhead/step median  p95`);
const overheadAll: number[] = [];
for (const mode of modes) {
  const overhead: number[] = [];
  let success = 0;
  let llm = 0;
  let vlm = 0;
  let images = 0;
  let steps = 0;
  for (const task of tasks) {
    const device = new SimDevice(simulatorForTask(task, { faults }));
    const result = await runTask({ task, mode, policy: 'oracle', device, probe: device, traceRoot: root, suite: mode });
    if (result.success) success += 1;
    llm += result.llmCalls;
    vlm += result.vlmCalls;
    images += result.imagesUploaded;
    steps += result.steps;
    for (const event of readTrace(result.traceDir).events) {
      if (event.type !== 'step-end' || event.latencyMs === undefined) continue;
      const split = event.latency ?? {};
      overhead.push(event.latencyMs - (split['device'] ?? 0) - (split['model'] ?? 0));
    }
  }
  overheadAll.push(...overhead);
  const n = tasks.length;
  console.log(`${mode.padEnd(modeWidth)}  ${`${success}/${n}`.padStart(7)}  ${(llm / n).toFixed(1).padStart(8)}  ${(vlm / n).toFixed(2).padStart(8)}  ${(images / n).toFixed(2).padStart(11)}  ${(steps / n).toFixed(1).padStart(10)}  ${quantile(overhead, 0.5).toFixed(2).padStart(17)} ms  ${quantile(overhead, 0.95).toFixed(2)} ms`);
}
console.log(`all modes: overhead per step median ${quantile(overheadAll, 0.5).toFixed(2)} ms, p95 ${quantile(overheadAll, 0.95).toFixed(2)} ms over ${overheadAll.length} steps`);
await rm(root, { recursive: true, force: true });
