// The AndroidWorld suite's app-database tasks (docs/androidworld.md), run on the host's
// sqlite3 against a stand-in of each app's table (the columns the tasks read; the schemas
// below are ours): the start steps' SQL fills it, and the task's own check then fails on
// the untouched start, passes after what the task asks, and fails after the same plus a
// mistake (a stray row added).
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import { expect, it } from 'vitest';
import { evaluateSuccess } from '../../../src/tasks/evaluate-success.js';
import { loadSuite } from '../../../src/tasks/load-task-file.js';
import type { Task } from '../../../src/tasks/task-schema.js';
import { parseHierarchy } from '../../../src/ui/parse-hierarchy.js';
import { describeWithTool, sqliteTool } from '../../helpers/system-tool.js';

const repoRoot = path.resolve(import.meta.dirname, '..', '..', '..');
const suite = await loadSuite('androidworld', { tasksRoot: path.join(repoRoot, 'tasks') });
const finalTree = parseHierarchy('<hierarchy rotation="0"><node index="0" text="" class="android.widget.FrameLayout" package="com.android.settings" bounds="[0,0][1080,2400]" /></hierarchy>');

/** Stand-ins of the apps' tables: the columns the tasks write and read, an autoincrement key. */
const schemas: Readonly<Record<string, string>> = {
  expense: 'CREATE TABLE expense (expense_id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL, amount INTEGER NOT NULL, category INTEGER NOT NULL, note TEXT, created_date INTEGER NOT NULL, modified_date INTEGER NOT NULL);',
  recipes: 'CREATE TABLE recipes (recipeId INTEGER PRIMARY KEY AUTOINCREMENT, title TEXT, description TEXT, servings TEXT, preparationTime TEXT, source TEXT, ingredients TEXT, directions TEXT, favorite INTEGER, imageName TEXT);',
};

/** The SQL of an `su 0 sqlite3 <db> "<sql>"` command. */
function sqlOf(command: string): string | undefined {
  return /su 0 sqlite3 \S+ "(.*)"$/s.exec(command)?.[1];
}

type Row = Readonly<Record<string, string | number>>;
const rowsParam = (task: Task, key: string): Row[] => (task.source.benchmark === 'androidworld' ? (JSON.parse(String(task.source.params[key])) as Row[]) : []);

/** What the task asks, in SQL on the stand-in table, from the rows it drew. */
function doneSql(task: Task, table: string): string {
  const template = task.source.benchmark === 'androidworld' ? task.source.template : '';
  const key = table === 'expense' ? 'name' : 'title';
  const targets = rowsParam(task, 'targets');
  const literal = (value: string | number): string => (typeof value === 'number' ? String(value) : `'${value.replaceAll("'", "''")}'`);
  if (template.includes('Duplicate')) {
    const [target] = targets;
    const where = Object.entries(target ?? {}).filter(([column]) => column !== 'created_date').map(([column, value]) => `[${column}] = ${literal(value)}`).join(' AND ');
    return `DELETE FROM ${table} WHERE rowid = (SELECT min(rowid) FROM ${table} WHERE ${where});`;
  }
  if (template.includes('Delete')) return `DELETE FROM ${table} WHERE [${key}] IN (${targets.map((row) => literal(row[key] ?? '')).join(', ')});`;
  // Added through the app: the texts as a person types them (other case, a trailing space), new dates.
  return targets
    .map((row) => {
      const typed = Object.fromEntries(Object.entries(row).map(([column, value]) => [column, typeof value === 'string' && column === key ? `${value.toUpperCase()} ` : column === 'created_date' ? 1697384040000 : value]));
      const full = table === 'expense' ? { ...typed, modified_date: typed['created_date'] ?? 0 } : { ...typed, source: '', favorite: 0 };
      return `INSERT INTO ${table} (${Object.keys(full).map((column) => `[${column}]`).join(', ')}) VALUES (${Object.values(full).map(literal).join(', ')});`;
    })
    .join(' ');
}

describeWithTool(sqliteTool, import.meta.filename, 'AndroidWorld app-database checks on sqlite3', (sqlite3) => {
  const seeded = suite.tasks.filter((task) => (task.start.device ?? []).some((step) => 'adb' in step && / sqlite3 .*INSERT INTO/.test(step.adb)));

  it('covers the Pro Expense and Broccoli templates that write rows', () => {
    expect(seeded.map((task) => task.id).filter((id) => /expense|recipe/.test(id))).toHaveLength(20);
  });

  for (const task of seeded) {
    it(`${task.id}: fails untouched, passes done, fails done with a mistake`, async () => {
      const seedSql = (task.start.device ?? []).flatMap((step) => ('adb' in step ? [sqlOf(step.adb)] : [])).find((sql) => sql !== undefined) ?? '';
      const table = /DELETE FROM (\w+);/.exec(seedSql)?.[1] ?? '';
      expect(schemas[table], `a stand-in schema for table ${table}`).toBeDefined();
      const checks = task.success?.adb ?? [];
      expect(checks.length).toBeGreaterThan(0);
      // Each check on its own in-memory database: the stand-in table, the start's rows, the change, the query.
      const outcome = async (extraSql: string): Promise<boolean> => {
        const adbOutputs = Object.fromEntries(checks.map((check) => [check.command, execFileSync(sqlite3, [':memory:', `${schemas[table] ?? ''} ${seedSql} ${extraSql} ${sqlOf(check.command) ?? 'SELECT 1;'}`], { encoding: 'utf8' })]));
        return (await evaluateSuccess(task, { finalTree, adbOutputs })).success;
      };
      const done = doneSql(task, table);
      expect(await outcome(''), 'untouched').toBe(false);
      expect(await outcome(done), 'done').toBe(true);
      const key = table === 'expense' ? '[name], [amount], [category], [note], [created_date], [modified_date]' : '[title], [description]';
      const stray = table === 'expense' ? "'Stray row', 100, 1, '', 0, 0" : "'Stray recipe', ''";
      expect(await outcome(`${done} INSERT INTO ${table} (${key}) VALUES (${stray});`), 'done, and a stray row added').toBe(false);
    });
  }
});
