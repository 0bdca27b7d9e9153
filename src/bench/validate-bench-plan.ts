import type { AgentMode } from '../agent/task-run-result.js';
import { BenchError } from './bench-error.js';
import type { BenchTask } from './task-executor.js';

export interface BenchPlan<Task extends BenchTask> {
  readonly suite: string;
  readonly tasks: readonly Task[];
  readonly modes: readonly AgentMode[];
  /**
   * Why the wired executor cannot run `task` in `mode` (no reference solution for the
   * oracle, an app the simulator does not have, ...), or undefined when it can. The
   * reason does not name the task, so equal reasons are reported once with their tasks.
   */
  readonly checkTask?: (task: Task, mode: AgentMode) => string | undefined;
}

/** How many task ids one reason lists before it says how many more. */
const listedTasks = 6;

/**
 * Checks, before the first run, that every (task, mode) of the plan can run at all, so a
 * benchmark never spends an hour producing nothing but infrastructure errors. Throws
 * `BenchError` (`bench-plan`; the CLI exits 2) with every distinct reason and the tasks
 * it concerns, and what to do (drop them with --tasks / --tags, or change the policy or
 * device).
 */
export function validateBenchPlan<Task extends BenchTask>(plan: BenchPlan<Task>): void {
  const checkTask = plan.checkTask;
  if (checkTask === undefined) return;
  const byReason = new Map<string, string[]>();
  for (const task of plan.tasks) {
    for (const mode of plan.modes) {
      const reason = checkTask(task, mode);
      if (reason === undefined) continue;
      const label = plan.modes.length > 1 ? `${task.id} (${mode})` : task.id;
      byReason.set(reason, [...(byReason.get(reason) ?? []), label]);
    }
  }
  if (byReason.size === 0) return;
  const cannot = new Set([...byReason.values()].flat().map((label) => label.replace(/ \(.*\)$/, '')));
  const lines = [...byReason].map(([reason, labels]) => `  - ${reason}: ${labels.slice(0, listedTasks).join(', ')}${labels.length > listedTasks ? `, … (${labels.length} in all)` : ''}`);
  throw new BenchError({
    code: 'bench-plan',
    message: `${cannot.size} of ${plan.tasks.length} tasks of suite ${plan.suite} cannot run as asked; nothing was run:\n${lines.join('\n')}\nSelect runnable tasks with --tasks / --tags, or change --policy or --device.`,
  });
}
