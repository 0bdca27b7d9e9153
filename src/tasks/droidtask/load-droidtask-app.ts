import { readdir, readFile } from 'node:fs/promises';
import * as path from 'node:path';
import type { z } from 'zod';
import type { UnitId } from '../../perception/control-unit.js';
import { perceive, type Perception } from '../../perception/perceive.js';
import type { PerceptionOptions } from '../../perception/perception-options.js';
import { decodeDumpBytes } from '../../ui/decode-dump-bytes.js';
import { isInvertedBounds } from '../../ui/bounds.js';
import { HierarchyParseError } from '../../ui/hierarchy-parse-error.js';
import { parseHierarchy } from '../../ui/parse-hierarchy.js';
import type { UiTree } from '../../ui/ui-tree.js';
import { debugLog } from '../../util/debug-log.js';
import { parseYamlSafely } from '../../util/parse-yaml-safely.js';
import { DroidTaskLoadError } from './droidtask-load-error.js';
import { droidBotEventFileSchema, droidBotStateHeaderSchema, droidTaskFileSchema, type DroidBotView, type DroidTaskFile, type DroidTaskRecord } from './droidtask-schema.js';
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
  readonly after?: { readonly file: string; readonly tree: UiTree };
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

/** A recorded file the loader left out (empty, not JSON / YAML, not the expected fields), with the problem. */
export interface DroidTaskSkippedFile {
  readonly file: string;
  readonly problem: string;
}

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

async function readBytes(file: string): Promise<Uint8Array> {
  try {
    return await readFile(file);
  } catch (error) {
    throw new DroidTaskLoadError({ file, problem: `cannot read it (${(error as Error).message})`, cause: error });
  }
}

/** A recorded file's text: UTF-8 or UTF-16 by byte-order mark, as dumps saved on Windows come. */
async function readText(file: string): Promise<string> {
  return decodeDumpBytes(await readBytes(file)).text;
}

function parseWith<T>(schema: z.ZodType<T>, data: unknown, file: string): T {
  const parsed = schema.safeParse(data);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new DroidTaskLoadError({ file, problem: `field ${issue?.path.join('.') || '(root)'}: ${issue?.message ?? 'invalid'}`, cause: parsed.error });
}

function parseJson(text: string, file: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new DroidTaskLoadError({ file, problem: `not valid JSON (${(error as Error).message})`, cause: error });
  }
}

async function listFiles(directory: string, pattern: RegExp): Promise<string[]> {
  try {
    const entries = await readdir(directory, { withFileTypes: true });
    return entries.filter((entry) => entry.isFile() && pattern.test(entry.name)).map((entry) => path.join(directory, entry.name)).sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new DroidTaskLoadError({ file: directory, problem: `cannot list it (${(error as Error).message})`, cause: error });
  }
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

/** A state file of the download: where it is and when DroidBot saved it (`YYYY-MM-DD_HHMMSS`). */
interface StateFileEntry {
  readonly file: string;
  readonly tag: string;
}

/**
 * State files with `stateStr`, nearest the event first: for the screen before an event
 * the latest saved at or before it, for the screen after the earliest saved at or after
 * it (DroidBot saves a state each time it reads one, so a state_str can have many files,
 * from different runs and devices); then the others in saved order.
 */
function statesAround(files: readonly StateFileEntry[], tag: string | undefined, side: 'before' | 'after'): StateFileEntry[] {
  if (tag === undefined) return [...files];
  const near = side === 'before' ? files.filter((entry) => entry.tag <= tag).at(-1) : files.find((entry) => entry.tag >= tag);
  return near ? [near, ...files.filter((entry) => entry !== near)] : [...files];
}

/** The ids of a download's readable files, and what was skipped. */
interface DroidTaskIndex {
  readonly statesByStr: ReadonlyMap<string, readonly StateFileEntry[]>;
  readonly eventsByStart: ReadonlyMap<string, readonly DroidTaskEventEntry[]>;
  readonly states: number;
  readonly events: number;
  readonly invertedBounds: { statesWith: number; views: number };
}

/** Views of a raw DroidBot state whose bounds are inverted (a view scrolled partly off screen). */
function invertedViews(data: unknown): number {
  const views = (data as { views?: unknown }).views;
  if (!Array.isArray(views)) return 0;
  let count = 0;
  for (const view of views as unknown[]) {
    const bounds = (view as { bounds?: unknown } | null)?.bounds;
    if (!Array.isArray(bounds) || !Array.isArray(bounds[0]) || !Array.isArray(bounds[1])) continue;
    const [[left, top], [right, bottom]] = bounds as [[unknown, unknown], [unknown, unknown]];
    if (typeof left === 'number' && typeof top === 'number' && typeof right === 'number' && typeof bottom === 'number' && isInvertedBounds([left, top, right, bottom])) count += 1;
  }
  return count;
}

/** Reads every state header and event of an app folder; a file that cannot be read is listed in `skipped` and left out. */
async function indexDroidTaskFiles(directory: string, skipped: DroidTaskSkippedFile[]): Promise<DroidTaskIndex> {
  const statesByStr = new Map<string, StateFileEntry[]>();
  const invertedBounds = { statesWith: 0, views: 0 };
  let states = 0;
  for (const file of await listFiles(path.join(directory, 'states'), /^state_.*\.json$/)) {
    const read = await readRecorded(file, (text) => {
      const data = parseJson(text, file);
      return { header: parseWith(droidBotStateHeaderSchema, data, file), inverted: invertedViews(data) };
    }, skipped);
    if (!read) continue;
    states += 1;
    if (read.inverted > 0) {
      invertedBounds.statesWith += 1;
      invertedBounds.views += read.inverted;
    }
    const list = statesByStr.get(read.header.state_str);
    if (list) list.push({ file, tag: read.header.tag });
    else statesByStr.set(read.header.state_str, [{ file, tag: read.header.tag }]);
  }
  for (const list of statesByStr.values()) list.sort((left, right) => left.tag.localeCompare(right.tag) || left.file.localeCompare(right.file));
  const eventsByStart = new Map<string, DroidTaskEventEntry[]>();
  let events = 0;
  for (const file of await listFiles(path.join(directory, 'events'), /^event_.*\.json$/)) {
    const data = await readRecorded(file, (text) => parseWith(droidBotEventFileSchema, parseJson(text, file), file), skipped);
    if (!data) continue;
    events += 1;
    const list = eventsByStart.get(data.start_state);
    if (list) list.push({ file, data });
    else eventsByStart.set(data.start_state, [{ file, data }]);
  }
  return { statesByStr, eventsByStart, states, events, invertedBounds };
}

/** A recorded file read with `parse`; an empty or malformed one is listed in `skipped` and gives undefined. */
async function readRecorded<T>(file: string, parse: (text: string) => T, skipped: DroidTaskSkippedFile[]): Promise<T | undefined> {
  try {
    const text = await readText(file);
    if (text.trim() === '') {
      skipped.push({ file, problem: 'the file is empty' });
      return undefined;
    }
    return parse(text);
  } catch (error) {
    if (!DroidTaskLoadError.isInstance(error)) throw error;
    skipped.push({ file, problem: error.problem });
    return undefined;
  }
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
  const taskFiles = (await listFiles(directory, /^task.*\.ya?ml$/)).sort((left, right) => left.localeCompare(right, 'en', { numeric: true }));
  if (taskFiles.length === 0) throw new DroidTaskLoadError({ file: directory, problem: 'no task*.yaml files in this folder' });
  const skipped: DroidTaskSkippedFile[] = [];
  const index = await indexDroidTaskFiles(directory, skipped);
  const screens = droidTaskScreens(index.statesByStr, options.perception, skipped);

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
  debugLog('tasks', 'droidtask app loaded', { app, tasks: episodes.length, states: index.states, events: index.events, skipped: skipped.length });
  return { app, directory, episodes, skipped, states: index.states, invertedBounds: index.invertedBounds };
}

function parseTaskFile(text: string, file: string): DroidTaskFile {
  const yaml = parseYamlSafely(text);
  if (!yaml.success) {
    const first = yaml.problems[0];
    throw new DroidTaskLoadError({ file, problem: `not valid YAML (${first?.line === undefined ? '' : `line ${first.line}: `}${first?.message ?? 'unreadable'})` });
  }
  return parseWith(droidTaskFileSchema, yaml.value.value, file);
}

/**
 * The screens of the download, read on demand and cached: the before screen perceived,
 * the after screen as a tree. A state file that does not parse is listed in `skipped`
 * once and the next file with the same state_str is tried.
 */
function droidTaskScreens(statesByStr: ReadonlyMap<string, readonly StateFileEntry[]>, perception: PerceptionOptions | undefined, skipped: DroidTaskSkippedFile[]) {
  const trees = new Map<string, UiTree | null>();
  const perceptions = new Map<string, Perception>();
  const treeOf = async (file: string): Promise<UiTree | undefined> => {
    const cached = trees.get(file);
    if (cached !== undefined) return cached ?? undefined;
    try {
      const tree = parseHierarchy(await readBytes(file), { sourceName: file });
      trees.set(file, tree);
      return tree;
    } catch (error) {
      if (!HierarchyParseError.isInstance(error) && !DroidTaskLoadError.isInstance(error)) throw error;
      skipped.push({ file, problem: HierarchyParseError.isInstance(error) ? error.message : error.problem });
      trees.set(file, null);
      return undefined;
    }
  };
  const first = async (candidates: readonly StateFileEntry[]): Promise<{ file: string; tree: UiTree } | undefined> => {
    for (const entry of candidates) {
      const tree = await treeOf(entry.file);
      if (tree) return { file: entry.file, tree };
    }
    return undefined;
  };
  const filesOf = (stateStrs: readonly string[]): StateFileEntry[] => stateStrs.flatMap((stateStr) => statesByStr.get(stateStr) ?? []);
  return {
    async around(stateStrs: readonly string[], nextStateStrs: readonly string[], event: DroidTaskEventEntry | undefined): Promise<Pick<DroidTaskStep, 'screen' | 'after'>> {
      const tag = event?.data.tag;
      const stop = event?.data.stop_state;
      const before = (event ? await first(statesAround(filesOf([event.data.start_state]), tag, 'before')) : undefined) ?? (await first(filesOf(stateStrs)));
      const after = (event && typeof stop === 'string' ? await first(statesAround(filesOf([stop]), tag, 'after')) : undefined) ?? (await first(filesOf(nextStateStrs)));
      let screen: DroidTaskStep['screen'];
      if (before) {
        let found = perceptions.get(before.file);
        if (!found) {
          found = perceive(before.tree, perception);
          perceptions.set(before.file, found);
        }
        screen = { file: before.file, perception: found };
      }
      return { ...(screen ? { screen } : {}), ...(after ? { after } : {}) };
    },
  };
}
