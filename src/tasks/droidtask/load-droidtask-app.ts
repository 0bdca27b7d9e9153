import * as path from 'node:path';
import type { UnitId } from '../../perception/control-unit.js';
import { perceive, type Perception } from '../../perception/perceive.js';
import type { PerceptionOptions } from '../../perception/perception-options.js';
import type { UiTree } from '../../ui/ui-tree.js';
import { debugLog } from '../../util/debug-log.js';
import { parseYamlSafely } from '../../util/parse-yaml-safely.js';
import { DroidTaskLoadError } from './droidtask-load-error.js';
import { droidTaskFileSchema, type DroidBotView, type DroidTaskFile, type DroidTaskRecord } from './droidtask-schema.js';
import { droidBotScreens, indexDroidBotOutput, listDroidTaskFiles, parseDroidTaskData, readRecorded, type DroidBotScreens, type DroidTaskSkippedFile } from './index-droidbot-output.js';
import { mapDroidTaskTarget, type DroidTaskMapping } from './map-droidtask-target.js';
import { pairDroidTaskEvent, type DroidTaskEventEntry, type DroidTaskEventPairing } from './pair-droidtask-event.js';

/** The ground truth of one step in our terms. */
export type DroidTaskGroundTruth =
  | { readonly kind: 'finish' }
  /** AutoDroid lists a pseudo element "go back" on every screen: choosing it presses Back. */
  | { readonly kind: 'back' }
  | {
      readonly kind: 'tap' | 'input';
      /** The text typed, for `input`. */
      readonly text: string | null;
      /** Our units standing for the recorded element; empty when it could not be mapped. */
      readonly unitIds: readonly UnitId[];
      readonly mapping: DroidTaskMapping | 'no-event' | 'no-state';
      readonly reason: string;
    };

/** One step of a recorded task, with the screen it was taken on. */
export interface DroidTaskStep {
  readonly index: number;
  /** DroidTask's label: element index in its simplified HTML, -1 = finished. */
  readonly choice: number;
  readonly input: string | null;
  /** The chosen element as AutoDroid rendered it in the step's simplified HTML, e.g. `<button id=4>Alice</button>`. */
  readonly choiceHtml: string | null;
  readonly stateStrs: readonly string[];
  /** The screen, when the download holds a state file with one of `stateStrs` (the one saved nearest the step's event). */
  readonly screen?: { readonly file: string; readonly perception: Perception };
  /** The screen after the step: its event's stop state, else the next record's state (absent for the last record). */
  readonly after?: { readonly file: string; readonly tree: UiTree; readonly savedBeforeEvent?: true };
  /** The DroidBot event that performed the step, when found; `text` is what a `set_text` event typed. */
  readonly event?: { readonly file: string; readonly type: string; readonly view?: DroidBotView; readonly text?: string };
  readonly groundTruth: DroidTaskGroundTruth;
}

/** One DroidTask task (`task*.yaml`). */
export interface DroidTaskEpisode {
  readonly app: string;
  readonly file: string;
  readonly taskName: string;
  readonly steps: readonly DroidTaskStep[];
}

export type { DroidTaskSkippedFile } from './index-droidbot-output.js';

/** Every task of one app folder. */
export interface DroidTaskApp {
  readonly app: string;
  readonly directory: string;
  readonly episodes: readonly DroidTaskEpisode[];
  /** Files left out because they cannot be read. */
  readonly skipped: readonly DroidTaskSkippedFile[];
  /** State files read. */
  readonly states: number;
  /** State files holding views with inverted bounds (kept, with zero visible area), and how many such views. */
  readonly invertedBounds: { readonly statesWith: number; readonly views: number };
}

/** Options of `loadDroidTaskApp`. */
export interface LoadDroidTaskOptions {
  readonly perception?: PerceptionOptions;
}

/** The element with `id=<choice>` in AutoDroid's simplified HTML state, or null. */
export function droidTaskChoiceElement(stateHtml: string, choice: number): string | null {
  if (choice < 0) return null;
  const elements = stateHtml.replace(/<br>/g, '\n').match(/<[^<]*>[^<]*<\/[^>]*>/g) ?? [];
  return elements.find((element) => new RegExp(`^<\\w+ id=${choice}[ >]`).test(element)) ?? null;
}

/** One step in our terms: the recorded label, the screens, the event, and the ground truth mapped to units. */
function droidTaskStep(record: DroidTaskRecord, index: number, screens: Pick<DroidTaskStep, 'screen' | 'after'>, pairing: DroidTaskEventPairing): DroidTaskStep {
  const choiceHtml = droidTaskChoiceElement(record.State, record.Choice);
  const { screen } = screens;
  const base = { index, choice: record.Choice, input: record.Input, choiceHtml, stateStrs: record.state_str, ...(screen ? { screen } : {}), ...(screens.after ? { after: screens.after } : {}) };
  if (record.Choice === -1) return { ...base, groundTruth: { kind: 'finish' } };
  if (choiceHtml !== null && />\s*go back\s*</.test(choiceHtml)) return { ...base, groundTruth: { kind: 'back' } };
  const kind = record.Input === null ? 'tap' : 'input';
  const found = pairing.event;
  const typed = found?.data.event.text;
  const event = found ? { file: found.file, type: found.data.event.event_type, ...(found.data.event.view ? { view: found.data.event.view } : {}), ...(typeof typed === 'string' ? { text: typed } : {}) } : undefined;
  const withEvent = { ...base, ...(event ? { event } : {}) };
  if (!screen) return { ...withEvent, groundTruth: { kind, text: record.Input, unitIds: [], mapping: 'no-state', reason: `no readable state file with state_str ${record.state_str.join(' or ')}` } };
  if (!event?.view) return { ...withEvent, groundTruth: { kind, text: record.Input, unitIds: [], mapping: 'no-event', reason: pairing.event ? 'the event has no view' : pairing.reason } };
  const match = mapDroidTaskTarget(screen.perception, event.view);
  return { ...withEvent, groundTruth: { kind, text: record.Input, unitIds: match.unitIds, mapping: match.mapping, reason: match.reason } };
}

/**
 * Loads one app folder of DroidTask's `user_tasks/<app>/` layout for offline step mode
 * and replay: each `task*.yaml` becomes an episode; each step gets the DroidBot event that
 * performed it (`pairDroidTaskEvent`: it starts on the record's state and stops on the
 * next record's), the screens around that event (`states/`: the state files of its start
 * and stop states saved nearest it, parsed with parseHierarchy; the before screen
 * perceived), and the event's element mapped to our unit ids. Without an event the
 * screens are the first readable state files of the record's and the next record's
 * state_str. Steps whose state or event is missing keep DroidTask's label with an empty
 * unit list and say why. Empty or malformed state, event and task files are left out and
 * listed in `skipped`, with the problem. Throws `DroidTaskLoadError` when the folder has
 * no task file, or none of its task files can be read.
 */
export async function loadDroidTaskApp(directory: string, options: LoadDroidTaskOptions = {}): Promise<DroidTaskApp> {
  const app = path.basename(directory);
  const taskFiles = (await listDroidTaskFiles(directory, /^task.*\.ya?ml$/)).sort((left, right) => left.localeCompare(right, 'en', { numeric: true }));
  if (taskFiles.length === 0) throw new DroidTaskLoadError({ file: directory, problem: 'no task*.yaml files in this folder' });
  const skipped: DroidTaskSkippedFile[] = [];
  const index = await indexDroidBotOutput(directory, skipped);
  const screens = perceivedScreens(droidBotScreens(index.statesByStr, skipped), options.perception);

  const episodes: DroidTaskEpisode[] = [];
  for (const file of taskFiles) {
    const task = await readRecorded(file, (text) => parseTaskFile(text, file), skipped);
    if (!task) continue;
    const steps: DroidTaskStep[] = [];
    for (const [position, record] of task.records.entries()) {
      const next = task.records[position + 1]?.state_str ?? [];
      const choiceHtml = droidTaskChoiceElement(record.State, record.Choice);
      const pairing: DroidTaskEventPairing = record.Choice === -1 ? { reason: 'the task is complete' } : pairDroidTaskEvent(index.eventsByStart, record.state_str, next, choiceHtml);
      steps.push(droidTaskStep(record, position, await screens.around(record.state_str, next, pairing.event), pairing));
    }
    episodes.push({ app, file, taskName: task.task_name, steps });
  }
  if (episodes.length === 0) {
    const first = skipped.find((entry) => taskFiles.includes(entry.file));
    throw new DroidTaskLoadError({ file: first?.file ?? directory, problem: `${first?.problem ?? 'unreadable'} (none of the ${taskFiles.length} task files can be read)` });
  }
  debugLog('tasks', 'droidtask app loaded', { app, tasks: episodes.length, states: index.states, events: index.events.length, skipped: skipped.length });
  return { app, directory, episodes, skipped, states: index.states, invertedBounds: index.invertedBounds };
}

function parseTaskFile(text: string, file: string): DroidTaskFile {
  const yaml = parseYamlSafely(text);
  if (!yaml.success) {
    const first = yaml.problems[0];
    throw new DroidTaskLoadError({ file, problem: `not valid YAML (${first?.line === undefined ? '' : `line ${first.line}: `}${first?.message ?? 'unreadable'})` });
  }
  return parseDroidTaskData(droidTaskFileSchema, yaml.value.value, file);
}

/** DroidBot's screens around a step, the one before it perceived (once per file). */
function perceivedScreens(screens: DroidBotScreens, perception: PerceptionOptions | undefined) {
  const perceptions = new Map<string, Perception>();
  return {
    async around(stateStrs: readonly string[], nextStateStrs: readonly string[], event: DroidTaskEventEntry | undefined): Promise<Pick<DroidTaskStep, 'screen' | 'after'>> {
      const { before, after } = await screens.around(stateStrs, nextStateStrs, event);
      if (!before) return after ? { after } : {};
      let found = perceptions.get(before.file);
      if (!found) {
        found = perceive(before.tree, perception);
        perceptions.set(before.file, found);
      }
      return { screen: { file: before.file, perception: found }, ...(after ? { after } : {}) };
    },
  };
}
