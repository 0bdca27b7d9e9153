import type { TaskRunResult } from '../agent/task-run-result.js';
import { computeSkillMetrics } from './skill-metrics.js';

/**
 * The skills table printed under the results table when runs were given skills: per
 * mode, skill hits and misses, hand-overs, completed replays, skills the planner called
 * by name (and how many completed), planner calls per run, runs finished with zero
 * planner calls (vision or a verifier may have been asked) and with zero model calls at
 * all, and false matches (a skill whose checks passed on
 * a task whose check failed). Empty when no run was given skills.
 */
export function formatSkillTable(runs: readonly TaskRunResult[]): string {
  const metrics = computeSkillMetrics(runs);
  if (metrics.length === 0) return '';
  const header = ['mode', 'runs', 'hits', 'misses', 'hand-overs', 'completed', 'called (done)', 'skill steps', 'planner calls/run', 'zero-planner runs', 'zero-model runs', 'zero-model ok', 'false matches', 'success'];
  const rows = metrics.map((metric) => [
    metric.mode,
    String(metric.runs),
    String(metric.hits),
    String(metric.misses),
    String(metric.handOvers),
    String(metric.completed),
    `${metric.called} (${metric.calledCompleted})`,
    String(metric.skillSteps),
    metric.plannerCallsPerRun.toFixed(2),
    `${metric.zeroPlannerCalls} (${percent(metric.zeroPlannerCalls, metric.runs)})`,
    `${metric.zeroModelCalls} (${percent(metric.zeroModelCalls, metric.runs)})`,
    String(metric.zeroModelSuccesses),
    String(metric.falseMatches),
    `${metric.successes}/${metric.runs} (${percent(metric.successes, metric.runs)})`,
  ]);
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)));
  const line = (cells: readonly string[]): string => cells.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join('  ').trimEnd();
  return `skills\n${[line(header), line(widths.map((width) => '-'.repeat(width))), ...rows.map(line)].join('\n')}\n`;
}

function percent(part: number, whole: number): string {
  return whole === 0 ? '-' : `${((100 * part) / whole).toFixed(1)}%`;
}
