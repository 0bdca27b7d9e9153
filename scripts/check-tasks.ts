// Loads every suite under tasks/ with the zod schemas and the predicate parser, and prints
// per-suite counts (tasks, success checks by kind, answers, solutions). Exits 1 on any
// load error. Run: npx tsx scripts/check-tasks.ts [suite ...]
import { readdirSync } from 'node:fs';
import * as path from 'node:path';
import { loadSuite } from '../src/tasks/load-task-file.js';
import { TaskLoadError } from '../src/tasks/task-load-error.js';

const tasksRoot = path.resolve(import.meta.dirname, '..', 'tasks');
const requested = process.argv.slice(2);
const suites = requested.length > 0 ? requested : readdirSync(tasksRoot, { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name).sort();

let failed = false;
for (const name of suites) {
  const started = performance.now();
  try {
    const suite = await loadSuite(name, { tasksRoot });
    const count = (predicate: (task: (typeof suite.tasks)[number]) => boolean): number => suite.tasks.filter(predicate).length;
    const apps = new Map<string, number>();
    for (const task of suite.tasks) apps.set(task.app, (apps.get(task.app) ?? 0) + 1);
    console.log(
      `${name}: ${suite.tasks.length} tasks (${[...apps].map(([app, n]) => `${app} ${n}`).join(', ')}); ` +
        `screen checks ${count((task) => task.success?.screen !== undefined)}, state checks ${count((task) => task.success?.state !== undefined)}, ` +
        `adb checks ${count((task) => task.success?.adb !== undefined)}, answers ${count((task) => task.answer !== undefined)}, ` +
        `solutions ${count((task) => task.solution !== undefined)}; loaded in ${(performance.now() - started).toFixed(0)} ms`,
    );
  } catch (error) {
    if (!TaskLoadError.isInstance(error)) throw error;
    failed = true;
    console.error(error.message);
  }
}
process.exitCode = failed ? 1 : 0;
