// Exports every successful run of a bench to WebdriverIO and Maestro (`senseact export`'s
// code), runs the WebdriverIO specs with WebdriverIO's test runner against the simulator's
// Appium server (started here), and prints the figures docs/export.md quotes:
//   - how many runs exported, and how many steps exported fully;
//   - WDIO specs passing on the unchanged app;
//   - negative control: the same specs under the simulator's `relabel` fault at rate 1
//     (OK → Confirm, Save → Done, Settings → Preferences, ...): a spec whose selectors or
//     assertions use a renamed label must fail; the others should still pass;
//   - Maestro flows that parse and validate against the schema of Maestro's commands.
//
//   npx tsx scripts/run-exported-specs.ts [--runs <bench --out>] [--tasks 'settings-*,clock-*'] [--runner standalone|wdio] [--parallel 2]
//
// --runner standalone (default): each spec in this process with WebdriverIO standalone
// (remote(), one session per spec), Mocha and expect-webdriverio; --runner wdio: WebdriverIO's
// test runner (@wdio/cli, a worker process per spec, --parallel at once), much slower on a
// shared machine. The spec files are the same either way.
//
// Without --runs it first runs the oracle bench (sim suite, senseact mode, in-process simulator).
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { startAppiumServer } from '../src/device/appium-server.js';
import { parseMaestroFlow, readExportSource, type ExportProgram, type StepCoverage } from '../src/export/index.js';
import { relabelled } from '../src/sim/fault-injector.js';
import { loadSuite } from '../src/tasks/load-task-file.js';
import { findTraceFile } from '../src/trace/read-trace.js';
import { exportSimRun } from '../tests/helpers/export-sim-run.js';
import { runWdioSpecs, type WdioSpecJob } from '../tests/helpers/run-wdio-spec.js';
import { runWdioSpecsStandalone } from '../tests/helpers/run-wdio-standalone.js';

const { values } = parseArgs({ options: { runs: { type: 'string' }, tasks: { type: 'string', default: 'settings-*,clock-*' }, runner: { type: 'string', default: 'standalone' }, parallel: { type: 'string', default: '2' } } });
if (values.runner !== 'standalone' && values.runner !== 'wdio') throw new Error(`--runner ${values.runner}: use standalone or wdio`);
const root = path.resolve(import.meta.dirname, '..');
const work = path.join(root, 'runs', 'export-specs');
rmSync(work, { recursive: true, force: true });
mkdirSync(work, { recursive: true });

let runs = values.runs === undefined ? undefined : path.resolve(values.runs);
if (runs === undefined) {
  runs = path.join(work, 'bench');
  process.stdout.write(`bench: oracle policy, sim suite, senseact mode, tasks ${values.tasks} -> ${runs}\n`);
  execFileSync(process.execPath, [path.join(root, 'bin', 'senseact.js'), 'bench', '--suite', 'sim', '--mode', 'senseact', '--device', 'sim', '--tasks', values.tasks, '--out', runs], { stdio: ['ignore', 'ignore', 'inherit'] });
}

/** Every label value a program's targets and expectations compare. */
function labelsOf(program: ExportProgram): string[] {
  const labels: string[] = [];
  JSON.stringify(program.entries, (key, value: unknown) => {
    if (['text', 'desc', 'hint', 'label'].includes(key) && typeof value === 'object' && value !== null && 'value' in value) labels.push(String((value as { value: unknown }).value));
    return value;
  });
  for (const entry of program.entries) if (entry.kind === 'step' && entry.expectationText !== '') labels.push(...[...entry.expectationText.matchAll(/"([^"]*)"/g)].map((match) => match[1] ?? ''));
  return labels;
}

const suite = await loadSuite('sim', { tasksRoot: path.join(root, 'tasks') });
const traces = path.join(runs, 'traces');
const jobs: { task: string; configFile: string; usesRenamedLabel: boolean; env?: Record<string, string> }[] = [];
const unexported: string[] = [];
const steps: StepCoverage[] = [];
const maestroSteps: StepCoverage[] = [];
let maestroValid = 0;
const maestroProblems: string[] = [];
for (const task of readdirSync(traces).sort()) {
  for (const run of readdirSync(path.join(traces, task))) {
    const dir = path.join(traces, task, run);
    if (findTraceFile(dir) === undefined) continue;
    let program: ExportProgram;
    try {
      program = readExportSource(dir);
    } catch (error) {
      unexported.push(`${task}/${run}: ${error instanceof Error ? error.message : String(error)}`);
      continue;
    }
    const taskDef = suite.tasks.find((candidate) => candidate.id === task);
    const repeat = Number(/-r(\d+)$/.exec(run)?.[1] ?? 0);
    const wdio = exportSimRun(dir, taskDef, 'wdio', work, `${task}-${run}`, repeat).result;
    const maestro = exportSimRun(dir, taskDef, 'maestro', work, `${task}-${run}`, repeat).result;
    steps.push(...wdio.steps);
    maestroSteps.push(...maestro.steps);
    for (const file of maestro.files) {
      const parsed = parseMaestroFlow(file.text);
      if (parsed.success) maestroValid += 1;
      else maestroProblems.push(`${path.basename(file.name)}: ${parsed.problems.join('; ')}`);
    }
    const usesRenamedLabel = labelsOf(program).some((label) => relabelled(label) !== undefined);
    // A typed password is never exported: the spec reads it from SENSEACT_PASSWORD, given here from the task's reference solution.
    const fills = (taskDef?.solution ?? []).flatMap((intent) => intent.actions).flatMap((action) => (action.unit === 'fill' ? [action] : []));
    const password = fills.find((action) => /password/i.test(action.target) && taskDef?.instruction.includes(action.value) === true)?.value;
    const env = wdio.files.some((file) => file.text.includes("requiredEnv('SENSEACT_PASSWORD')")) && password !== undefined ? { SENSEACT_PASSWORD: password } : undefined;
    for (const file of wdio.files.filter((candidate) => candidate.name.endsWith('.wdio.conf.ts'))) jobs.push({ task, configFile: file.name, usesRenamedLabel, ...(env ? { env } : {}) });
  }
}

const full = steps.filter((step) => step.full).length;
const asserted = steps.filter((step) => step.asserted).length;
process.stdout.write(`exported: ${jobs.length} runs (${unexported.length} not exportable); wdio: ${steps.length} steps, ${full} exported fully, ${steps.length - full} with a comment, ${asserted} with assertions\n`);
for (const line of unexported) process.stdout.write(`  not exported: ${line}\n`);
const maestroFull = maestroSteps.filter((step) => step.full).length;
process.stdout.write(`maestro: ${maestroValid}/${jobs.length} flows parse and validate against the schema; ${maestroFull}/${maestroSteps.length} steps exported fully, ${maestroSteps.filter((step) => step.asserted).length} with assertions\n`);
for (const line of maestroProblems) process.stdout.write(`  invalid: ${line}\n`);

const server = await startAppiumServer({ host: '127.0.0.1', port: 0, withSimDriver: true, logLevel: 'error' });
try {
  const parallel = Number(values.parallel);
  const run = (list: WdioSpecJob[]) => (values.runner === 'wdio' ? runWdioSpecs(list, server.url, parallel) : runWdioSpecsStandalone(list, server.url));
  process.stdout.write(`runner: ${values.runner === 'wdio' ? `WebdriverIO test runner (@wdio/cli, ${parallel} workers)` : 'WebdriverIO standalone + Mocha + expect-webdriverio, in process'}\n`);
  const plain = await run(jobs.map((job): WdioSpecJob => ({ configFile: job.configFile, ...(job.env ? { env: job.env } : {}) })));
  const passed = plain.runs.filter((run) => run.passed).length;
  const total = jobs.length + unexported.length;
  process.stdout.write(`wdio: ${passed}/${jobs.length} exported specs pass (${passed}/${total} = ${((100 * passed) / total).toFixed(1)}% of the successful runs), ${(plain.ms / 1000).toFixed(0)} s\n`);
  for (const run of plain.runs.filter((candidate) => !candidate.passed)) process.stdout.write(`  failed: ${path.basename(run.configFile)}\n`);
  const relabel = await run(jobs.map((job): WdioSpecJob => ({ configFile: job.configFile, capabilities: { 'senseact:faults': { relabel: { rate: 1 } } }, ...(job.env ? { env: job.env } : {}) })));
  const verdict = new Map(relabel.runs.map((entry) => [entry.configFile, entry.passed]));
  const using = jobs.filter((job) => job.usesRenamedLabel);
  const others = jobs.filter((job) => !job.usesRenamedLabel);
  const bit = using.filter((job) => verdict.get(job.configFile) === false).length;
  process.stdout.write(`negative control (relabel rate 1): ${bit}/${using.length} specs that use a renamed label fail; ${others.filter((job) => verdict.get(job.configFile) === true).length}/${others.length} specs that use none still pass, ${(relabel.ms / 1000).toFixed(0)} s\n`);
  for (const job of using.filter((candidate) => verdict.get(candidate.configFile) !== false)) process.stdout.write(`  passed although relabelled: ${path.basename(job.configFile)}\n`);
  for (const job of others.filter((candidate) => verdict.get(candidate.configFile) !== true)) process.stdout.write(`  failed without a renamed label: ${path.basename(job.configFile)}\n`);
} finally {
  await server.stop();
}
