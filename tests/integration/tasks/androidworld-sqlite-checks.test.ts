// The AndroidWorld suite's app-database tasks (docs/androidworld.md), run on the host's
// sqlite3 against a stand-in of each app's table (the columns the tasks read; the schemas
// below are ours): the start steps' SQL fills it, and the task's own check then fails on
// the untouched start, passes after what the task asks, and fails after the same plus a
// mistake (a stray row added); a question's true answer (from the rows it wrote) passes
// and another row's title or name fails.
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
  events:
    "CREATE TABLE events (id INTEGER PRIMARY KEY AUTOINCREMENT, start_ts INTEGER NOT NULL, end_ts INTEGER NOT NULL, title TEXT NOT NULL, location TEXT NOT NULL DEFAULT '', description TEXT NOT NULL DEFAULT '', " +
    "reminder_1_minutes INTEGER DEFAULT -1, reminder_2_minutes INTEGER DEFAULT -1, reminder_3_minutes INTEGER DEFAULT -1, reminder_1_type INTEGER DEFAULT 0, reminder_2_type INTEGER DEFAULT 0, reminder_3_type INTEGER DEFAULT 0, " +
    "repeat_interval INTEGER DEFAULT 0, repeat_rule INTEGER DEFAULT 0, repeat_limit INTEGER DEFAULT 0, repetition_exceptions TEXT DEFAULT '[]', attendees TEXT DEFAULT '', import_id TEXT DEFAULT '', time_zone TEXT DEFAULT '', " +
    "flags INTEGER DEFAULT 0, event_type INTEGER DEFAULT 1, parent_id INTEGER DEFAULT 0, last_updated INTEGER DEFAULT 0, source TEXT DEFAULT '', availability INTEGER DEFAULT 0, color INTEGER DEFAULT 0, type INTEGER DEFAULT 0);",
  tasks:
    'CREATE TABLE tasks (_id INTEGER PRIMARY KEY AUTOINCREMENT, title TEXT, importance INTEGER NOT NULL, dueDate INTEGER NOT NULL, hideUntil INTEGER NOT NULL, created INTEGER NOT NULL, modified INTEGER NOT NULL, completed INTEGER NOT NULL, deleted INTEGER NOT NULL, notes TEXT, ' +
    'estimatedSeconds INTEGER NOT NULL, elapsedSeconds INTEGER NOT NULL, timerStart INTEGER NOT NULL, notificationFlags INTEGER NOT NULL, lastNotified INTEGER NOT NULL, recurrence TEXT, repeat_from INTEGER NOT NULL, calendarUri TEXT, remoteId TEXT, collapsed INTEGER NOT NULL, parent INTEGER NOT NULL, [order] INTEGER, read_only INTEGER NOT NULL);',
  tracks:
    'CREATE TABLE tracks (_id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT, description TEXT, category TEXT, activity_type TEXT, starttime INTEGER, stoptime INTEGER, numpoints INTEGER, totaldistance FLOAT, totaltime INTEGER, movingtime INTEGER, ' +
    'avgspeed FLOAT, avgmovingspeed FLOAT, maxspeed FLOAT, minelevation FLOAT, maxelevation FLOAT, elevationgain FLOAT, icon TEXT, uuid BLOB, elevationloss FLOAT, starttime_offset INTEGER);',
  notes:
    "CREATE TABLE notes (id TEXT PRIMARY KEY, parent_id TEXT NOT NULL DEFAULT '', title TEXT NOT NULL DEFAULT '', body TEXT NOT NULL DEFAULT '', created_time INT NOT NULL, updated_time INT NOT NULL, is_conflict INT NOT NULL DEFAULT 0, latitude NUMERIC NOT NULL DEFAULT 0, " +
    "longitude NUMERIC NOT NULL DEFAULT 0, altitude NUMERIC NOT NULL DEFAULT 0, author TEXT NOT NULL DEFAULT '', source_url TEXT NOT NULL DEFAULT '', is_todo INT NOT NULL DEFAULT 0, todo_due INT NOT NULL DEFAULT 0, todo_completed INT NOT NULL DEFAULT 0, " +
    "source TEXT NOT NULL DEFAULT '', source_application TEXT NOT NULL DEFAULT '', application_data TEXT NOT NULL DEFAULT '', [order] NUMERIC NOT NULL DEFAULT 0, user_created_time INT NOT NULL DEFAULT 0, user_updated_time INT NOT NULL DEFAULT 0, " +
    "encryption_cipher_text TEXT NOT NULL DEFAULT '', encryption_applied INT NOT NULL DEFAULT 0, markup_language INT NOT NULL DEFAULT 1, is_shared INT NOT NULL DEFAULT 0, share_id TEXT NOT NULL DEFAULT '', conflict_original_id TEXT NOT NULL DEFAULT '', " +
    "master_key_id TEXT NOT NULL DEFAULT '', user_data TEXT NOT NULL DEFAULT ''); " +
    "CREATE TABLE notes_normalized (id TEXT NOT NULL, title TEXT NOT NULL DEFAULT '', body TEXT NOT NULL DEFAULT '', user_created_time INT NOT NULL DEFAULT 0, user_updated_time INT NOT NULL DEFAULT 0, is_todo INT NOT NULL DEFAULT 0, todo_completed INT NOT NULL DEFAULT 0, " +
    "parent_id TEXT NOT NULL DEFAULT '', latitude NUMERIC NOT NULL DEFAULT 0, longitude NUMERIC NOT NULL DEFAULT 0, altitude NUMERIC NOT NULL DEFAULT 0, source_url TEXT NOT NULL DEFAULT '', todo_due INT NOT NULL DEFAULT 0); " +
    "CREATE TABLE folders (id TEXT PRIMARY KEY, title TEXT NOT NULL DEFAULT '', created_time INT NOT NULL, updated_time INT NOT NULL, user_created_time INT NOT NULL DEFAULT 0, user_updated_time INT NOT NULL DEFAULT 0, encryption_cipher_text TEXT NOT NULL DEFAULT '', " +
    "encryption_applied INT NOT NULL DEFAULT 0, parent_id TEXT NOT NULL DEFAULT '', is_shared INT NOT NULL DEFAULT 0, share_id TEXT NOT NULL DEFAULT '', master_key_id TEXT NOT NULL DEFAULT '');",
  recipes: 'CREATE TABLE recipes (recipeId INTEGER PRIMARY KEY AUTOINCREMENT, title TEXT, description TEXT, servings TEXT, preparationTime TEXT, source TEXT, ingredients TEXT, directions TEXT, favorite INTEGER, imageName TEXT);',
};

/** The SQL of an `su 0 sqlite3 <db> "<sql>"` command. */
function sqlOf(command: string): string | undefined {
  return /su 0 sqlite3 \S+ "(.*)"$/s.exec(command)?.[1];
}

/** The column a task names its rows by. */
const keys: Readonly<Record<string, string>> = { expense: 'name', recipes: 'title', events: 'title', tasks: 'title', tracks: 'name', notes: 'title' };
/** A row the task did not ask for. */
const strays: Readonly<Record<string, string>> = {
  expense: "INSERT INTO expense (name, amount, category, note, created_date, modified_date) VALUES ('Stray row', 100, 1, '', 0, 0);",
  recipes: "INSERT INTO recipes (title, description) VALUES ('Stray recipe', '');",
  events: "INSERT INTO events (start_ts, end_ts, title) VALUES (1697500800, 1697501700, 'Stray event');",
};

type Row = Readonly<Record<string, string | number>>;
const rowsParam = (task: Task, key: string): Row[] => (task.source.benchmark === 'androidworld' ? (JSON.parse(String(task.source.params[key])) as Row[]) : []);

/** What the task asks, in SQL on the stand-in table, from the rows it drew. */
function doneSql(task: Task, table: string): string {
  const template = task.source.benchmark === 'androidworld' ? task.source.template : '';
  const key = keys[table] ?? 'title';
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
      const full = table === 'expense' ? { ...typed, modified_date: typed['created_date'] ?? 0 } : table === 'recipes' ? { ...typed, source: '', favorite: 0 } : typed;
      return `INSERT INTO ${table} (${Object.keys(full).map((column) => `[${column}]`).join(', ')}) VALUES (${Object.values(full).map(literal).join(', ')});`;
    })
    .join(' ');
}

describeWithTool(sqliteTool, import.meta.filename, 'AndroidWorld app-database checks on sqlite3', (sqlite3) => {
  const seeded = suite.tasks.filter((task) => (task.start.device ?? []).some((step) => 'adb' in step && / sqlite3 .*INSERT INTO/.test(step.adb)));

  it('covers the Pro Expense, Broccoli, Simple Calendar Pro, Tasks, OpenTracks and Joplin templates that write rows', () => {
    expect(seeded.map((task) => task.id).filter((id) => /^aw-(expense|recipe)-/.test(id))).toHaveLength(20);
    expect(seeded.map((task) => task.id).filter((id) => /calendar/.test(id))).toHaveLength(17);
    expect(seeded.map((task) => task.id).filter((id) => /^aw-tasks-/.test(id))).toHaveLength(6);
    expect(seeded.map((task) => task.id).filter((id) => /^aw-sports-tracker-/.test(id))).toHaveLength(6);
    expect(seeded.map((task) => task.id).filter((id) => /^aw-notes-/.test(id))).toHaveLength(4);
  });

  for (const task of seeded) {
    const seedSql = (task.start.device ?? []).flatMap((step) => ('adb' in step ? [sqlOf(step.adb)] : [])).find((sql) => sql !== undefined) ?? '';
    const table = /DELETE FROM (\w+);/.exec(seedSql)?.[1] ?? '';
    const checks = task.success?.adb ?? [];
    // Each query on its own in-memory database: the stand-in table, the start's rows, a change, the query.
    const run = (extraSql: string, query: string): string => execFileSync(sqlite3, [':memory:', `${schemas[table] ?? ''} ${seedSql} ${extraSql} ${query}`], { encoding: 'utf8' });
    const outcome = async (extraSql: string, answer?: string): Promise<boolean> => {
      const adbOutputs = Object.fromEntries(checks.map((check) => [check.command, run(extraSql, sqlOf(check.command) ?? 'SELECT 1;')]));
      return (await evaluateSuccess(task, { finalTree, adbOutputs, ...(answer === undefined ? {} : { answer }) })).success;
    };

    if (task.answer !== undefined) {
      it(`${task.id}: its rows load; the true answer passes, another title fails`, async () => {
        expect(schemas[table], `a stand-in schema for table ${table}`).toBeDefined();
        const titles = run('', `SELECT ${keys[table] ?? 'title'} FROM ${table};`).trim().split('\n');
        const expected = [task.answer?.expected ?? []].flat();
        expect(titles.length).toBeGreaterThan(2);
        expect(await outcome('', expected[0])).toBe(true);
        const wrong = titles.find((title) => !expected.some((answer) => answer.includes(title)));
        expect(await outcome('', wrong)).toBe(false);
      });
      continue;
    }

    it(`${task.id}: fails untouched, passes done, fails done with a mistake`, async () => {
      expect(schemas[table], `a stand-in schema for table ${table}`).toBeDefined();
      expect(checks.length).toBeGreaterThan(0);
      const done = doneSql(task, table);
      expect(await outcome(''), 'untouched').toBe(false);
      expect(await outcome(done), 'done').toBe(true);
      expect(await outcome(`${done} ${strays[table] ?? ''}`), 'done, and a stray row added').toBe(false);
    });
  }
});
