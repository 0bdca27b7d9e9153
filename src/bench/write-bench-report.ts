import { readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import * as path from 'node:path';
import type { TaskRunResult } from '../agent/task-run-result.js';
import { describeReplyRepairs } from '../report/describe-reply-repairs.js';
import type { ReportRun, ReportSummary } from '../report/report-input.js';
import { writeReport, type WrittenReport } from '../report/write-report.js';
import { BenchError } from './bench-error.js';
import { benchResultsSchema, type BenchResults } from './bench-results.js';
import { perAppTableModel, repeatTableModel, resultsNotes, resultsParts, resultsTitle } from './format-results-table.js';
import { benchFiles } from './run-benchmark.js';
import { findTraceFile } from '../trace/read-trace.js';

/** The report page's file name inside a bench output dir. */
export const reportFileName = 'report.html';

/**
 * Builds the HTML report of a bench output dir from that dir alone: `results.json` for
 * the summary and the run list, each run's trace folder for its page. Writes
 * `<runDir>/report.html` (the summary) and `<runDir>/report/<task>/<mode>-r<k>.html`.
 * Reads nothing outside `runDir`: a run whose `traceDir` leads elsewhere is shown
 * without its steps, and said so (`refusedRuns`). Throws `BenchError` when
 * results.json is missing or invalid, saying which file and what to do.
 */
export async function writeBenchReport(runDir: string, options: { now?: () => Date } = {}): Promise<WrittenReport> {
  const results = await readBenchResults(runDir);
  const [first, ...rest] = resultsParts(results);
  const runs = results.tasks.map((task): ReportRun => ({
    taskId: task.id,
    app: task.app,
    mode: task.mode,
    repeat: task.repeat,
    success: task.success,
    reason: task.reason,
    error: task.error,
    facts: runFacts(task),
    traceDir: path.resolve(runDir, task.traceDir),
    steps: task.steps,
    vlmCalls: task.vlmCalls,
  }));
  return writeReport({
    title: `${resultsTitle(results)}${results.complete ? '' : ' (incomplete)'}`,
    generatedAt: (options.now ?? (() => new Date()))().toISOString(),
    // The modes compared in tables that fit the page (outcomes, model calls and cost, the VLM reduction), then per app.
    summary: { title: 'Modes compared', headers: first?.headers ?? [], rows: first?.rows ?? [], notes: [] },
    tables: [...rest.map((entry, index) => ({ title: entry.heading, headers: entry.headers, rows: entry.rows, notes: index === rest.length - 1 ? resultsNotes(results) : [] })), perAppTable(results), ...repeatTable(results)],
    runs,
  }, path.join(runDir, reportFileName), { readOnlyInside: runDir });
}

/** Reads and validates `<runDir>/results.json`. Throws `BenchError` naming the file. */
export async function readBenchResults(runDir: string): Promise<BenchResults> {
  const file = path.join(runDir, benchFiles.results);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new BenchError({ code: 'bench-results-missing', message: `no ${benchFiles.results} in ${runDir}: ${whatFolderIsThis(runDir)}`, cause: error });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new BenchError({ code: 'bench-results-invalid', message: `${file} is not valid JSON; re-run the benchmark with --resume to rewrite it`, cause: error });
  }
  const parsed = benchResultsSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new BenchError({ code: 'bench-results-invalid', message: `${file} is not a bench results file of this version (${issue === undefined ? 'schema mismatch' : `${issue.path.join('.')}: ${issue.message}`})`, cause: parsed.error });
  }
  return parsed.data;
}

/**
 * What to do with a folder that has no results.json: a run folder (trace.jsonl) or a
 * folder of run folders (`senseact debug --device` writes `traces/<task>/<mode>-r0` and
 * no results) is stepped through with `debug`; anything else is not a bench output dir.
 */
function whatFolderIsThis(runDir: string): string {
  const bench = 'report builds its pages from a bench output dir (runs/bench-<suite>-<time>, which holds results.json)';
  const trace = findTraceFile(runDir);
  if (trace !== undefined) return `this is one run's folder (it holds ${path.basename(trace)}); ${bench}. Step through this run with: npx senseact debug ${runDir}`;
  const runs = runFoldersUnder(path.join(runDir, 'traces'));
  if (runs.length > 0) {
    const first = path.join(runDir, 'traces', runs[0] ?? '');
    return `it holds ${runs.length} run folder(s) under traces/ but no results (a folder senseact debug --device wrote?); ${bench}. Step through a run with: npx senseact debug ${first}`;
  }
  return `pass the output dir of a senseact bench run (runs/bench-<suite>-<time>)`;
}

/** `<task>/<run>` folders under `tracesDir` that hold a trace, sorted; none when it is not a folder. */
function runFoldersUnder(tracesDir: string): string[] {
  const folders = (dir: string): string[] => {
    try {
      return readdirSync(dir, { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name).sort();
    } catch {
      // Not a folder, or unreadable: it holds no run folders.
      return [];
    }
  };
  return folders(tracesDir).flatMap((task) => folders(path.join(tracesDir, task)).map((run) => path.join(task, run))).filter((run) => findTraceFile(path.join(tracesDir, run)) !== undefined);
}

/** Success and AndroidLab's metrics per app (rows) and mode (columns), the same cells as the CLI's per-app table. */
function perAppTable(results: BenchResults): ReportSummary {
  const { headers, rows } = perAppTableModel(results);
  return { title: 'Per app', headers, rows, notes: [] };
}

/** The spread over `--repeat k`, when some mode ran two repeats or more (the same figures as the CLI's table). */
function repeatTable(results: BenchResults): ReportSummary[] {
  const model = repeatTableModel(results);
  return model === undefined ? [] : [{ title: 'Over repeats', headers: model.headers, rows: model.rows, notes: [model.title] }];
}

function runFacts(task: TaskRunResult): [string, string][] {
  const facts: [string, string][] = [
    ['policy', task.policy],
    // The result's steps are executed units; the page adds the loop steps it shows as cards.
    ['actions executed', String(task.steps)],
    ['llm calls', String(task.llmCalls)],
    ['model requests', `${task.modelAttempts} (retries included)`],
    ['vlm calls', String(task.vlmCalls)],
    ['images', `${task.imagesUploaded} (${task.imageBytes} B, ${task.imageTokens} tokens)`],
    ['tokens', `${task.promptTokens} + ${task.completionTokens}`],
    ['verification', `${task.verification.pass} pass / ${task.verification.fail} fail / ${task.verification.inconclusive} inconclusive`],
    ['latency', `${Math.round(task.latency.totalMs)} ms (device ${Math.round(task.latency.deviceMs)}, perception ${Math.round(task.latency.perceptionMs)}, model ${Math.round(task.latency.modelMs)}, verification ${Math.round(task.latency.verificationMs)})`],
  ];
  const gates = Object.entries(task.gateReasons);
  if (gates.length > 0) facts.push(['gate reasons', gates.map(([reason, count]) => `${reason} ×${count}`).join(', ')]);
  if (task.faults.length > 0) facts.push(['faults', task.faults.join(', ')]);
  if (task.modelFaults.length > 0) facts.push(['model faults', task.modelFaults.join(', ')]);
  const repairs = describeReplyRepairs(task.replyRepairs ?? {});
  if (repairs !== '') facts.push(['reply repairs (repaired/read)', repairs]);
  if (task.answer !== undefined) facts.push(['answer', task.answer]);
  if (task.servedBy !== undefined) facts.push(['device', task.servedBy]);
  return facts;
}
