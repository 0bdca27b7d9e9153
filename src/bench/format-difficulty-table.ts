import type { BenchResults } from './bench-results.js';

const difficulties = ['easy', 'medium', 'hard'] as const;

function percent(value: number): string {
  return `${(value * 100).toFixed(1)}%`;
}

/**
 * Success per difficulty (rows easy, medium, hard, all) for every mode, beside the suite's
 * own benchmark's published rate (`results.reference`). Empty when the results carry no
 * published figures (so suites without them print what they did before). Pure; ends with a
 * newline when not empty.
 */
export function formatDifficultyTable(results: BenchResults): string {
  const reference = results.reference;
  if (reference === null || reference === undefined) return '';
  const published = (value: number | null | undefined): string => (value === null || value === undefined ? 'not transcribed' : percent(value));
  const headers = ['difficulty', ...results.modes.map((metrics) => `${metrics.mode}${results.oracle ? ' (oracle)' : ''}`), `${reference.benchmark}: ${reference.agent}`];
  const rows = [
    ...difficulties.map((difficulty) => [
      difficulty,
      ...results.modes.map((metrics) => {
        const entry = metrics.perDifficulty?.[difficulty];
        return entry === undefined ? '-' : `${entry.successes}/${entry.tasks} ${percent(entry.successRate)}`;
      }),
      published(reference.byDifficulty[difficulty]),
    ]),
    ['all', ...results.modes.map((metrics) => `${metrics.successes}/${metrics.tasks} ${percent(metrics.successRate)}`), published(reference.successRate)],
  ];
  const widths = headers.map((header, column) => Math.max(header.length, ...rows.map((row) => (row[column] ?? '').length)));
  const line = (cells: readonly string[]): string => cells.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join('  ').trimEnd();
  return [
    'Per difficulty, beside the published figure',
    line(headers),
    line(widths.map((width) => '-'.repeat(width))),
    ...rows.map(line),
    `published: ${reference.source}${reference.note === undefined ? '' : `; ${reference.note}`}`,
    '',
  ].join('\n');
}
