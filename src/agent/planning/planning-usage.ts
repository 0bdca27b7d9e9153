import { z } from 'zod';
import type { UsageLedger } from '../../model/usage-ledger.js';

const count = z.number().int().nonnegative();

/**
 * What meta-plans, voting and app memory did and cost in one run (docs/planning.md), beside the
 * run's totals (which already include these calls and tokens): how many meta-plans were
 * asked for and what they cost, the progress at the end, the FINISH requests refused
 * because a sub-task's check had not held, the extra plan samples voting drew (calls and
 * tokens beyond the one plan a round needs) and how often they disagreed, and the prompt
 * tokens of the app-memory hints.
 */
export const planningUsageSchema = z.object({
  metaPlans: count,
  metaPlanCalls: count,
  metaPlanTokens: count,
  /** Sub-tasks of the last meta-plan, and how many of them a check marked done / only the planner's word did. */
  subtasks: count,
  subtasksChecked: count,
  subtasksClaimed: count,
  finishRefusals: count,
  /** Plan samples beyond the first (the price of voting), and their prompt + completion tokens. */
  voteExtraCalls: count,
  voteExtraTokens: count,
  /** Rounds whose samples did not all agree on the commitment. */
  voteSplits: count,
  /** App-memory hints injected into planner prompts, and their estimated prompt tokens. */
  memoryHints: count,
  memoryTokens: count,
});
export type PlanningUsage = z.infer<typeof planningUsageSchema>;

/** Every count at zero. */
export function emptyPlanningUsage(): PlanningUsage {
  return { metaPlans: 0, metaPlanCalls: 0, metaPlanTokens: 0, subtasks: 0, subtasksChecked: 0, subtasksClaimed: 0, finishRefusals: 0, voteExtraCalls: 0, voteExtraTokens: 0, voteSplits: 0, memoryHints: 0, memoryTokens: 0 };
}

/** Calls and tokens the ledger entered since `from` (an entry count taken before the calls). */
export function ledgerSince(ledger: UsageLedger, from: number): { calls: number; tokens: number } {
  const entries = ledger.entries.slice(from);
  return { calls: entries.length, tokens: entries.reduce((sum, entry) => sum + entry.promptTokens + entry.completionTokens, 0) };
}
