import type { UsageTotals } from './usage-ledger.js';

/**
 * Limits on what one run may spend on models (`--max-model-calls`, `--max-tokens`,
 * `--max-cost`, or a task file's `modelBudget:`, whose schema is in tasks/task-schema.ts).
 * A run that reaches one stops with the reason `budget: …`: the model's failure of that
 * run, not an infrastructure error.
 */
export interface ModelBudget {
  /** Model calls (every role; retries of one call are one call). */
  readonly maxModelCalls?: number | undefined;
  /** Prompt plus completion tokens, as the endpoint reported them (or estimated). */
  readonly maxTokens?: number | undefined;
  /** US dollars at the run's prices (needs known prices). */
  readonly maxCostUsd?: number | undefined;
}

/** Prices a cost budget is counted at, USD per 1M tokens. */
export interface BudgetPrices {
  readonly promptPerMillionUsd: number;
  readonly completionPerMillionUsd: number;
  /** Cached prompt tokens, when the endpoint reports them and bills them lower; default the prompt price. */
  readonly cachedPromptPerMillionUsd?: number;
}

/** The tighter of two budgets, limit by limit. */
export function tighterBudget(a: ModelBudget | undefined, b: ModelBudget | undefined): ModelBudget | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  const least = (x: number | undefined, y: number | undefined): number | undefined => (x === undefined ? y : y === undefined ? x : Math.min(x, y));
  const calls = least(a.maxModelCalls, b.maxModelCalls);
  const tokens = least(a.maxTokens, b.maxTokens);
  const cost = least(a.maxCostUsd, b.maxCostUsd);
  return { ...(calls === undefined ? {} : { maxModelCalls: calls }), ...(tokens === undefined ? {} : { maxTokens: tokens }), ...(cost === undefined ? {} : { maxCostUsd: cost }) };
}

/** The cost of `totals` at `prices`, in US dollars (cached prompt tokens at their own price when given). */
export function costOf(totals: Pick<UsageTotals, 'promptTokens' | 'completionTokens'> & { readonly cachedPromptTokens?: number }, prices: BudgetPrices): number {
  const cached = totals.cachedPromptTokens ?? 0;
  const cachedPrice = prices.cachedPromptPerMillionUsd ?? prices.promptPerMillionUsd;
  return ((totals.promptTokens - cached) * prices.promptPerMillionUsd + cached * cachedPrice + totals.completionTokens * prices.completionPerMillionUsd) / 1_000_000;
}

/**
 * Which limit of `budget` the spending so far has reached, in words (`12 model calls
 * reached the limit of 12 (--max-model-calls)`), or undefined while another call may go.
 * Checked before each call: the call that crosses a token or cost limit completes, the
 * next one is not sent.
 */
export function budgetReached(budget: ModelBudget, totals: Pick<UsageTotals, 'calls' | 'promptTokens' | 'completionTokens'> & { readonly cachedPromptTokens?: number }, prices: BudgetPrices | undefined): string | undefined {
  if (budget.maxModelCalls !== undefined && totals.calls >= budget.maxModelCalls) return `${totals.calls} model calls reached the limit of ${budget.maxModelCalls} (--max-model-calls)`;
  const tokens = totals.promptTokens + totals.completionTokens;
  if (budget.maxTokens !== undefined && tokens >= budget.maxTokens) return `${tokens} tokens reached the limit of ${budget.maxTokens} (--max-tokens)`;
  if (budget.maxCostUsd !== undefined && prices !== undefined) {
    const cost = costOf(totals, prices);
    if (cost >= budget.maxCostUsd) return `$${cost.toFixed(4)} reached the limit of $${budget.maxCostUsd} (--max-cost)`;
  }
  return undefined;
}
