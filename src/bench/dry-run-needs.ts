import type { Task } from '../tasks/task-schema.js';

/**
 * What the tasks a dry run found runnable still need on a real device, as lines for its
 * summary: "can run" means the bench can start them, not that they can be judged or that
 * their start state exists. Counts the tasks whose check is left to a model judge of the
 * screen (`success: judge: model`, not run yet: they end inconclusive), whose start needs a state a person makes by hand (`manual`
 * steps: made once and kept in an emulator snapshot), and that install an APK when their
 * app is missing. Empty when none needs anything. Pure.
 */
export function dryRunNeeds(tasks: readonly Task[]): string[] {
  const steps = (task: Task) => task.start.device ?? [];
  const judged = tasks.filter((task) => task.success?.judge === 'model');
  const manual = tasks.filter((task) => steps(task).some((step) => 'manual' in step));
  const apks = new Set(tasks.flatMap((task) => steps(task).flatMap((step) => ('installed' in step && step.apk !== undefined ? [step.apk] : []))));
  const installing = tasks.filter((task) => steps(task).some((step) => 'installed' in step && step.apk !== undefined));
  const lines: string[] = [];
  if (judged.length > 0) lines.push(`${judged.length} of them end inconclusive whatever the agent does: their check (success: judge: model) is left to a model judge of the final screen, which does not run yet`);
  if (manual.length > 0) lines.push(`${manual.length} of them start from a state a person makes by hand (their manual: steps above): make it once, save it in an emulator snapshot and name it in the device profile's reset: { snapshot: <name> } (tasks/README.md)`);
  if (installing.length > 0) lines.push(`${installing.length} of them install an APK when their app is missing (${apks.size} APK file(s) under apks/, not shipped: where each comes from is in tasks/README.md)`);
  return lines;
}
