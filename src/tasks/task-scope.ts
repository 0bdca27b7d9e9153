import { parseStatePath, type StatePathSegment } from './resolve-state-path.js';
import type { Task } from './task-schema.js';

/** A state path of one app that a task may change, as segments (`all` matches any element). */
export interface ScopedStatePath {
  readonly app: string;
  readonly path: readonly StatePathSegment[];
}

/** What a task may change: app state paths (the simulator) and adb queries (a device). */
export interface TaskScope {
  readonly state: readonly ScopedStatePath[];
  /** adb commands whose output may change, whitespace-normalised. */
  readonly adb: readonly string[];
}

/** An adb command as compared between the task, the scope and the device profile: single spaces, trimmed. */
export function normaliseAdbCommand(command: string): string {
  return command.trim().replace(/\s+/g, ' ');
}

/**
 * The part of a checked path a run may change to make the check hold: the path up to its
 * first index or wildcard (`alarms[*].enabled` → `alarms`: adding, removing or editing an
 * alarm), else the whole path (`network.wifi`). The app's id counter (`nextId`, at the top
 * or beside the path) goes with it, since adding an item to a list draws an id from it.
 */
function checkedScope(app: string, path: string): ScopedStatePath[] {
  const segments = parseStatePath(path);
  const collection = segments.findIndex((segment) => segment.kind !== 'key');
  if (collection === 0) return [{ app, path: [] }];
  return withCounter(app, collection < 0 ? segments : segments.slice(0, collection));
}

/** A path in scope with the app's id counters: `nextId` at the top and beside the path. */
function withCounter(app: string, path: readonly StatePathSegment[]): ScopedStatePath[] {
  const counter = { kind: 'key', key: 'nextId' } as const;
  return [{ app, path }, { app, path: [counter] }, ...(path.length > 1 ? [{ app, path: [...path.slice(0, -1), counter] }] : [])];
}

/**
 * The state a task may change (docs/architecture.md §2.10): derived from its success check
 * — each state check's path (see `checkedScope`), each adb check's command — plus the
 * task's own `scope` entries. A query task with no state check may change nothing.
 */
export function taskScope(task: Task): TaskScope {
  const state: ScopedStatePath[] = [];
  const adb = new Set<string>();
  for (const check of task.success?.state ?? []) {
    state.push(...checkedScope(check.app, check.path));
  }
  for (const check of task.success?.adb ?? []) adb.add(normaliseAdbCommand(check.command));
  for (const entry of task.scope ?? []) {
    if ('adb' in entry) adb.add(normaliseAdbCommand(entry.adb));
    else state.push(...withCounter(entry.app, parseStatePath(entry.path)));
  }
  return { state, adb: [...adb] };
}
