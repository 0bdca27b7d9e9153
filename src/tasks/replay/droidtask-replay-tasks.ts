import type { DroidBotView } from '../droidtask/droidtask-schema.js';
import { droidBotBounds } from '../droidtask/map-droidtask-target.js';
import type { DroidTaskApp, DroidTaskStep } from '../droidtask/load-droidtask-app.js';
import { sameBounds } from '../../ui/bounds.js';
import type { UiTree } from '../../ui/ui-tree.js';
import { droidBotTypedAlso } from './droidbot-typing.js';
import type { ReplayAction, ReplayElement, ReplayStep, ReplayTask } from './replay-task.js';

/** The element a DroidBot event's view names, as a replay reads it. */
export function droidBotReplayElement(view: DroidBotView): ReplayElement {
  return { bounds: droidBotBounds(view), className: view.class ?? '', resourceId: view.resource_id ?? '', text: view.text ?? '', contentDesc: view.content_description ?? '' };
}

function actionOf(step: DroidTaskStep): ReplayAction | undefined {
  const truth = step.groundTruth;
  if (truth.kind === 'back') return { kind: 'key', key: 'BACK' };
  if (truth.kind === 'finish') return undefined;
  const view = step.event?.view;
  const element = view ? { element: droidBotReplayElement(view) } : {};
  // DroidBot sets the text of the view (it replaces what the field held). What it typed is the
  // event's text: the YAML's Input was sometimes edited after recording ("VisitParents" where
  // the recording typed "visit-parents"), and the after screen shows what was typed.
  if (truth.kind === 'input') {
    const text = step.event?.text ?? truth.text ?? '';
    return { kind: 'set-text', text, append: false, submitted: false, ...droidBotTypedAlso(text), ...element };
  }
  return { kind: step.event?.type === 'long_touch' ? 'long-press' : 'tap', ...element };
}

/** Two screens that show the same thing: every node alike in what a verifier reads. */
export function sameScreen(left: UiTree, right: UiTree): boolean {
  if (left.nodes.length !== right.nodes.length || left.activity !== right.activity) return false;
  return left.nodes.every((node, index) => {
    const other = right.nodes[index]!;
    return node.fingerprint === other.fingerprint && node.text === other.text && node.contentDesc === other.contentDesc && node.checked === other.checked
      && node.selected === other.selected && node.focused === other.focused && node.enabled === other.enabled && node.displayed === other.displayed
      && sameBounds(node.bounds, other.bounds);
  });
}

/**
 * DroidTask demonstrations as replay tasks: a step acts on the screen saved before its
 * DroidBot event and its after screen is the one saved after it (the event's stop state,
 * which is the next record's state; see `pairDroidTaskEvent`). A step whose screens are
 * the same file or show the same views is marked as changing nothing. Steps without a
 * recorded screen on either side cannot be replayed and are listed in `skipped` with the
 * reason (each task keeps its count in `recordedSteps`); the closing "task complete"
 * record is not an action.
 */
export function droidTaskReplayTasks(apps: readonly DroidTaskApp[]): { tasks: ReplayTask[]; skipped: { id: string; reason: string }[] } {
  const tasks: ReplayTask[] = [];
  const skipped: { id: string; reason: string }[] = [];
  for (const app of apps) {
    for (const episode of app.episodes) {
      const steps: ReplayStep[] = [];
      let recordedSteps = 0;
      for (const [index, step] of episode.steps.entries()) {
        const id = `${episode.file}#${index}`;
        const action = actionOf(step);
        if (!action) continue;
        recordedSteps += 1;
        if (action.kind !== 'key' && !action.element && step.groundTruth.kind !== 'finish' && step.groundTruth.kind !== 'back') {
          skipped.push({ id, reason: `no acted element: ${step.groundTruth.reason}` });
          continue;
        }
        if (!step.screen || !step.after) {
          skipped.push({ id, reason: !step.screen ? 'no recorded screen for this step' : 'no recorded screen after this step' });
          continue;
        }
        const before = step.screen.perception.tree;
        steps.push({
          id,
          app: before.packageName || app.app,
          before,
          after: step.after.tree,
          beforeFile: step.screen.file,
          afterFile: step.after.file,
          action,
          noVisibleEffect: step.screen.file === step.after.file || sameScreen(before, step.after.tree),
          ...(step.after.savedBeforeEvent ? { afterFromOtherCapture: true } : {}),
        });
      }
      tasks.push({ id: `${app.app}/${episode.taskName}`, app: app.app, steps, recordedSteps });
    }
  }
  return { tasks, skipped };
}
