import { readFile } from 'node:fs/promises';
import * as path from 'node:path';
import { z } from 'zod';
import type { DroidBotEventFile, DroidBotView } from '../droidtask/droidtask-schema.js';
import { droidBotBounds } from '../droidtask/map-droidtask-target.js';
import { droidBotScreens, indexDroidBotOutput, type DroidTaskSkippedFile } from '../droidtask/index-droidbot-output.js';
import { debugLog } from '../../util/debug-log.js';
import { droidBotTypedAlso } from './droidbot-typing.js';
import { droidBotReplayElement, sameScreen } from './droidtask-replay-tasks.js';
import { ReplayLoadError } from './replay-load-error.js';
import type { ReplayAction, ReplayStep, ReplayTask, ScreenCounts, UnreadableFile } from './replay-task.js';
import { sameBounds } from '../../ui/bounds.js';
import type { UiTree } from '../../ui/ui-tree.js';
import { scrollDirectionNamed } from '../../ui/scroll-direction.js';

/** One DroidBot output folder read as a replay task, with what was left out. */
export interface DroidBotRun {
  readonly task: ReplayTask;
  readonly skipped: readonly { readonly id: string; readonly reason: string }[];
  readonly unreadable: readonly UnreadableFile[];
  readonly screens: ScreenCounts;
}

/** The part of DroidBot's `utg.js` (`var utg = {…}`) the loader reads: the package of the app under test. */
const utgSchema = z.object({ app_package: z.string().nullish() });

/**
 * What a DroidBot event did, as a replay action, or why it is not one (DroidBot's event
 * types: touch, long_touch, select / unselect, set_text, key, scroll, swipe, intent,
 * kill_app, spawn, manual, exit). A set_text replaces the field's text (DroidBot's IME
 * sets it); select / unselect tap a checkable view.
 */
function actionOf(event: DroidBotEventFile['event']): ReplayAction | string {
  const element = event.view ? { element: droidBotReplayElement(event.view) } : {};
  switch (event.event_type) {
    case 'touch':
    case 'select':
    case 'unselect':
      return { kind: 'tap', ...element };
    case 'long_touch':
      return { kind: 'long-press', ...element };
    case 'set_text':
      return { kind: 'set-text', text: event.text ?? '', append: false, submitted: false, ...droidBotTypedAlso(event.text ?? ''), ...element };
    case 'key':
      return { kind: 'key', key: event.name ?? '' };
    case 'scroll': {
      const direction = scrollDirectionNamed(event.direction);
      return { kind: 'scroll', ...element, ...(direction ? { direction } : {}) };
    }
    case 'swipe':
      return { kind: 'scroll', ...element };
    case 'intent':
      return `intent event (not a UI action${event.intent ? `: ${event.intent}` : ''})`;
    case 'kill_app':
      return 'kill_app event (stops the app; not a UI action)';
    default:
      return `${event.event_type} event (not a UI action)`;
  }
}

/**
 * The screen before an event with the acted view's checked state as the event recorded it.
 * DroidBot saves a state's file the first time it sees the state, and a switch flipped
 * since (DroidBot's state_str leaves the checked state out) is the same state to it: the
 * file can show the switch the other way than it was when the event tapped it. The event's
 * own view holds the state at that moment.
 */
function withActedViewAsSent(tree: UiTree, view: DroidBotView | null | undefined): UiTree {
  if (view?.checked === undefined) return tree;
  const bounds = droidBotBounds(view);
  const acted = tree.nodes.find((node) => node.checkable && node.className === (view.class ?? '') && node.resourceId === (view.resource_id ?? '') && sameBounds(node.bounds, bounds));
  if (!acted || acted.checked === view.checked) return tree;
  const nodes = [...tree.nodes];
  nodes[acted.index] = { ...acted, checked: view.checked };
  return { ...tree, nodes };
}

/** The app under test as `utg.js` names it; undefined when the folder has no such file. A file that does not parse is listed in `unreadable`. */
async function utgAppPackage(directory: string, unreadable: DroidTaskSkippedFile[]): Promise<string | undefined> {
  const file = path.join(directory, 'utg.js');
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    unreadable.push({ file, problem: `cannot read it (${(error as Error).message})` });
    return undefined;
  }
  const json = text.slice(text.indexOf('{'));
  let data: unknown;
  try {
    data = JSON.parse(json) as unknown;
  } catch (error) {
    unreadable.push({ file, problem: `not 'var utg = <JSON>' (${(error as Error).message})` });
    return undefined;
  }
  const parsed = utgSchema.safeParse(data);
  return parsed.success ? (parsed.data.app_package ?? undefined) : undefined;
}

/** The package most steps acted in. */
function commonestApp(steps: readonly ReplayStep[]): string {
  const counts = new Map<string, number>();
  for (const step of steps) counts.set(step.app, (counts.get(step.app) ?? 0) + 1);
  return [...counts.entries()].sort((left, right) => right[1] - left[1])[0]?.[0] ?? '';
}

/**
 * Reads one DroidBot output folder (`events/event_*.json`, `states/state_*.json`, as
 * DroidBot writes them; `utg.js` names the app) as one replay task: a step per event, in
 * the order DroidBot sent them (event files are named by that time). A step acts on the
 * state file of the event's `start_state` and its after screen is the one of its
 * `stop_state` (both `state_str`s; DroidBot saves a state file the first time it sees a
 * state, so the nearest file of each is taken). The acted element is the event's `view`.
 * Intents, kill_app and other events that are no UI action, and events without a readable
 * screen on either side, are listed in `skipped` with the reason; keys other than Back and
 * Home, and swipes without a view or a direction, are steps the replay leaves out. Empty or
 * malformed files are listed in `unreadable`.
 * Throws `ReplayLoadError` when no event or no state file of the folder can be read.
 */
export async function loadDroidBotRun(directory: string): Promise<DroidBotRun> {
  const unreadable: DroidTaskSkippedFile[] = [];
  const index = await indexDroidBotOutput(directory, unreadable);
  if (index.events.length === 0 || index.states === 0) {
    const [folder, missing] = index.events.length === 0 ? ['events', 'events/event_*.json'] : ['states', 'states/state_*.json'];
    const first = unreadable.find((entry) => entry.file.includes(`${path.sep}${folder}${path.sep}`));
    throw new ReplayLoadError({ file: first?.file ?? path.join(directory, folder), problem: `nothing can be read: no readable ${missing} in this DroidBot output folder${first ? ` (${first.problem})` : ''}` });
  }
  const screens = droidBotScreens(index.statesByStr, unreadable);
  const skipped: { id: string; reason: string }[] = [];
  const steps: ReplayStep[] = [];
  // The screen an intent started the app from, kept for the step that follows it.
  let launchedFrom: UiTree | undefined;
  for (const entry of index.events) {
    const id = entry.file;
    const action = actionOf(entry.data.event);
    if (typeof action === 'string') {
      skipped.push({ id, reason: action });
      launchedFrom = entry.data.event.event_type === 'intent' ? (await screens.around([entry.data.start_state], [], entry)).before?.tree : undefined;
      continue;
    }
    const start = entry.data.start_state;
    const stop = entry.data.stop_state;
    const { before, after } = await screens.around([start], typeof stop === 'string' ? [stop] : [], entry);
    if (!before || !after) {
      const reason = !before ? `no readable state file with the start_state ${start}` : typeof stop === 'string' ? `no readable state file with the stop_state ${stop}` : 'the event has no stop_state';
      skipped.push({ id, reason });
      continue;
    }
    steps.push({
      id,
      app: before.tree.packageName,
      before: withActedViewAsSent(before.tree, entry.data.event.view),
      after: after.tree,
      beforeFile: before.file,
      afterFile: after.file,
      action,
      noVisibleEffect: before.file === after.file || sameScreen(before.tree, after.tree),
      ...(after.savedBeforeEvent ? { afterFromOtherCapture: true } : {}),
      ...(launchedFrom ? { launchedFrom } : {}),
    });
    launchedFrom = undefined;
  }
  const app = (await utgAppPackage(directory, unreadable)) ?? commonestApp(steps);
  debugLog('tasks', 'droidbot run loaded', { directory, events: index.events.length, steps: steps.length, skipped: skipped.length, unreadable: unreadable.length });
  return {
    task: { id: directory, app, steps, recordedSteps: index.events.length },
    skipped,
    unreadable,
    screens: { read: index.states, withInvertedBounds: index.invertedBounds.statesWith, invertedViews: index.invertedBounds.views },
  };
}
