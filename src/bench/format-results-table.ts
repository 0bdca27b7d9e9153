import type { BenchResults, ModeMetrics } from './bench-results.js';

interface Column {
  readonly header: string;
  readonly align: 'left' | 'right';
  readonly value: (metrics: ModeMetrics) => string;
}

const columns: readonly Column[] = [
  { header: 'mode', align: 'left', value: (m) => m.mode },
  { header: 'runs', align: 'right', value: (m) => String(m.tasks) },
  { header: 'success', align: 'right', value: (m) => `${m.successes}/${m.tasks}` },
  { header: 'rate', align: 'right', value: (m) => percent(m.successRate) },
  { header: 'llm', align: 'right', value: (m) => String(m.llmCalls) },
  { header: 'vlm', align: 'right', value: (m) => String(m.vlmCalls) },
  { header: 'images', align: 'right', value: (m) => String(m.imagesUploaded) },
  { header: 'img KiB', align: 'right', value: (m) => (m.imageBytes / 1024).toFixed(1) },
  { header: 'tok in', align: 'right', value: (m) => String(m.promptTokens) },
  { header: 'tok out', align: 'right', value: (m) => String(m.completionTokens) },
  { header: 'cost $', align: 'right', value: (m) => m.costUsd.toFixed(4) },
  { header: 'steps/run', align: 'right', value: (m) => m.steps.mean.toFixed(1) },
  { header: 'ms/run', align: 'right', value: (m) => m.latency.totalMs.mean.toFixed(0) },
  { header: 'vlm red. task/agg', align: 'right', value: (m) => (m.vlmReduction === null ? '-' : `${percent(m.vlmReduction.perTaskMean)}/${percent(m.vlmReduction.aggregate)}`) },
  { header: 'errors', align: 'right', value: (m) => String(m.errors) },
  { header: 'faults ok/met', align: 'right', value: (m) => `${m.faultsSurvived}/${m.faultsMet}` },
];

/**
 * The comparison table of a benchmark as plain text: a title line, aligned columns with
 * one row per mode, and footer lines (prices, VLM reduction baseline, completeness).
 * Pure: the same results give the same text. Ends with a newline.
 */
export function formatResultsTable(results: BenchResults): string {
  const policy = results.oracle ? 'oracle policy (reference solutions, no model)' : `llm policy (model: ${results.options.modelLabel})`;
  const title = `SenseAct bench: suite ${results.options.suite}, ${policy}`;
  const rows = [columns.map((column) => column.header), ...results.modes.map((metrics) => columns.map((column) => column.value(metrics)))];
  const widths = columns.map((_, index) => Math.max(...rows.map((row) => (row[index] ?? '').length)));
  const render = (row: readonly string[]): string =>
    columns
      .map((column, index) => {
        const cell = row[index] ?? '';
        const width = widths[index] ?? cell.length;
        return column.align === 'left' ? cell.padEnd(width) : cell.padStart(width);
      })
      .join('  ')
      .trimEnd();
  const [header, ...body] = rows;
  const lines = [title, render(header ?? []), widths.map((width) => '-'.repeat(width)).join('  '), ...body.map(render)];
  lines.push(`cost at ${results.prices.label}`);
  const baselineRan = results.modes.some((metrics) => metrics.vlmReduction !== null);
  lines.push(baselineRan
    ? 'vlm red.: 1 - images(mode)/images(react-vlm), per-task mean / aggregate ratio, over tasks where react-vlm sent >= 1 image'
    : 'vlm red.: not measured (react-vlm was not run)');
  const finished = results.tasks.length;
  lines.push(results.complete
    ? `${finished} runs, wall time ${(results.wallTimeMs / 1000).toFixed(1)} s`
    : `INCOMPLETE: ${finished} of ${results.expectedRuns} runs finished; run again with --resume to finish`);
  return `${lines.join('\n')}\n`;
}

function percent(value: number): string {
  return `${(value * 100).toFixed(1)}%`;
}
