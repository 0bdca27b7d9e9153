import { readdir, readFile } from 'node:fs/promises';
import * as path from 'node:path';
import type { z } from 'zod';
import type { UnitId } from '../../perception/control-unit.js';
import { perceive, type Perception } from '../../perception/perceive.js';
import type { PerceptionOptions } from '../../perception/perception-options.js';
import { decodeDumpBytes } from '../../ui/decode-dump-bytes.js';
import { parseYamlSafely } from '../../util/parse-yaml-safely.js';
import { parseHierarchy } from '../../ui/parse-hierarchy.js';
import { debugLog } from '../../util/debug-log.js';
import { DroidTaskLoadError } from './droidtask-load-error.js';
import { droidBotEventFileSchema, droidBotStateHeaderSchema, droidTaskFileSchema, type DroidBotEventFile, type DroidBotView, type DroidTaskRecord } from './droidtask-schema.js';
import { mapDroidTaskTarget, type DroidTaskMapping } from './map-droidtask-target.js';

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
  /** The screen, when the download holds a state file with one of `stateStrs`. */
  readonly screen?: { readonly file: string; readonly perception: Perception };
  /** The DroidBot event that performed the step, when found. */
  readonly event?: { readonly file: string; readonly type: string; readonly view?: DroidBotView };
  readonly groundTruth: DroidTaskGroundTruth;
}

/** One DroidTask task (`task*.yaml`). */
export interface DroidTaskEpisode {
  readonly app: string;
  readonly file: string;
  readonly taskName: string;
  readonly steps: readonly DroidTaskStep[];
}

/** Every task of one app folder. */
export interface DroidTaskApp {
  readonly app: string;
  readonly directory: string;
  readonly episodes: readonly DroidTaskEpisode[];
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

/** Picks the event of a step: it starts on the step's screen and, when known, ends on the next one. */
function findEvent(events: readonly { file: string; data: DroidBotEventFile }[], stateStrs: readonly string[], newStateStrs: readonly string[]): { file: string; data: DroidBotEventFile } | undefined {
  const starting = events.filter((event) => stateStrs.includes(event.data.start_state) && event.data.event.view);
  const ending = starting.filter((event) => event.data.stop_state !== undefined && event.data.stop_state !== null && newStateStrs.includes(event.data.stop_state));
  if (ending.length > 0) return ending[0];
  const views = new Set(starting.map((event) => JSON.stringify(event.data.event.view?.bounds)));
  return views.size === 1 ? starting[0] : undefined;
}

/** One step in our terms: the recorded label, the screen, the event, and the ground truth mapped to units. */
function droidTaskStep(record: DroidTaskRecord, index: number, screen: DroidTaskStep['screen'], events: readonly { file: string; data: DroidBotEventFile }[]): DroidTaskStep {
  const choiceHtml = droidTaskChoiceElement(record.State, record.Choice);
  const base = { index, choice: record.Choice, input: record.Input, choiceHtml, stateStrs: record.state_str, ...(screen ? { screen } : {}) };
  if (record.Choice === -1) return { ...base, groundTruth: { kind: 'finish' } };
  if (choiceHtml !== null && />\s*go back\s*</.test(choiceHtml)) return { ...base, groundTruth: { kind: 'back' } };
  const kind = record.Input === null ? 'tap' : 'input';
  const found = findEvent(events, record.state_str, record.new_state_str ?? []);
  const event = found ? { file: found.file, type: found.data.event.event_type, ...(found.data.event.view ? { view: found.data.event.view } : {}) } : undefined;
  const withEvent = { ...base, ...(event ? { event } : {}) };
  if (!screen) return { ...withEvent, groundTruth: { kind, text: record.Input, unitIds: [], mapping: 'no-state', reason: `no state file with state_str ${record.state_str.join(' or ')}` } };
  if (!event?.view) return { ...withEvent, groundTruth: { kind, text: record.Input, unitIds: [], mapping: 'no-event', reason: `no event starts on ${record.state_str.join(' or ')} and leads to the next state` } };
  const match = mapDroidTaskTarget(screen.perception, event.view);
  return { ...withEvent, groundTruth: { kind, text: record.Input, unitIds: match.unitIds, mapping: match.mapping, reason: match.reason } };
}

/**
 * Loads one app folder of DroidTask's `user_tasks/<app>/` layout for offline step mode:
 * each `task*.yaml` becomes an episode; each step gets its DroidBot state (from
 * `states/`, parsed with parseHierarchy and perceived) and the event that performed it
 * (from `events/`: same start state, stop state = the step's next state), and the
 * event's element is mapped to our unit ids. Steps whose state or event is missing keep
 * DroidTask's label with an empty unit list and say why. Throws `DroidTaskLoadError` for
 * unreadable or malformed files.
 */
export async function loadDroidTaskApp(directory: string, options: LoadDroidTaskOptions = {}): Promise<DroidTaskApp> {
  const app = path.basename(directory);
  const taskFiles = (await listFiles(directory, /^task.*\.ya?ml$/)).sort((left, right) => left.localeCompare(right, 'en', { numeric: true }));
  if (taskFiles.length === 0) throw new DroidTaskLoadError({ file: directory, problem: 'no task*.yaml files in this folder' });

  // Only the state_str of each state is kept here: a full download holds thousands of
  // states, and only the ones the task steps name are read again and perceived.
  const statesByStr = new Map<string, string>();
  for (const file of await listFiles(path.join(directory, 'states'), /^state_.*\.json$/)) {
    const header = parseWith(droidBotStateHeaderSchema, parseJson(await readText(file), file), file);
    if (!statesByStr.has(header.state_str)) statesByStr.set(header.state_str, file);
  }
  const events: { file: string; data: DroidBotEventFile }[] = [];
  for (const file of await listFiles(path.join(directory, 'events'), /^event_.*\.json$/)) {
    events.push({ file, data: parseWith(droidBotEventFileSchema, parseJson(await readText(file), file), file) });
  }

  const perceptions = new Map<string, Perception>();
  const perceptionOf = async (file: string): Promise<Perception> => {
    const cached = perceptions.get(file);
    if (cached) return cached;
    const perception = perceive(parseHierarchy(await readBytes(file), { sourceName: file }), options.perception);
    perceptions.set(file, perception);
    return perception;
  };

  const episodes: DroidTaskEpisode[] = [];
  for (const file of taskFiles) {
    const yaml = parseYamlSafely(await readText(file));
    if (!yaml.success) {
      const first = yaml.problems[0];
      throw new DroidTaskLoadError({ file, problem: `not valid YAML (${first?.line === undefined ? '' : `line ${first.line}: `}${first?.message ?? 'unreadable'})` });
    }
    const data = yaml.value.value;
    const task = parseWith(droidTaskFileSchema, data, file);
    const steps: DroidTaskStep[] = [];
    for (const [index, record] of task.records.entries()) {
      const stateFile = record.state_str.map((stateStr) => statesByStr.get(stateStr)).find((entry) => entry !== undefined);
      const screen = stateFile === undefined ? undefined : { file: stateFile, perception: await perceptionOf(stateFile) };
      steps.push(droidTaskStep(record, index, screen, events));
    }
    episodes.push({ app, file, taskName: task.task_name, steps });
  }
  debugLog('tasks', 'droidtask app loaded', { app, tasks: episodes.length, states: statesByStr.size, events: events.length });
  return { app, directory, episodes };
}
