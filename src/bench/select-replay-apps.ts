import { createHash } from 'node:crypto';
import type { ReplaySource } from '../tasks/replay/replay-task.js';
import { globToRegex } from './select-tasks.js';

/** One of the two fixed halves of the apps, for building rules on one and checking them on the other. */
export type AppHalf = 'a' | 'b';

/**
 * The half an app package falls in: the first byte of the SHA-256 of the package name,
 * even → `a`, odd → `b`. The same package always lands in the same half, whatever
 * corpus it is in, so a rule developed on half `a` can be checked on the apps of half `b`.
 */
export function appHalf(appPackage: string): AppHalf {
  const first = createHash('sha256').update(appPackage).digest()[0] ?? 0;
  return first % 2 === 0 ? 'a' : 'b';
}

/** Which apps of a replay source to keep: package globs, a half, or both (an app must pass each given). */
export interface ReplayAppSelection {
  readonly apps?: readonly string[];
  readonly half?: AppHalf;
}

/**
 * The source with only the steps of the selected apps (by each step's app package);
 * tasks left without a step are dropped (a task that had none is kept when its app is
 * selected). With no selection, the source as it is. Wrong-effect donors come from the same app,
 * so the negative controls see only the selected apps too.
 */
export function selectReplayApps(source: ReplaySource, selection: ReplayAppSelection): ReplaySource {
  const patterns = (selection.apps ?? []).map(globToRegex);
  const keep = (app: string): boolean =>
    (patterns.length === 0 || patterns.some((pattern) => pattern.test(app))) && (selection.half === undefined || appHalf(app) === selection.half);
  if (patterns.length === 0 && selection.half === undefined) return source;
  // A task keeps the count of its recorded steps less those of other apps (the steps the loader
  // could not pair stay counted); a task with no step at all stays when its own app is kept.
  const tasks = source.tasks.flatMap((task) => {
    const steps = task.steps.filter((step) => keep(step.app));
    if (steps.length === 0 && !(task.steps.length === 0 && keep(task.app))) return [];
    return [{ ...task, steps, recordedSteps: (task.recordedSteps ?? task.steps.length) - (task.steps.length - steps.length) }];
  });
  return { ...source, tasks };
}
