import type { AgentMode, TaskRunResult } from '../agent/task-run-result.js';
import { maxHighDetailImageTokens } from '../model/image-tokens.js';
import { promptSectionSchema, type PromptSection } from '../model/prompt-section.js';

/** One model call of a run as the trace records it: its role and its prompt tokens by section. */
export interface CallSections {
  readonly role: string;
  readonly promptTokens: number;
  readonly sections: Readonly<Record<string, number>>;
  /** Tokens at the start of its prompt shared with an earlier call of the run (what a prefix cache could serve); absent: none. */
  readonly sharedPrefixTokens?: number;
}

/** Prompt tokens of one mode: per task and per call, by section. */
export interface ModeTokenBreakdown {
  readonly mode: AgentMode;
  readonly tasks: number;
  readonly successes: number;
  /** Runs with an infrastructure error, left out of every mean. */
  readonly errors: number;
  /** Mean model calls per task. */
  readonly callsPerTask: number;
  /** Mean prompt tokens per task, by section. */
  readonly perTask: Partial<Record<PromptSection, number>>;
  /** Mean prompt tokens per task (the provider's count when one was given, else the local estimate). */
  readonly promptPerTask: number;
  readonly completionPerTask: number;
  /** Mean prompt tokens per task if every screenshot were a 1080×2400 phone screenshot at high detail (1445 tokens). */
  readonly promptPerTaskAtPhoneSize: number;
  /** Per role: calls and mean prompt tokens per call by section. */
  readonly perCall: Readonly<Record<string, { readonly calls: number; readonly sections: Partial<Record<PromptSection, number>>; readonly prompt: number; readonly sharedPrefix: number }>>;
}

/** How two modes compare on the same tasks (clean runs of both). */
export interface PairedTokenRatio {
  readonly mode: AgentMode;
  readonly baseline: AgentMode;
  readonly pairedTasks: number;
  /** Median over tasks of prompt(mode) / prompt(baseline). */
  readonly medianRatio: number;
  /** Σ prompt(mode) / Σ prompt(baseline). */
  readonly aggregateRatio: number;
  /** Tasks on which the mode used at most the baseline's prompt tokens. */
  readonly tasksNotMoreExpensive: number;
  /** True when every screenshot was costed as a 1080×2400 phone screenshot at high detail. */
  readonly phoneSize: boolean;
}

/**
 * Prompt tokens by section for each mode, per task and per call, from a benchmark's run
 * results and (optionally) the model calls of each run read from its trace. Runs with an
 * infrastructure error are left out. Pure.
 */
export function promptTokenBreakdown(
  runs: readonly TaskRunResult[],
  modes: readonly AgentMode[],
  callsOf: (run: TaskRunResult) => readonly CallSections[] = () => [],
): ModeTokenBreakdown[] {
  return modes.map((mode) => {
    const all = runs.filter((run) => run.mode === mode);
    const clean = all.filter((run) => run.error === null);
    const count = clean.length;
    const mean = (pick: (run: TaskRunResult) => number): number => (count === 0 ? 0 : clean.reduce((total, run) => total + pick(run), 0) / count);
    const perTask: Partial<Record<PromptSection, number>> = {};
    for (const section of promptSectionSchema.options) {
      const value = mean((run) => run.promptTokensBySection[section] ?? 0);
      if (value !== 0) perTask[section] = value;
    }
    const perCall: Record<string, { calls: number; totals: Partial<Record<PromptSection, number>>; prompt: number; shared: number }> = {};
    for (const run of clean) {
      for (const call of callsOf(run)) {
        const entry = (perCall[call.role] ??= { calls: 0, totals: {}, prompt: 0, shared: 0 });
        entry.calls += 1;
        entry.prompt += call.promptTokens;
        entry.shared += call.sharedPrefixTokens ?? 0;
        for (const [section, tokens] of Object.entries(call.sections)) {
          const known = promptSectionSchema.safeParse(section);
          const key: PromptSection = known.success ? known.data : 'other';
          entry.totals[key] = (entry.totals[key] ?? 0) + tokens;
        }
      }
    }
    return {
      mode,
      tasks: count,
      successes: clean.filter((run) => run.success).length,
      errors: all.length - count,
      callsPerTask: mean((run) => run.llmCalls + run.vlmCalls),
      perTask,
      promptPerTask: mean((run) => run.promptTokens),
      completionPerTask: mean((run) => run.completionTokens),
      promptPerTaskAtPhoneSize: mean((run) => run.promptTokens - run.imageTokens + run.imagesUploaded * maxHighDetailImageTokens),
      perCall: Object.fromEntries(
        Object.entries(perCall).map(([role, entry]) => [
          role,
          {
            calls: entry.calls,
            prompt: entry.prompt / entry.calls,
            sharedPrefix: entry.shared / entry.calls,
            sections: Object.fromEntries(Object.entries(entry.totals).map(([section, tokens]) => [section, tokens / entry.calls])) as Partial<Record<PromptSection, number>>,
          },
        ]),
      ),
    };
  });
}

/**
 * Prompt tokens of `mode` against `baseline` per task (first clean run of each task on
 * both sides). `phoneSize` costs every screenshot as a 1080×2400 phone screenshot at high
 * detail. Undefined when no task is paired.
 */
export function pairedTokenRatio(runs: readonly TaskRunResult[], mode: AgentMode, baseline: AgentMode, options: { phoneSize?: boolean } = {}): PairedTokenRatio | undefined {
  const tokens = (run: TaskRunResult): number => (options.phoneSize === true ? run.promptTokens - run.imageTokens + run.imagesUploaded * maxHighDetailImageTokens : run.promptTokens);
  const byTask = (which: AgentMode): Map<string, number> => {
    const result = new Map<string, number>();
    for (const run of runs) if (run.mode === which && run.error === null && !result.has(run.id)) result.set(run.id, tokens(run));
    return result;
  };
  const own = byTask(mode);
  const base = byTask(baseline);
  const ratios: number[] = [];
  let ownTotal = 0;
  let baseTotal = 0;
  let notMore = 0;
  for (const [id, value] of own) {
    const other = base.get(id);
    if (other === undefined || other === 0) continue;
    ratios.push(value / other);
    ownTotal += value;
    baseTotal += other;
    if (value <= other) notMore += 1;
  }
  if (ratios.length === 0) return undefined;
  ratios.sort((a, b) => a - b);
  const middle = Math.floor(ratios.length / 2);
  const median = ratios.length % 2 === 1 ? ratios[middle]! : (ratios[middle - 1]! + ratios[middle]!) / 2;
  return { mode, baseline, pairedTasks: ratios.length, medianRatio: median, aggregateRatio: ownTotal / baseTotal, tasksNotMoreExpensive: notMore, phoneSize: options.phoneSize === true };
}

/** The breakdown as text tables: per task by section, per call by role, then the ratios. Pure. */
export function formatPromptTokenBreakdown(breakdown: readonly ModeTokenBreakdown[], ratios: readonly PairedTokenRatio[]): string {
  const sections = promptSectionSchema.options.filter((section) => breakdown.some((mode) => (mode.perTask[section] ?? 0) > 0 || Object.values(mode.perCall).some((role) => (role.sections[section] ?? 0) > 0)));
  const round = (value: number | undefined): string => (value === undefined || value === 0 ? '-' : value.toFixed(0));
  const table = (headers: string[], rows: string[][]): string[] => {
    const widths = headers.map((header, index) => Math.max(header.length, ...rows.map((row) => (row[index] ?? '').length)));
    const line = (cells: string[]): string => cells.map((cell, index) => (index < 2 ? cell.padEnd(widths[index]!) : cell.padStart(widths[index]!))).join('  ').trimEnd();
    return [line(headers), widths.map((width) => '-'.repeat(width)).join('  '), ...rows.map(line)];
  };
  const lines = ['Prompt tokens per task (mean over clean runs), by section:'];
  lines.push(
    ...table(
      ['mode', 'success', 'calls', ...sections, 'prompt', 'completion', 'prompt@phone'],
      breakdown.map((mode) => [mode.mode, `${mode.successes}/${mode.tasks}${mode.errors > 0 ? ` (+${mode.errors} err)` : ''}`, mode.callsPerTask.toFixed(1), ...sections.map((section) => round(mode.perTask[section])), round(mode.promptPerTask), round(mode.completionPerTask), round(mode.promptPerTaskAtPhoneSize)]),
    ),
  );
  lines.push('', 'Prompt tokens per call (mean), by role and section:');
  const callRows = breakdown.flatMap((mode) =>
    Object.entries(mode.perCall).map(([role, entry]) => [mode.mode, role, String(entry.calls), ...sections.map((section) => round(entry.sections[section])), round(entry.prompt), round(entry.sharedPrefix), entry.prompt === 0 ? '-' : `${((entry.sharedPrefix / entry.prompt) * 100).toFixed(0)}%`]),
  );
  lines.push(...table(['mode', 'role', 'calls', ...sections, 'prompt', 'shared start', 'share'], callRows));
  lines.push('(shared start: tokens at the start of the prompt an earlier call of the run began with too, what a prefix cache can serve)');
  if (ratios.length > 0) {
    lines.push('', 'Paired per task (prompt tokens):');
    for (const ratio of ratios) {
      lines.push(`${ratio.mode} / ${ratio.baseline}${ratio.phoneSize ? ' (screenshots costed at 1080×2400)' : ''}: median ${ratio.medianRatio.toFixed(2)}, aggregate ${ratio.aggregateRatio.toFixed(2)}, not more expensive on ${ratio.tasksNotMoreExpensive} of ${ratio.pairedTasks} tasks`);
    }
  }
  return `${lines.join('\n')}\n`;
}
