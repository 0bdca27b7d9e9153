import { droidBotBounds } from '../droidtask/map-droidtask-target.js';
import type { DroidTaskApp, DroidTaskStep } from '../droidtask/load-droidtask-app.js';
import type { ReplayAction, ReplayStep, ReplayTask } from './replay-task.js';

function actionOf(step: DroidTaskStep): ReplayAction | undefined {
  const truth = step.groundTruth;
  if (truth.kind === 'back') return { kind: 'key', key: 'BACK' };
  if (truth.kind === 'finish') return undefined;
  const view = step.event?.view;
  const element = view
    ? { element: { bounds: droidBotBounds(view), className: view.class ?? '', resourceId: view.resource_id ?? '', text: view.text ?? '', contentDesc: view.content_description ?? '' } }
    : {};
  // DroidBot sets the text of the view (it replaces what the field held).
  if (truth.kind === 'input') return { kind: 'set-text', text: truth.text ?? '', append: false, submitted: false, ...element };
  return { kind: step.event?.type === 'long_touch' ? 'long-press' : 'tap', ...element };
}

/**
 * DroidTask demonstrations as replay tasks: step i acts on its recorded screen and the
 * screen of step i + 1 is its after screen. Steps without a recorded screen (or whose
 * next step has none) cannot be replayed and are listed in `skipped` with the reason;
 * the closing "task complete" record is not an action.
 */
export function droidTaskReplayTasks(apps: readonly DroidTaskApp[]): { tasks: ReplayTask[]; skipped: { id: string; reason: string }[] } {
  const tasks: ReplayTask[] = [];
  const skipped: { id: string; reason: string }[] = [];
  for (const app of apps) {
    for (const episode of app.episodes) {
      const steps: ReplayStep[] = [];
      for (const [index, step] of episode.steps.entries()) {
        const id = `${episode.file}#${index}`;
        const action = actionOf(step);
        if (!action) continue;
        const next = episode.steps[index + 1];
        if (!step.screen || !next?.screen) {
          skipped.push({ id, reason: !step.screen ? 'no recorded screen for this step' : 'no recorded screen after this step' });
          continue;
        }
        steps.push({
          id,
          app: step.screen.perception.tree.packageName || app.app,
          before: step.screen.perception.tree,
          after: next.screen.perception.tree,
          beforeFile: step.screen.file,
          afterFile: next.screen.file,
          action,
          noVisibleEffect: step.screen.file === next.screen.file,
        });
      }
      tasks.push({ id: `${app.app}/${episode.taskName}`, app: app.app, steps });
    }
  }
  return { tasks, skipped };
}
