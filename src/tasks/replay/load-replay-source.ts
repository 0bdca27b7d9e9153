import { readdir, stat } from 'node:fs/promises';
import * as path from 'node:path';
import { DroidTaskLoadError } from '../droidtask/droidtask-load-error.js';
import { loadDroidTaskApp, type DroidTaskApp } from '../droidtask/load-droidtask-app.js';
import { droidTaskReplayTasks } from './droidtask-replay-tasks.js';
import { loadTransitions } from './load-transitions.js';
import { ReplayLoadError } from './replay-load-error.js';
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
    return (await readdir(directory, { withFileTypes: true })).map((entry) => ({ name: entry.name, directory: entry.isDirectory() }));
  } catch (error) {
    throw new ReplayLoadError({ file: directory, problem: `cannot list it (${(error as Error).message})`, cause: error });
  }
}

/**
 * Loads recorded transitions from `source`: a transitions JSONL file, a folder holding
 * `transitions.jsonl`, one DroidTask app folder (`task*.yaml`, `states/`, `events/`),
 * or a folder of such app folders (`user_tasks/`). DroidTask files that cannot be read
 * (empty, malformed) are left out and listed in `unreadable`. Throws `ReplayLoadError`
 * when the source is none of these, or nothing in it can be read.
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
  if (appFolders.length === 0) {
    throw new ReplayLoadError({ file: source, problem: 'the folder holds neither transitions.jsonl nor DroidTask app folders (task*.yaml with states/ and events/)' });
  }
  return loadDroidTaskFolders(source, appFolders);
}

/** DroidTask app folders as one source; an app none of whose task files can be read is listed as unreadable, unless no app can be read at all. */
async function loadDroidTaskFolders(source: string, appFolders: readonly string[]): Promise<ReplaySource> {
  const apps: DroidTaskApp[] = [];
  const unreadable: UnreadableFile[] = [];
  let firstError: DroidTaskLoadError | undefined;
  for (const folder of appFolders) {
    try {
      const app = await loadDroidTaskApp(folder);
      apps.push(app);
      unreadable.push(...app.skipped);
    } catch (error) {
      if (!DroidTaskLoadError.isInstance(error)) throw error;
      firstError ??= error;
      unreadable.push({ file: error.file, problem: error.problem });
    }
  }
  if (apps.length === 0) throw new ReplayLoadError({ file: firstError?.file ?? source, problem: `nothing can be read: ${firstError?.problem ?? 'no app folder'}`, cause: firstError });
  const { tasks, skipped } = droidTaskReplayTasks(apps);
  const screens = {
    read: apps.reduce((sum, app) => sum + app.states, 0),
    withInvertedBounds: apps.reduce((sum, app) => sum + app.invertedBounds.statesWith, 0),
    invertedViews: apps.reduce((sum, app) => sum + app.invertedBounds.views, 0),
  };
  return { name: source, format: 'droidtask', tasks, skipped, unreadable, screens };
}
