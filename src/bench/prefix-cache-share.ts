import type { AgentMode } from '../agent/task-run-result.js';
import { cachedTokensUnder, prefixCacheModels, type PrefixCacheModel } from '../model/prefix-cache-model.js';
import { PromptPrefixIndex } from '../model/prompt-prefix-index.js';

/** One model call of a bench, in the order the endpoint received it. */
export interface BenchPromptCall {
  readonly mode: AgentMode;
  readonly role: string;
  readonly promptTokens: number;
  /** The prompt as a provider reads it (`promptPrefixText` of its messages). */
  readonly text: string;
  /** Tokens of its start an earlier call of the same run began with (the ledger's `sharedPrefixTokens`). */
  readonly sharedInRun: number;
}

/** The stable prefix of one mode and role: how much of its prompt tokens a cache could serve, per run and across the bench. */
export interface PrefixCacheShare {
  readonly mode: AgentMode;
  readonly role: string;
  readonly calls: number;
  readonly promptTokens: number;
  /** Σ tokens shared with an earlier call of the same run. */
  readonly sharedInRun: number;
  /** Σ tokens served across the bench, per cache model (`PrefixCacheModel.name`). */
  readonly servedAcrossBench: Readonly<Record<string, number>>;
}

/**
 * The stable prefix of every mode and role of a bench: per run (what an earlier call of
 * the same run began with) and across the bench (what any earlier call of the bench began
 * with, as one endpoint's prefix cache sees them, in each cache model's block granularity
 * and minimum). `calls` must be in the order the endpoint received them. Assumes the cache
 * keeps every earlier prompt (no eviction). Pure.
 */
export function prefixCacheShares(calls: readonly BenchPromptCall[], models: readonly PrefixCacheModel[] = prefixCacheModels): PrefixCacheShare[] {
  const index = new PromptPrefixIndex();
  const shares = new Map<string, { mode: AgentMode; role: string; calls: number; promptTokens: number; sharedInRun: number; served: Record<string, number> }>();
  for (const call of calls) {
    const shared = index.sharedTokens(call.text);
    index.add(call.text);
    const key = `${call.mode}\u0000${call.role}`;
    let share = shares.get(key);
    if (share === undefined) {
      share = { mode: call.mode, role: call.role, calls: 0, promptTokens: 0, sharedInRun: 0, served: Object.fromEntries(models.map((model) => [model.name, 0])) };
      shares.set(key, share);
    }
    share.calls += 1;
    share.promptTokens += call.promptTokens;
    share.sharedInRun += Math.min(call.sharedInRun, call.promptTokens);
    for (const model of models) share.served[model.name] = (share.served[model.name] ?? 0) + cachedTokensUnder(model, shared, call.promptTokens);
  }
  return [...shares.values()].map(({ served, ...share }) => ({ ...share, servedAcrossBench: served }));
}

/** The shares as a table (percent of each role's prompt tokens) with one line per cache model saying what it stands for. Pure. */
export function formatPrefixCacheShares(shares: readonly PrefixCacheShare[], models: readonly PrefixCacheModel[] = prefixCacheModels): string {
  const percent = (part: number, whole: number): string => (whole === 0 ? '-' : `${((part / whole) * 100).toFixed(1)}%`);
  const headers = ['mode', 'role', 'calls', 'prompt/call', 'per run', ...models.map((model) => `bench ${model.name}`)];
  const rows = shares.map((share) => [share.mode, share.role, String(share.calls), (share.promptTokens / Math.max(share.calls, 1)).toFixed(0), percent(share.sharedInRun, share.promptTokens), ...models.map((model) => percent(share.servedAcrossBench[model.name] ?? 0, share.promptTokens))]);
  const widths = headers.map((header, column) => Math.max(header.length, ...rows.map((row) => row[column]!.length)));
  const line = (cells: readonly string[]): string => cells.map((cell, column) => (column < 2 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join('  ').trimEnd();
  return [
    'Stable prefix (share of prompt tokens a prefix cache can serve):',
    line(headers),
    widths.map((width) => '-'.repeat(width)).join('  '),
    ...rows.map(line),
    '(per run: the start an earlier call of the same run began with; bench: the start any earlier call of the bench began',
    " with, as one endpoint's cache sees them in its blocks and minimum, keeping every prompt)",
    ...models.map((model) => `  bench ${model.name}: ${model.describes}`),
  ].join('\n');
}
