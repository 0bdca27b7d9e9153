import type { Task } from '../../../tasks/task-schema.js';
import { maxSubTasks, type MetaPlanReply, type SubTask } from '../../planning/meta-plan-progress.js';

/**
 * The `oracle` policy's meta-plan: the task's reference steps in at most
 * {@link maxSubTasks} contiguous groups, each named by its steps' intents and checked by
 * the last step's expectation (when it has one). What the oracle answers when asked for
 * a meta-plan; results are oracle results and labelled so.
 */
export function oracleMetaPlan(task: Task): MetaPlanReply {
  const steps = (task.solution ?? []).filter((step) => !step.actions.every((action) => action.unit === 'finish'));
  if (steps.length === 0) return { subtasks: [{ name: task.instruction }] };
  const groups = Math.min(maxSubTasks, steps.length);
  const subtasks: SubTask[] = [];
  for (let group = 0; group < groups; group++) {
    const chunk = steps.slice(Math.floor((group * steps.length) / groups), Math.floor(((group + 1) * steps.length) / groups));
    const last = chunk.at(-1);
    const name = chunk.map((step) => step.intent).join('; ');
    subtasks.push(last?.expect === undefined ? { name } : { name, done: last.expect });
  }
  return { subtasks };
}
