import { readdir, readFile, stat } from 'node:fs/promises';
import * as path from 'node:path';
import type { z } from 'zod';
import { decodeDumpBytes } from '../../ui/decode-dump-bytes.js';
import { isInvertedBounds } from '../../ui/bounds.js';
import { HierarchyParseError } from '../../ui/hierarchy-parse-error.js';
import { parseHierarchy } from '../../ui/parse-hierarchy.js';
import type { UiTree } from '../../ui/ui-tree.js';
import { DroidTaskLoadError } from './droidtask-load-error.js';
import { droidBotEventFileSchema, droidBotStateHeaderSchema } from './droidtask-schema.js';
import type { DroidTaskEventEntry } from './pair-droidtask-event.js';

/** A recorded file the loader left out (empty, not JSON / YAML, not the expected fields), with the problem. */
export interface DroidTaskSkippedFile {
  readonly file: string;
  readonly problem: string;
}

/** A state file of a DroidBot output folder: where it is and when DroidBot saved it (`YYYY-MM-DD_HHMMSS`). */
export interface StateFileEntry {
  readonly file: string;
  readonly tag: string;
}

/** The readable files of a DroidBot output folder (`states/`, `events/`), indexed. */
export interface DroidBotOutputIndex {
  readonly statesByStr: ReadonlyMap<string, readonly StateFileEntry[]>;
  readonly eventsByStart: ReadonlyMap<string, readonly DroidTaskEventEntry[]>;
  /** Every readable event, in file-name order (DroidBot names them by the time it sent them). */
  readonly events: readonly DroidTaskEventEntry[];
  readonly states: number;
  readonly invertedBounds: { statesWith: number; views: number };
}

async function readBytes(file: string): Promise<Uint8Array> {
  try {
    return await readFile(file);
  } catch (error) {
    throw new DroidTaskLoadError({ file, problem: `cannot read it (${(error as Error).message})`, cause: error });
  }
}

/** Checks `data` against `schema`; throws `DroidTaskLoadError` naming the file and the first bad field. */
export function parseDroidTaskData<T>(schema: z.ZodType<T>, data: unknown, file: string): T {
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

/** The files of `directory` whose names match `pattern`, sorted; none when the folder does not exist. */
export async function listDroidTaskFiles(directory: string, pattern: RegExp): Promise<string[]> {
  try {
    const entries = await readdir(directory, { withFileTypes: true });
    const files: string[] = [];
    for (const entry of entries) {
      if (!pattern.test(entry.name)) continue;
      const file = path.join(directory, entry.name);
      // A symbolic link counts as the file it points to; a broken one is left out.
      if (entry.isFile() || (entry.isSymbolicLink() && (await stat(file).then((info) => info.isFile(), () => false)))) files.push(file);
    }
    return files.sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new DroidTaskLoadError({ file: directory, problem: `cannot list it (${(error as Error).message})`, cause: error });
  }
}

/** A recorded file read with `parse` (UTF-8, or UTF-16 by byte-order mark); an empty or malformed one is listed in `skipped` and gives undefined. */
export async function readRecorded<T>(file: string, parse: (text: string) => T, skipped: DroidTaskSkippedFile[]): Promise<T | undefined> {
  try {
    const text = decodeDumpBytes(await readBytes(file)).text;
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

/**
 * Reads every state header (`states/state_*.json`) and event (`events/event_*.json`) of a
 * DroidBot output folder (DroidBot's own, or one app of DroidTask's download). A file that
 * cannot be read is listed in `skipped` and left out.
 */
export async function indexDroidBotOutput(directory: string, skipped: DroidTaskSkippedFile[]): Promise<DroidBotOutputIndex> {
  const statesByStr = new Map<string, StateFileEntry[]>();
  const invertedBounds = { statesWith: 0, views: 0 };
  let states = 0;
  for (const file of await listDroidTaskFiles(path.join(directory, 'states'), /^state_.*\.json$/)) {
    const read = await readRecorded(file, (text) => {
      const data = parseJson(text, file);
      return { header: parseDroidTaskData(droidBotStateHeaderSchema, data, file), inverted: invertedViews(data) };
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
  const events: DroidTaskEventEntry[] = [];
  for (const file of await listDroidTaskFiles(path.join(directory, 'events'), /^event_.*\.json$/)) {
    const data = await readRecorded(file, (text) => parseDroidTaskData(droidBotEventFileSchema, parseJson(text, file), file), skipped);
    if (!data) continue;
    events.push({ file, data });
    const list = eventsByStart.get(data.start_state);
    if (list) list.push({ file, data });
    else eventsByStart.set(data.start_state, [{ file, data }]);
  }
  return { statesByStr, eventsByStart, events, states, invertedBounds };
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

/** A screen read from a state file. */
export interface DroidBotScreen {
  readonly file: string;
  readonly tree: UiTree;
  /**
   * Set on a screen after an event when its file was saved before the event: DroidBot
   * saves a file the first time it sees a state_str, so the state reached may only be on
   * disk as read earlier. A state_str is the set of the views' signatures, so that file
   * shows the same views, but two alike switches may have traded states.
   */
  readonly savedBeforeEvent?: true;
}

/** The screens of a DroidBot output folder, read on demand (`droidBotScreens`). */
export interface DroidBotScreens {
  /**
   * The screens before and after `event` (the state files of its start and stop states
   * saved nearest it); without an event, or without a readable file of its states, the
   * first readable file of `stateStrs` and of `nextStateStrs`.
   */
  around(stateStrs: readonly string[], nextStateStrs: readonly string[], event: DroidTaskEventEntry | undefined): Promise<{ before?: DroidBotScreen; after?: DroidBotScreen }>;
}

/**
 * The screens of a DroidBot output folder, parsed with parseHierarchy on demand and
 * cached. A state file that does not parse is listed in `skipped` once and the next file
 * with the same state_str is tried.
 */
export function droidBotScreens(statesByStr: ReadonlyMap<string, readonly StateFileEntry[]>, skipped: DroidTaskSkippedFile[]): DroidBotScreens {
  const trees = new Map<string, UiTree | null>();
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
  const first = async (candidates: readonly StateFileEntry[], savedBefore?: string): Promise<DroidBotScreen | undefined> => {
    for (const entry of candidates) {
      const tree = await treeOf(entry.file);
      if (tree) return { file: entry.file, tree, ...(savedBefore !== undefined && entry.tag < savedBefore ? { savedBeforeEvent: true as const } : {}) };
    }
    return undefined;
  };
  const filesOf = (stateStrs: readonly string[]): StateFileEntry[] => stateStrs.flatMap((stateStr) => statesByStr.get(stateStr) ?? []);
  return {
    async around(stateStrs, nextStateStrs, event) {
      const tag = event?.data.tag;
      const stop = event?.data.stop_state;
      const before = (event ? await first(statesAround(filesOf([event.data.start_state]), tag, 'before')) : undefined) ?? (await first(filesOf(stateStrs)));
      const after = (event && typeof stop === 'string' ? await first(statesAround(filesOf([stop]), tag, 'after'), tag) : undefined) ?? (await first(filesOf(nextStateStrs)));
      return { ...(before ? { before } : {}), ...(after ? { after } : {}) };
    },
  };
}
