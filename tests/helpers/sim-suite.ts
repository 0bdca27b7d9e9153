import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { loadSuite } from '../../src/tasks/load-task-file.js';
import type { Task } from '../../src/tasks/task-schema.js';

const repoRoot = path.resolve(import.meta.dirname, '..', '..');

/** The repository's simulator suite (`tasks/sim`), loaded once per test file. */
export const simSuite = await loadSuite('sim', { tasksRoot: path.join(repoRoot, 'tasks') });

/** A task of `tasks/sim` by id; throws naming the id when the suite has none. */
export function simSuiteTask(id: string): Task {
  const task = simSuite.tasks.find((candidate) => candidate.id === id);
  if (!task) throw new Error(`tasks/sim has no task ${id}`);
  return task;
}

/**
 * A temporary folder for the run folders of one test file: made before its tests, removed
 * after them. Read `dir()` inside a test (it is set once `beforeAll` has run).
 */
export function temporaryRunRoot(prefix: string): { dir(): string } {
  let root: string | undefined;
  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), prefix));
  });
  afterAll(async () => {
    if (root !== undefined) await rm(root, { recursive: true, force: true });
  });
  return {
    dir: () => {
      if (root === undefined) throw new Error('temporaryRunRoot: read dir() inside a test, after beforeAll');
      return root;
    },
  };
}
