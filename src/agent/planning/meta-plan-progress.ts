import { z } from 'zod';
import type { UiTree } from '../../ui/ui-tree.js';
import type { Delta } from '../../verify/compute-delta.js';
import { evaluatePredicate } from '../../verify/evaluate-predicate.js';
import { parsePredicate, safeParsePredicate } from '../../verify/parse-predicate.js';

/** A meta-plan has at most this many sub-tasks (MAPLE's few sub-tasks; more is a script, not a plan). */
export const maxSubTasks = 5;

/** How many meta-plans one run may ask for (the first, and re-plans when one is exhausted). */
export const maxMetaPlans = 3;

/** A completion predicate in the predicate text form, checked by the parser the evaluator uses. */
const completionPredicate = z.string().superRefine((text, context) => {
  if (text.trim() === '') return;
  const parsed = safeParsePredicate(text);
  if (!parsed.success) context.addIssue({ code: 'custom', message: `done is not a valid predicate: ${parsed.error.message}` });
});

/**
 * One sub-task of a meta-plan: what to reach, and (optionally) the predicate that says on
 * the screen that it is reached, and the app or page where it happens.
 */
export const subTaskSchema = z.strictObject({
  name: z.string().min(1),
  /** Completion predicate over the screen (and the last intent's change); empty or absent: only the planner's word. */
  done: completionPredicate.optional(),
  app: z.string().optional(),
  page: z.string().optional(),
});
export type SubTask = z.infer<typeof subTaskSchema>;

/** What the planner returns when asked for a meta-plan (MAPLE): a few ordered sub-tasks. */
export const metaPlanReplySchema = z.strictObject({
  subtasks: z.array(subTaskSchema).min(1).max(maxSubTasks),
});
export type MetaPlanReply = z.infer<typeof metaPlanReplySchema>;

/**
 * Where a sub-task stands: `checked` (its predicate held on a screen after an executed
 * intent, or when FINISH was asked), `claimed` (the planner said it is done; it has no
 * predicate, or the predicate has not held yet), `pending`.
 */
export const subTaskStatusSchema = z.enum(['checked', 'claimed', 'pending']);
export type SubTaskStatus = z.infer<typeof subTaskStatusSchema>;

/** The progress vector of a meta-plan: one status per sub-task, and the step each was checked at. */
export const metaPlanProgressSchema = z.object({
  subtasks: z.array(subTaskSchema),
  status: z.array(subTaskStatusSchema),
  /** Rounds since every sub-task was done while the planner went on instead of finishing. */
  roundsPastDone: z.number().int().nonnegative(),
});
export type MetaPlanProgress = z.infer<typeof metaPlanProgressSchema>;

/** A fresh progress vector: every sub-task pending. */
export function newProgress(plan: MetaPlanReply): MetaPlanProgress {
  return { subtasks: plan.subtasks, status: plan.subtasks.map(() => 'pending' as const), roundsPastDone: 0 };
}

function hasPredicate(subtask: SubTask): boolean {
  return subtask.done !== undefined && subtask.done.trim() !== '';
}

/**
 * Checks the sub-tasks in order against a screen (and the change that led to it, when
 * given): each unchecked sub-task whose predicate passes becomes `checked`, and the first
 * whose predicate does not pass stops the walk — a later sub-task counts only once the
 * checked ones before it are done, so a page that already shows a later sub-task's
 * evidence (a tab open at launch) does not mark it done early. Sub-tasks without a
 * predicate never block (their status is the planner's word). A checked sub-task stays
 * checked (its effect may scroll out of view). Returns the indices newly checked. Pure
 * apart from updating `progress`.
 */
export function checkProgress(progress: MetaPlanProgress, screen: { readonly after: UiTree; readonly before?: UiTree; readonly delta?: Delta }): number[] {
  const checked: number[] = [];
  for (const [index, subtask] of progress.subtasks.entries()) {
    if (progress.status[index] === 'checked' || !hasPredicate(subtask)) continue;
    if (evaluatePredicate(parsePredicate(subtask.done ?? ''), screen).outcome !== 'pass') break;
    progress.status[index] = 'checked';
    checked.push(index);
  }
  return checked;
}

/**
 * A new plan's progress keeps what the last one checked: a sub-task of the new plan with
 * the same name and check as a checked one of the old plan starts checked (re-planning
 * must not undo verified progress whose evidence has left the screen).
 */
export function carryOver(next: MetaPlanProgress, previous: MetaPlanProgress | undefined): void {
  if (!previous) return;
  const key = (subtask: SubTask): string => `${subtask.name}\u0000${subtask.done ?? ''}`;
  // A multiset: a sub-task the old plan had twice (add two cities) carries over at most twice.
  const done = new Map<string, number>();
  previous.subtasks.forEach((subtask, index) => {
    if (previous.status[index] === 'checked') done.set(key(subtask), (done.get(key(subtask)) ?? 0) + 1);
  });
  next.subtasks.forEach((subtask, index) => {
    const left = done.get(key(subtask)) ?? 0;
    if (left === 0) return;
    done.set(key(subtask), left - 1);
    next.status[index] = 'checked';
  });
}

/** Marks the sub-tasks the planner says are done (1-based numbers) `claimed`, unless already checked. Unknown numbers are ignored. */
export function claimProgress(progress: MetaPlanProgress, numbers: readonly number[]): void {
  for (const number of numbers) {
    const index = number - 1;
    if (progress.status[index] === 'pending') progress.status[index] = 'claimed';
  }
}

/** True when every sub-task is checked or claimed. */
export function allDone(progress: MetaPlanProgress): boolean {
  return progress.status.every((status) => status !== 'pending');
}

/**
 * Why FINISH must be refused: the first sub-task that has a completion predicate and has
 * not been checked, with its predicate's verdict on the current screen. Undefined when
 * every sub-task with a predicate has held. Sub-tasks without a predicate never block
 * (only a check can refuse; the planner's word is all there is for them).
 */
export function finishRefusal(progress: MetaPlanProgress, screen: UiTree): string | undefined {
  checkProgress(progress, { after: screen });
  const index = progress.subtasks.findIndex((subtask, position) => hasPredicate(subtask) && progress.status[position] !== 'checked');
  if (index < 0) return undefined;
  const subtask = progress.subtasks[index] as SubTask;
  const outcome = evaluatePredicate(parsePredicate(subtask.done ?? ''), { after: screen });
  return `FINISH refused: sub-task ${index + 1} "${subtask.name}" is not done: its check ${subtask.done} has not held (now: ${outcome.outcome}, ${outcome.reason})`;
}

const statusMark: Record<SubTaskStatus, string> = { checked: '✓', claimed: '?', pending: '·' };

/** The progress vector as the planner sees it: `2. ✓ Open Display [check: exists(text="Brightness")]`. */
export function renderProgress(progress: MetaPlanProgress): string {
  const lines = progress.subtasks.map((subtask, index) => {
    const status = progress.status[index] ?? 'pending';
    const where = [subtask.app, subtask.page].filter(Boolean).join(' / ');
    const check = hasPredicate(subtask) ? ` [check: ${subtask.done}]` : '';
    return `${index + 1}. ${statusMark[status]} ${subtask.name}${where ? ` (in ${where})` : ''}${check}`;
  });
  return ['Plan (✓ done by check, ? done by your word, · pending):', ...lines].join('\n');
}

/** The progress vector in one compact word per sub-task, for traces and results: `checked,claimed,pending`. */
export function progressVector(progress: MetaPlanProgress): SubTaskStatus[] {
  return [...progress.status];
}
