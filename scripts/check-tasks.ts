// Loads every suite under tasks/ with the zod schemas and the predicate parser, and prints
// per-suite counts (tasks, success checks by kind, answers, solutions) and load time.
// Exits 1 on any load error.
//   npx tsx scripts/check-tasks.ts [suite ...]
// With --droidtask <user_tasks dir>, loads DroidTask's downloaded data instead (every app
// folder, or one app folder) and prints how the recorded steps map to our units.
//   npx tsx scripts/check-tasks.ts --droidtask ~/DroidTask/user_tasks
import { readdirSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { DroidTaskLoadError } from '../src/tasks/droidtask/droidtask-load-error.js';
import { loadDroidTaskApp } from '../src/tasks/droidtask/load-droidtask-app.js';
import { loadSuite } from '../src/tasks/load-task-file.js';
import { TaskLoadError } from '../src/tasks/task-load-error.js';

const tasksRoot = path.resolve(import.meta.dirname, '..', 'tasks');
const args = process.argv.slice(2);
const droidtaskAt = args.indexOf('--droidtask');

async function checkSuites(requested: readonly string[]): Promise<boolean> {
  const suites = requested.length > 0 ? requested : readdirSync(tasksRoot, { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name).sort();
  let ok = true;
  for (const name of suites) {
    const started = performance.now();
    try {
      const suite = await loadSuite(name, { tasksRoot });
      const count = (predicate: (task: (typeof suite.tasks)[number]) => boolean): number => suite.tasks.filter(predicate).length;
      const apps = new Map<string, number>();
      for (const task of suite.tasks) apps.set(task.app, (apps.get(task.app) ?? 0) + 1);
      const sources = new Map<string, number>();
      for (const task of suite.tasks) sources.set(task.source.benchmark, (sources.get(task.source.benchmark) ?? 0) + 1);
      console.log(
        `${name}: ${suite.tasks.length} tasks (${[...apps].map(([app, n]) => `${app} ${n}`).join(', ')}); ` +
          `sources ${[...sources].map(([source, n]) => `${source} ${n}`).join(', ')}; ` +
          `screen checks ${count((task) => task.success?.screen !== undefined)}, state checks ${count((task) => task.success?.state !== undefined)}, ` +
          `adb checks ${count((task) => task.success?.adb !== undefined)}, answers ${count((task) => task.answer !== undefined)}, ` +
          `solutions ${count((task) => task.solution !== undefined)}; loaded in ${(performance.now() - started).toFixed(0)} ms`,
      );
    } catch (error) {
      if (!TaskLoadError.isInstance(error)) throw error;
      ok = false;
      console.error(error.message);
    }
  }
  return ok;
}

async function checkDroidTask(root: string): Promise<boolean> {
  const isApp = readdirSync(root).some((name) => /^task.*\.ya?ml$/.test(name));
  const apps = isApp ? [root] : readdirSync(root).map((name) => path.join(root, name)).filter((entry) => statSync(entry).isDirectory()).sort();
  let ok = true;
  for (const directory of apps) {
    const started = performance.now();
    try {
      const app = await loadDroidTaskApp(directory);
      const kinds = new Map<string, number>();
      let steps = 0;
      for (const episode of app.episodes) {
        for (const step of episode.steps) {
          steps++;
          const truth = step.groundTruth;
          const kind = truth.kind === 'finish' || truth.kind === 'back' ? truth.kind : `${truth.kind}:${truth.mapping}`;
          kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
        }
      }
      console.log(`${app.app}: ${app.episodes.length} tasks, ${steps} steps (${[...kinds].sort().map(([kind, n]) => `${kind} ${n}`).join(', ')}); loaded in ${(performance.now() - started).toFixed(0)} ms`);
    } catch (error) {
      if (!DroidTaskLoadError.isInstance(error)) throw error;
      ok = false;
      console.error(error.message);
    }
  }
  return ok;
}

const ok = droidtaskAt >= 0
  ? await checkDroidTask(path.resolve(args[droidtaskAt + 1] ?? '.'))
  : await checkSuites(args);
process.exitCode = ok ? 0 : 1;
