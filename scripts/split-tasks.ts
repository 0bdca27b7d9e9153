// Splits a suite's tasks into two fixed halves by a hash of each task id (sha256, first
// byte even → half a, odd → half b), for a train/test split of skills (docs/skills.md): induce
// from one half, run the other. Prints the ids of the half asked for, comma-separated,
// for `senseact bench --tasks`; with --summary, how many tasks each half holds per app.
//   npx tsx scripts/split-tasks.ts --suite sim --half a
//   npx tsx scripts/split-tasks.ts --suite sim --summary
import { createHash } from 'node:crypto';
import * as path from 'node:path';
import { loadSuite } from '../src/tasks/load-task-file.js';

/** The half a task id falls in: the same id always lands in the same half. */
export function halfOf(id: string): 'a' | 'b' {
  const first = createHash('sha256').update(id).digest()[0] ?? 0;
  return first % 2 === 0 ? 'a' : 'b';
}

const args = process.argv.slice(2);
const option = (name: string): string | undefined => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
};
const suiteName = option('--suite') ?? 'sim';
const half = option('--half');
if (!args.includes('--summary') && half !== 'a' && half !== 'b') {
  console.error('split-tasks: pass --half a or --half b (or --summary); e.g. npx tsx scripts/split-tasks.ts --suite sim --half a');
  process.exit(2);
}
const suite = await loadSuite(suiteName, { tasksRoot: path.resolve(import.meta.dirname, '..', 'tasks') });
if (args.includes('--summary')) {
  const rows = new Map<string, { a: number; b: number }>();
  for (const task of suite.tasks) {
    const row = rows.get(task.app) ?? { a: 0, b: 0 };
    row[halfOf(task.id)] += 1;
    rows.set(task.app, row);
  }
  for (const [app, row] of rows) console.log(`${app.padEnd(34)} a ${String(row.a).padStart(3)}  b ${String(row.b).padStart(3)}`);
} else {
  console.log(suite.tasks.filter((task) => halfOf(task.id) === half).map((task) => task.id).join(','));
}
