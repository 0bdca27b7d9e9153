import type { UiTree } from '../ui/ui-tree.js';
import { evaluatePredicate } from '../verify/evaluate-predicate.js';
import { parsePredicate } from '../verify/parse-predicate.js';
import type { SuccessResult } from './evaluate-success.js';
import type { Task } from './task-schema.js';

/** A task's sub-goals at the end of a run (AndroidLab's Sub-SR counts them). */
export interface SubGoalCount {
  readonly met: number;
  readonly total: number;
}

/**
 * Splits a task's success check into sub-goals and counts those met: each state check,
 * each adb check and the answer is one; the screen predicate is one per operand of a
 * top-level `and` (a form's fields and its saved value are separate sub-goals), else
 * one. A sub-goal is met when it passes; inconclusive is not met. The task's verdict
 * (`verdict`) already holds the non-screen parts, so only the screen is re-evaluated.
 */
export function countSubGoals(task: Task, verdict: SuccessResult, finalTree: UiTree): SubGoalCount {
  let met = 0;
  let total = 0;
  for (const check of verdict.checks) {
    if (check.kind === 'screen') continue;
    total += 1;
    if (check.outcome === 'pass') met += 1;
  }
  const screen = task.success?.screen;
  if (screen !== undefined) {
    const predicate = parsePredicate(screen);
    const parts = predicate.kind === 'and' ? predicate.operands : [predicate];
    for (const part of parts) {
      total += 1;
      if (evaluatePredicate(part, { after: finalTree }).outcome === 'pass') met += 1;
    }
  }
  return { met, total };
}
