import type { BenchResults, ModeMetrics } from './bench-results.js';
import type { MeanSd } from './compute-repeat-spread.js';
import { computeVlmReduction } from './compute-vlm-reduction.js';
import { describeReplyRepairs } from '../report/describe-reply-repairs.js';

interface Column {
  readonly header: string;
  readonly align: 'left' | 'right';
  readonly value: (metrics: ModeMetrics, results: BenchResults) => string;
}

const baselineMode = 'react-vlm';

function vlmReductionCell(metrics: ModeMetrics): string {
  if (metrics.mode === baselineMode) return 'baseline';
  return metrics.vlmReduction === null || metrics.vlmReduction.pairedTasks === 0 ? '-' : `${percent(metrics.vlmReduction.perTaskMean)}/${percent(metrics.vlmReduction.aggregate)}`;
}

const column = {
  mode: { header: 'mode', align: 'left', value: (m) => m.mode },
  runs: { header: 'runs', align: 'right', value: (m) => String(m.tasks) },
  success: { header: 'success', align: 'right', value: (m) => `${m.successes}/${m.tasks}` },
  rate: { header: 'rate', align: 'right', value: (m) => percent(m.successRate) },
  subSr: { header: 'sub-sr', align: 'right', value: (m) => optionalPercent(m.subGoalSuccessRate) },
  rrr: { header: 'rrr', align: 'right', value: (m) => (m.reversedRedundancyRatio === null ? '-' : m.reversedRedundancyRatio.toFixed(2)) },
  ror: { header: 'ror', align: 'right', value: (m) => optionalPercent(m.reasonableOperationRatio) },
  llm: { header: 'llm', align: 'right', value: (m) => String(m.llmCalls) },
  vlm: { header: 'vlm', align: 'right', value: (m) => String(m.vlmCalls) },
  images: { header: 'images', align: 'right', value: (m) => String(m.imagesUploaded) },
  imageKib: { header: 'img KiB', align: 'right', value: (m) => (m.imageBytes / 1024).toFixed(1) },
  tokensIn: { header: 'tok in', align: 'right', value: (m) => String(m.promptTokens) },
  imageTokens: { header: 'img tok', align: 'right', value: (m) => String(m.imageTokens) },
  tokensOut: { header: 'tok out', align: 'right', value: (m) => String(m.completionTokens) },
  cost: { header: 'cost $', align: 'right', value: (m, results) => (results.prices.unknown === true ? '?' : m.costUsd.toFixed(4)) },
  steps: { header: 'steps/run', align: 'right', value: (m) => m.steps.mean.toFixed(1) },
  latency: { header: 'ms/run', align: 'right', value: (m) => m.latency.totalMs.mean.toFixed(0) },
  vlmReduction: { header: 'vlm red. task/agg', align: 'right', value: vlmReductionCell },
  errors: { header: 'errors', align: 'right', value: (m) => String(m.errors) },
  sideEffects: { header: 'side eff.', align: 'right', value: (m) => String(m.sideEffectRuns) },
  faults: { header: 'faults ok/met', align: 'right', value: (m) => `${m.faultsSurvived}/${m.faultsMet}` },
  modelFaults: { header: 'model faults ok/met', align: 'right', value: (m) => `${m.modelFaultsSurvived}/${m.modelFaultsMet}` },
} satisfies Record<string, Column>;

/** Every column in one table (`--wide`). */
const wideColumns: readonly Column[] = [
  column.mode, column.runs, column.success, column.rate, column.subSr, column.rrr, column.ror, column.llm, column.vlm, column.images, column.imageKib,
  column.tokensIn, column.imageTokens, column.tokensOut, column.cost, column.steps, column.latency, column.vlmReduction, column.errors, column.sideEffects, column.faults, column.modelFaults,
];

/** The comparison table as data: title, header cells, one row of cells per mode, footer notes. */
export interface ResultsTableModel {
  readonly title: string;
  readonly headers: readonly string[];
  /** Which columns are right-aligned (numbers). */
  readonly rightAligned: readonly boolean[];
  readonly rows: readonly (readonly string[])[];
  readonly notes: readonly string[];
}

/** One table of the comparison: its heading (none for the first), headers, alignment and rows. */
export interface ResultsPart {
  readonly heading: string;
  readonly headers: readonly string[];
  readonly rightAligned: readonly boolean[];
  readonly rows: readonly (readonly string[])[];
}

function part(heading: string, columns: readonly Column[], results: BenchResults): ResultsPart {
  return {
    heading,
    headers: columns.map((entry) => entry.header),
    rightAligned: columns.map((entry) => entry.align === 'right'),
    rows: results.modes.map((metrics) => columns.map((entry) => entry.value(metrics, results))),
  };
}

/**
 * The comparison split into tables that each fit 120 columns (the default of the CLI and
 * the report): outcomes, then model use and cost, then the VLM reduction against react-vlm
 * (when it ran). Pure.
 */
export function resultsParts(results: BenchResults): ResultsPart[] {
  const outcome = [column.mode, column.runs, column.success, column.rate, column.subSr, column.rrr, column.ror, column.steps, column.errors, column.sideEffects, column.faults, ...(results.options.modelFaults === null ? [] : [column.modelFaults])];
  const cost = [column.mode, column.llm, column.vlm, column.images, column.imageKib, column.tokensIn, column.imageTokens, column.tokensOut, column.cost, column.latency];
  const reduction = vlmReductionPart(results);
  return [part('Outcomes', outcome, results), part('Model calls and cost', cost, results), ...(reduction === undefined ? [] : [reduction])];
}

/**
 * The VLM reduction per mode against react-vlm: over the paired tasks (both ran without an
 * infrastructure error, react-vlm sent an image), and over the tasks both modes solved,
 * so that a mode that gives up early does not read as saving. Undefined without react-vlm.
 */
function vlmReductionPart(results: BenchResults): ResultsPart | undefined {
  if (!results.modes.some((metrics) => metrics.mode === baselineMode)) return undefined;
  const solved = results.tasks.filter((run) => run.success);
  const baseline = solved.filter((run) => run.mode === baselineMode);
  const rows = results.modes.map((metrics) => {
    if (metrics.mode === baselineMode) return [metrics.mode, 'baseline', '-', 'baseline', '-'];
    const all = metrics.vlmReduction;
    const both = computeVlmReduction(solved.filter((run) => run.mode === metrics.mode), baseline);
    const cell = (reduction: { perTaskMean: number; aggregate: number; pairedTasks: number } | null): string => (reduction === null || reduction.pairedTasks === 0 ? '-' : `${percent(reduction.perTaskMean)}/${percent(reduction.aggregate)}`);
    return [metrics.mode, cell(all), String(all?.pairedTasks ?? 0), cell(both), String(both.pairedTasks)];
  });
  const headers = ['mode', 'vlm red. task/agg', 'paired tasks', 'on tasks both solved', 'both solved'];
  return { heading: `VLM reduction against ${baselineMode}`, headers, rightAligned: headers.map((_, index) => index > 0), rows };
}

/** The comparison in one wide table (`--wide`). Pure; `resultsParts` splits the same cells. */
export function resultsTableModel(results: BenchResults): ResultsTableModel {
  const wide = part('', wideColumns, results);
  return { title: resultsTitle(results), headers: wide.headers, rightAligned: wide.rightAligned, rows: wide.rows, notes: resultsNotes(results) };
}

/** `SenseAct bench: suite <suite> on the simulator (device <name>) | on device <name>, <policy>`. */
export function resultsTitle(results: BenchResults): string {
  const policy = results.oracle ? 'oracle policy (reference solutions, no model)' : `llm policy (model: ${results.options.modelLabel})`;
  const { device, simulated } = results.options;
  const where = device === null ? '' : simulated === true ? ` on the simulator (device ${device})` : ` on device ${device}`;
  return `SenseAct bench: suite ${results.options.suite}${where}, ${policy}`;
}

/** The footer lines under the comparison: what the columns mean, prices, completeness. */
export function resultsNotes(results: BenchResults): string[] {
  const baselineRan = results.modes.some((metrics) => metrics.vlmReduction !== null);
  const finished = results.tasks.length;
  return [
    ...conditionNotes(results),
    ...(results.oracle ? ['oracle: no model was called; llm/vlm calls, images and bytes count what the loop sent to the oracle stand-ins, tokens are local estimates, cost is what a model at these prices would have cost'] : []),
    `${results.prices.unknown === true ? 'cost:' : 'cost at'} ${results.prices.label}; img tok (part of tok in): each image at its real size and requested detail by OpenAI's tile formula`,
    ...imageSizeNotes(results),
    'sub-sr: sub-goals of the task check met (mean per run); rrr: reference steps / agent steps on successes of tasks with referenceSteps; ror: operations that changed the screen; - when no run carries it',
    'errors: runs ended by an infrastructure error (device lost, no valid model reply; counted as not successful; exit code 4); faults ok/met: runs that met an injected device fault (--faults, docs/faults.md) and still succeeded / runs that met one'
      + (results.options.modelFaults === null ? '' : '; model faults ok/met: the same for errors injected into the oracle\'s replies (--model-faults)'),
    ...sideEffectNotes(results),
    ...results.modes.flatMap((metrics) => (metrics.planning ? [planningNote(metrics.mode, metrics.planning)] : [])),
    ...modelFaultNotes(results),
    ...modelStopNotes(results),
    ...replyRepairNotes(results),
    baselineRan
      ? 'vlm red.: 1 - images(mode)/images(react-vlm), per-task mean / aggregate ratio, over paired tasks (react-vlm sent >= 1 image; no infrastructure error); "on tasks both solved" keeps the tasks both modes solved: giving up early is not a saving'
      : 'vlm red.: not measured (react-vlm was not run)',
    results.complete
      ? `${finished} runs, wall time ${(results.wallTimeMs / 1000).toFixed(1)} s`
      : `INCOMPLETE: ${finished} of ${results.expectedRuns} runs finished; run again with --resume to finish`,
  ];
}

/**
 * The comparison of a benchmark as plain text: a title line, then the tables of
 * `resultsParts` (each within 120 columns; `wide`: one table with every column), then
 * footer lines (what the columns mean, prices, completeness). When the policy is oracle
 * the title says "oracle policy (reference solutions, no model)". Pure: the same results
 * give the same text. Ends with a newline.
 */
export function formatResultsTable(results: BenchResults, options: { readonly wide?: boolean } = {}): string {
  const parts = options.wide === true ? [part('', wideColumns, results), ...[vlmReductionPart(results)].filter((entry) => entry !== undefined)] : resultsParts(results);
  const lines = [resultsTitle(results)];
  parts.forEach((entry, index) => {
    const { render, widths } = alignedColumns(entry.headers, entry.rows, entry.rightAligned);
    if (index > 0) lines.push('', entry.heading);
    lines.push(render(entry.headers), widths.map((width) => '-'.repeat(width)).join('  '), ...entry.rows.map(render));
  });
  lines.push(...resultsNotes(results).flatMap((note) => wrapLine(note, textWidth)));
  return `${lines.join('\n')}\n`;
}

/** The width the text tables and their notes keep to (a terminal of 120 columns). */
const textWidth = 120;

/** A line broken at spaces into lines of at most `width` characters, continuations indented by two more. */
function wrapLine(line: string, width: number): string[] {
  const indent = /^ */.exec(line)?.[0] ?? '';
  const lines: string[] = [];
  let current = '';
  for (const word of line.trimStart().split(' ')) {
    if (current === '') current = `${lines.length === 0 ? indent : `${indent}  `}${word}`;
    else if (current.length + 1 + word.length > width) {
      lines.push(current);
      current = `${indent}  ${word}`;
    } else current = `${current} ${word}`;
  }
  if (current !== '') lines.push(current);
  return lines;
}

/**
 * Success and AndroidLab's metrics per app: one row per app and mode (`app`, `mode`,
 * `success` as successes/runs, `sub-sr`, `rrr`, `ror`), so the table is as wide for six
 * modes as for one (modes as columns made it 135 characters for three). The text table
 * and the report's table are both drawn from it. Pure.
 */
export function perAppTableModel(results: BenchResults): { readonly headers: readonly string[]; readonly rows: readonly (readonly string[])[] } {
  const apps = [...new Set(results.modes.flatMap((metrics) => Object.keys(metrics.perApp)))].sort();
  const headers = ['app', 'mode', 'success', 'sub-sr', 'rrr', 'ror'];
  const rows = apps.flatMap((app) => results.modes.map((metrics) => {
    const entry = metrics.perApp[app];
    if (entry === undefined) return [app, metrics.mode, '-', '-', '-', '-'];
    const rrr = entry.reversedRedundancyRatio === null ? '-' : entry.reversedRedundancyRatio.toFixed(2);
    return [app, metrics.mode, `${entry.successes}/${entry.tasks}`, optionalPercent(entry.subGoalSuccessRate), rrr, optionalPercent(entry.reasonableOperationRatio)];
  }));
  return { headers, rows };
}

/**
 * {@link perAppTableModel} as plain text. Empty when the suite has a single app (the main
 * table says it all). Pure. Ends with a newline when not empty.
 */
export function formatPerAppTable(results: BenchResults): string {
  const { headers, rows } = perAppTableModel(results);
  if (new Set(rows.map((row) => row[0])).size < 2) return '';
  const { render } = alignedColumns(headers, rows, headers.map((_, index) => index > 1));
  return `${['Per app', render(headers), ...rows.map(render)].join('\n')}\n`;
}

/** The spread over repeats as a table: title, headers and one row per mode that ran ≥ 2 repeats. */
export interface RepeatTableModel {
  readonly title: string;
  readonly headers: readonly string[];
  readonly rows: readonly (readonly string[])[];
}

/**
 * The spread over `--repeat k` (k ≥ 2): per mode, each figure computed per repeat, then
 * its mean ± sample sd over the repeats. Undefined when no mode ran two repeats. Pure;
 * the text table and the report's table are both drawn from it.
 */
export function repeatTableModel(results: BenchResults): RepeatTableModel | undefined {
  const spread = results.modes.flatMap((metrics) => (metrics.repeatSpread !== null && metrics.repeatSpread.repeats >= 2 ? [{ mode: metrics.mode, spread: metrics.repeatSpread }] : []));
  if (spread.length === 0) return undefined;
  const show = (value: MeanSd, format: (number: number) => string): string => `${format(value.mean)} ± ${value.sd === null ? '-' : format(value.sd)}`;
  const percentValue = (number: number): string => `${(number * 100).toFixed(1)}%`;
  return {
    title: 'Over repeats: mean ± sample sd (n − 1) of each figure computed per repeat',
    headers: ['mode', 'repeats', 'success rate', 'steps/run', 'tok/run', 'vlm/run', 'vlm red. agg'],
    rows: spread.map(({ mode, spread: entry }) => [
      mode,
      String(entry.repeats),
      show(entry.successRate, percentValue),
      show(entry.steps, (number) => number.toFixed(1)),
      show(entry.tokens, (number) => number.toFixed(0)),
      show(entry.vlmCalls, (number) => number.toFixed(2)),
      entry.vlmReduction === null ? '-' : show(entry.vlmReduction, percentValue),
    ]),
  };
}

/** {@link repeatTableModel} as plain text; empty when no mode ran two repeats. Ends with a newline when not empty. */
export function formatRepeatTable(results: BenchResults): string {
  const model = repeatTableModel(results);
  if (model === undefined) return '';
  const { render } = alignedColumns(model.headers, model.rows, model.headers.map((_, index) => index > 0));
  return `${[model.title, render(model.headers), ...model.rows.map(render)].join('\n')}\n`;
}

/** Column widths over header and rows, and a renderer padding each cell to its column (numbers right-aligned). */
function alignedColumns(headers: readonly string[], rows: readonly (readonly string[])[], rightAligned: readonly boolean[]): { readonly widths: number[]; readonly render: (row: readonly string[]) => string } {
  const widths = headers.map((_, index) => Math.max(...[headers, ...rows].map((row) => (row[index] ?? '').length)));
  const render = (row: readonly string[]): string =>
    widths
      .map((width, index) => {
        const cell = row[index] ?? '';
        return rightAligned[index] === true ? cell.padStart(width) : cell.padEnd(width);
      })
      .join('  ')
      .trimEnd();
  return { widths, render };
}

function optionalPercent(value: number | null): string {
  return value === null ? '-' : percent(value);
}

function percent(value: number): string {
  return `${(value * 100).toFixed(1)}%`;
}

/**
 * The size of the images each mode sent and what one cost on average: `images sent: react-vlm
 * 801 at 1080x2400, 1445 tok/image`. None when no mode sent an image.
 */
function imageSizeNotes(results: BenchResults): string[] {
  const parts = results.modes.flatMap((metrics) => {
    if (metrics.imagesUploaded === 0) return [];
    const sizes = Object.entries(metrics.imageSizes).sort(([, a], [, b]) => b - a).map(([size, count]) => `${count} at ${size}`);
    return [`${metrics.mode} ${sizes.length === 0 ? `${metrics.imagesUploaded} (size not recorded)` : sizes.join(' + ')}, ${(metrics.imageTokens / metrics.imagesUploaded).toFixed(0)} tok/image`];
  });
  return parts.length === 0 ? [] : [`images sent: ${parts.join('; ')}`];
}

/** The ablation settings the bench ran with, when any was set (`--gate-threshold`, `--temperature`). */
function conditionNotes(results: BenchResults): string[] {
  const { gateThreshold, temperature } = results.options;
  const parts = [
    ...(gateThreshold === null ? [] : [`VLM gate threshold τ = ${gateThreshold}`]),
    ...(temperature === null ? [] : [`temperature ${temperature} for every model role${results.oracle ? ' (the oracle samples nothing: no effect)' : ''}`]),
  ];
  return parts.length === 0 ? [] : [`conditions: ${parts.join('; ')}`];
}

/**
 * What `side eff.` counts, and the first side effect per mode that had one: a run that
 * changed watched state (every app's state on the simulator, a profile's `watch` queries on
 * a device) outside its task's scope failed, whatever its check said.
 */
function sideEffectNotes(results: BenchResults): string[] {
  const examples = results.modes.flatMap((metrics) => {
    const run = results.tasks.find((candidate) => candidate.mode === metrics.mode && (candidate.sideEffects?.length ?? 0) > 0);
    return run === undefined ? [] : [`  ${metrics.mode} ${metrics.sideEffectRuns}/${metrics.tasks}, e.g. ${run.id}: ${run.sideEffects?.[0] ?? ''}`];
  });
  return [
    "side eff.: runs that changed watched state outside their task's scope (state its check reads, and its scope entries); each failed as 'side effect: <path> changed from … to …'",
    ...examples,
  ];
}

/**
 * Under `--model-faults`: what the profile injected in each mode, by kind (occurrences;
 * a run may meet several), and how many runs met one and still succeeded. None without it.
 */
/**
 * Runs the model's spending, its refused plans or its unusable replies stopped (failures
 * of those runs, not infrastructure errors), per mode, with the first reason: a runaway
 * or a weak model shows here.
 */
function modelStopNotes(results: BenchResults): string[] {
  const kinds: readonly { readonly label: string; readonly matches: (reason: string) => boolean }[] = [
    { label: 'stopped by a budget', matches: (reason) => reason.startsWith('budget: ') },
    { label: "stopped after the model's plans were refused in a row", matches: (reason) => reason.startsWith("the model's plans were refused") },
    { label: 'stopped: the model gave no usable reply (a failure of the run, not infrastructure)', matches: (reason) => reason.startsWith('model reply: ') },
  ];
  const estimated = results.tasks.filter((run) => (run.estimatedUsageCalls ?? 0) > 0);
  const cached = results.tasks.reduce((total, run) => total + (run.cachedPromptTokens ?? 0), 0);
  const usageNotes = [
    ...(estimated.length === 0 ? [] : [`tokens estimated locally (the endpoint sent no usage) for ${results.modes.map((metrics) => `${metrics.mode} ${results.tasks.filter((run) => run.mode === metrics.mode).reduce((total, run) => total + (run.estimatedUsageCalls ?? 0), 0)} of ${metrics.llmCalls + metrics.vlmCalls} calls`).join(', ')}`]),
    ...(cached === 0 ? [] : [`cached prompt tokens (inside tok in, ${results.prices.cachedPromptPerMillionUsd === undefined ? 'priced as prompt tokens: no cached price given' : `at $${results.prices.cachedPromptPerMillionUsd} per 1M`}): ${results.modes.map((metrics) => cachedOfMode(metrics, results.tasks)).join(', ')}`]),
  ];
  return [...usageNotes, ...kinds.flatMap(({ label, matches }) => {
    const stopped = results.tasks.filter((run) => run.stopReason !== undefined && matches(run.stopReason));
    if (stopped.length === 0) return [];
    const byMode = results.modes.map((metrics) => `${metrics.mode} ${stopped.filter((run) => run.mode === metrics.mode).length}/${metrics.tasks}`).join(', ');
    return [`${label}: ${byMode} (e.g. ${stopped[0]?.id} ${stopped[0]?.mode}: ${stopped[0]?.stopReason})`];
  })];
}

/**
 * How the models' structured replies were read, per mode and role: read only after a
 * repair / read, the repairs by kind, the replies that did not validate. Shown for a model
 * policy, and for the oracle when a reply needed a repair (injected model faults).
 */
function replyRepairNotes(results: BenchResults): string[] {
  const modes = results.modes.flatMap((metrics) => (metrics.replyRepairs === undefined ? [] : [{ mode: metrics.mode, byRole: metrics.replyRepairs }]));
  const troubled = modes.some(({ byRole }) => Object.values(byRole).some((tally) => tally !== undefined && tally.repaired + tally.invalid > 0));
  if (modes.length === 0 || (results.oracle && !troubled)) return [];
  return [`reply repairs (replies read only after a repair / replies read, per role; by kind): ${modes.map(({ mode, byRole }) => `${mode} ${describeReplyRepairs(byRole)}`).join('; ')}`];
}

function modelFaultNotes(results: BenchResults): string[] {
  if (results.options.modelFaults === null) return [];
  const kinds = (metrics: ModeMetrics): string => {
    const entries = Object.entries(metrics.modelFaultKinds).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return entries.length === 0 ? 'none' : entries.map(([kind, count]) => `${kind} ×${count}`).join(', ');
  };
  return [
    `model faults (--model-faults ${results.options.modelFaults}, injected into the oracle's replies) by kind:`,
    ...results.modes.map((metrics) => `  ${metrics.mode}: ${kinds(metrics)}; ${metrics.modelFaultsSurvived} of ${metrics.modelFaultsMet} runs that met one succeeded`),
  ];
}

/**
 * One footer line per mode that used meta-plans, voting or app memory: what they did and
 * cost per run (their calls and tokens are already inside the table's totals).
 */
function planningNote(mode: string, usage: NonNullable<ModeMetrics['planning']>): string {
  const per = (value: number): string => (value / Math.max(usage.runs, 1)).toFixed(value / Math.max(usage.runs, 1) >= 10 ? 0 : 2);
  const parts: string[] = [];
  if (usage.metaPlans > 0) parts.push(`meta-plans ${per(usage.metaPlans)}/run (${per(usage.metaPlanCalls)} calls, ${per(usage.metaPlanTokens)} tok), last plan's sub-tasks ${per(usage.subtasks)}/run: ${per(usage.subtasksChecked)} done by check, ${per(usage.subtasksClaimed)} by the planner's word; FINISH refused ${usage.finishRefusals} times`);
  if (usage.voteExtraCalls > 0) parts.push(`vote: +${per(usage.voteExtraCalls)} calls/run, +${per(usage.voteExtraTokens)} tok/run, ${usage.voteSplits} rounds with split votes`);
  if (usage.memoryHints > 0) parts.push(`app memory: ${per(usage.memoryHints)} hints/run, ${per(usage.memoryTokens)} tok/run`);
  return `planning ${mode} (${usage.runs} runs): ${parts.length > 0 ? parts.join('; ') : 'on, nothing used'}`;
}

/** A mode's cached prompt tokens for the table's note (summed over its runs: results written before modes counted them), with their share of its prompt tokens: `senseact 4210 (48.1%)`, `react-vlm 0`. */
function cachedOfMode(metrics: ModeMetrics, runs: BenchResults['tasks']): string {
  const cached = runs.filter((run) => run.mode === metrics.mode).reduce((total, run) => total + (run.cachedPromptTokens ?? 0), 0);
  return cached === 0 || metrics.promptTokens === 0 ? `${metrics.mode} ${cached}` : `${metrics.mode} ${cached} (${((cached / metrics.promptTokens) * 100).toFixed(1)}%)`;
}
