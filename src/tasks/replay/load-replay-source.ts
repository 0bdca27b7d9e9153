import { readdir, stat } from 'node:fs/promises';
import * as path from 'node:path';
import { DroidTaskLoadError } from '../droidtask/droidtask-load-error.js';
import { loadDroidTaskApp } from '../droidtask/load-droidtask-app.js';
import { droidTaskReplayTasks } from './droidtask-replay-tasks.js';
import { loadTransitions } from './load-transitions.js';
import { ReplayLoadError } from './replay-load-error.js';
import { loadDroidBotRun } from './load-droidbot-run.js';
import type { ReplaySource, UnreadableFile } from './replay-task.js';

async function kindOf(target: string): Promise<'file' | 'directory' | undefined> {
  try {
    const info = await stat(target);
    return info.isDirectory() ? 'directory' : info.isFile() ? 'file' : undefined;
  } catch {
    return undefined;
  }
}

async function entries(directory: string): Promise<{ name: string; directory: boolean }[]> {
  try {
    const listed = await readdir(directory, { withFileTypes: true });
    // A symbolic link counts as what it points to (a data folder linked into a corpus folder); a broken one as neither.
    return await Promise.all(listed.map(async (entry) => ({ name: entry.name, directory: entry.isSymbolicLink() ? (await kindOf(path.join(directory, entry.name))) === 'directory' : entry.isDirectory() })));
  } catch (error) {
    throw new ReplayLoadError({ file: directory, problem: `cannot list it (${(error as Error).message})`, cause: error });
  }
}

/**
 * Loads recorded transitions from `source`: a transitions JSONL file, a folder holding
 * `transitions.jsonl`, one DroidTask app folder (`task*.yaml`, `states/`, `events/`),
 * or a folder of such app folders (`user_tasks/`), or a DroidBot output folder
 * (`events/`, `states/`, no task file: one task, `loadDroidBotRun`), or a folder holding
 * such output folders at any depth down to six levels (a task each). Files that cannot be
 * read (empty, malformed) are left out and listed in `unreadable`. Throws
 * `ReplayLoadError` when the source is none of these, or nothing in it can be read.
 */
export async function loadReplaySource(source: string): Promise<ReplaySource> {
  const kind = await kindOf(source);
  if (kind === undefined) throw new ReplayLoadError({ file: source, problem: 'no such file or folder' });
  if (kind === 'file') return loadTransitions(source);
  const names = await entries(source);
  if (names.some((entry) => !entry.directory && entry.name === 'transitions.jsonl')) return loadTransitions(path.join(source, 'transitions.jsonl'));
  const isApp = (list: { name: string; directory: boolean }[]): boolean => list.some((entry) => !entry.directory && /^task.*\.ya?ml$/.test(entry.name));
  const appFolders: string[] = [];
  if (isApp(names)) appFolders.push(source);
  else {
    for (const entry of names.filter((item) => item.directory).sort((left, right) => left.name.localeCompare(right.name))) {
      const folder = path.join(source, entry.name);
      if (isApp(await entries(folder))) appFolders.push(folder);
    }
  }
  if (appFolders.length > 0) return loadDroidTaskFolders(source, appFolders);
  const runs = await droidBotRunFolders(source, names);
  if (runs.length === 0) {
    throw new ReplayLoadError({ file: source, problem: 'the folder holds neither transitions.jsonl, nor DroidTask app folders (task*.yaml with states/ and events/), nor DroidBot output folders (events/ and states/)' });
  }
  return loadDroidBotFolders(source, runs);
}

/** How deep below the source a DroidBot output folder is looked for (e.g. `<repository>/<app>/<run>/output`). */
const droidBotSearchDepth = 6;

function isDroidBotRun(list: readonly { name: string; directory: boolean }[]): boolean {
  return list.some((entry) => entry.directory && entry.name === 'events') && list.some((entry) => entry.directory && entry.name === 'states');
}

/** The DroidBot output folders (`events/` and `states/`) at or below `folder`, in name order; a run's own subfolders are not searched. */
async function droidBotRunFolders(folder: string, names: readonly { name: string; directory: boolean }[], depth = 0): Promise<string[]> {
  if (isDroidBotRun(names)) return [folder];
  if (depth >= droidBotSearchDepth) return [];
  const found: string[] = [];
  for (const entry of names.filter((item) => item.directory && !item.name.startsWith('.')).sort((left, right) => left.name.localeCompare(right.name))) {
    const child = path.join(folder, entry.name);
    found.push(...(await droidBotRunFolders(child, await entries(child), depth + 1)));
  }
  return found;
}

/** What `loadEach` read: the folders loaded, those it could not read (listed), and the first such error. */
interface Loaded<T, E> {
  readonly loaded: T[];
  readonly unreadable: UnreadableFile[];
  readonly firstError?: E;
}

/**
 * Loads each folder in turn. What a loaded folder could not read (`unreadableOf`) and a
 * folder whose load throws a load error (`isLoadError`) are listed as unreadable, in folder
 * order; any other error is thrown.
 */
async function loadEach<T, E extends UnreadableFile>(folders: readonly string[], load: (folder: string) => Promise<T>, isLoadError: (error: unknown) => error is E, unreadableOf: (value: T) => readonly UnreadableFile[]): Promise<Loaded<T, E>> {
  const loaded: T[] = [];
  const unreadable: UnreadableFile[] = [];
  let firstError: E | undefined;
  for (const folder of folders) {
    try {
      const value = await load(folder);
      loaded.push(value);
      unreadable.push(...unreadableOf(value));
    } catch (error) {
      if (!isLoadError(error)) throw error;
      firstError ??= error;
      unreadable.push({ file: error.file, problem: error.problem });
    }
  }
  return { loaded, unreadable, ...(firstError ? { firstError } : {}) };
}

/** DroidBot output folders as one source, a task each; a folder with nothing readable is listed as unreadable, unless no folder can be read at all. */
async function loadDroidBotFolders(source: string, runFolders: readonly string[]): Promise<ReplaySource> {
  const { loaded: runs, unreadable, firstError } = await loadEach(runFolders, loadDroidBotRun, (error) => ReplayLoadError.isInstance(error), (run) => run.unreadable);
  if (runs.length === 0) {
    const where = runFolders.length === 1 ? '' : ` (none of the ${runFolders.length} DroidBot output folders can be read)`;
    throw new ReplayLoadError({ file: firstError?.file ?? source, problem: `${firstError?.problem ?? 'nothing can be read'}${where}`, cause: firstError });
  }
  const screens = {
    read: runs.reduce((sum, run) => sum + run.screens.read, 0),
    withInvertedBounds: runs.reduce((sum, run) => sum + run.screens.withInvertedBounds, 0),
    invertedViews: runs.reduce((sum, run) => sum + run.screens.invertedViews, 0),
  };
  return { name: source, format: 'droidbot', tasks: runs.map((run) => run.task), skipped: runs.flatMap((run) => run.skipped), unreadable, screens };
}

/** DroidTask app folders as one source; an app none of whose task files can be read is listed as unreadable, unless no app can be read at all. */
async function loadDroidTaskFolders(source: string, appFolders: readonly string[]): Promise<ReplaySource> {
  const { loaded: apps, unreadable, firstError } = await loadEach(appFolders, loadDroidTaskApp, (error) => DroidTaskLoadError.isInstance(error), (app) => app.skipped);
  if (apps.length === 0) throw new ReplayLoadError({ file: firstError?.file ?? source, problem: `nothing can be read: ${firstError?.problem ?? 'no app folder'}`, cause: firstError });
  const { tasks, skipped } = droidTaskReplayTasks(apps);
  const screens = {
    read: apps.reduce((sum, app) => sum + app.states, 0),
    withInvertedBounds: apps.reduce((sum, app) => sum + app.invertedBounds.statesWith, 0),
    invertedViews: apps.reduce((sum, app) => sum + app.invertedBounds.views, 0),
  };
  return { name: source, format: 'droidtask', tasks, skipped, unreadable, screens };
}
