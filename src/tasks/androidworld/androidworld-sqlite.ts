import type { AdbCheck, DeviceSetupStep } from '../task-schema.js';
import { shell, shellQuote } from './androidworld-device-steps.js';

/**
 * The app-database side of the AndroidWorld suite: start steps that write rows into an
 * app's own SQLite database and checks that read a table back, both as root
 * (`su 0 sqlite3`, a google_apis image), the way AndroidWorld seeds and scores its
 * calendar, expense, recipe, tasks, sports-tracker and Joplin templates. The tables and
 * columns are the apps' own (AndroidWorld's row types name them); the SQL is ours.
 */

/** An app database: the owning package, the file and the table the tasks use. */
export interface AppTable {
  readonly packageName: string;
  readonly database: string;
  readonly table: string;
}

/** An SQL expression written as is (a value the database makes, such as `randomblob(16)`). */
export interface SqlExpression {
  readonly sql: string;
}

/** A row to insert: column name → value. */
export type SqlRow = Readonly<Record<string, string | number | SqlExpression>>;

/** A value as an SQL literal (texts single-quoted, quotes doubled; an expression as written). */
export function sqlLiteral(value: string | number | SqlExpression): string {
  if (typeof value === 'object') return value.sql;
  return typeof value === 'number' ? String(value) : `'${value.replaceAll("'", "''")}'`;
}

/** A column name quoted for SQL (`order` and other keywords are column names in these apps). */
function column(name: string): string {
  return `[${name}]`;
}

/**
 * `sqlite3` on the app's database as root, with `sql` as one argument: in double quotes
 * (readable beside the SQL's single-quoted texts) when nothing in it is special there.
 */
function sqliteCommand(table: AppTable, sql: string): string {
  return `su 0 sqlite3 ${table.database} ${/["$`\\]/.test(sql) ? shellQuote(sql) : `"${sql}"`}`;
}

/** INSERT statements for `rows` (one statement per row, so a row's own columns are named). */
export function insertStatements(tableName: string, rows: readonly SqlRow[]): string {
  return rows.map((row) => `INSERT INTO ${tableName} (${Object.keys(row).map(column).join(', ')}) VALUES (${Object.values(row).map(sqlLiteral).join(', ')});`).join(' ');
}

/**
 * Start steps that leave `table` holding exactly `rows` (and `extra` SQL run after, for
 * other tables of the same database), in one transaction: the app is launched once so that it creates its
 * database, stopped so that it reads the rows afresh, the table emptied and filled as
 * root, and the database files given back to the app's user (a file sqlite3 made as root
 * would be unwritable for the app).
 */
export function seedTable(table: AppTable, rows: readonly SqlRow[], extra = ''): DeviceSetupStep[] {
  const folder = table.database.slice(0, table.database.lastIndexOf('/'));
  const appFolder = `/data/data/${table.packageName}`;
  const sql = `BEGIN; DELETE FROM ${table.table}; ${insertStatements(table.table, rows)} ${extra} COMMIT;`.replace(/\s+COMMIT;$/, ' COMMIT;');
  return [
    { launch: table.packageName },
    shell('sleep 7', 'the app creates its database on its first start (AndroidWorld waits 7 s too)'),
    shell(`am force-stop ${table.packageName}`),
    shell(sqliteCommand(table, sql), 'needs a rootable image (google_apis)'),
    shell(`su 0 sh -c ${shellQuote(`chown $(stat -c %u:%g ${appFolder}) ${folder}/* && restorecon -R ${folder}`)}`),
  ];
}

/** A check on what `sql` (one query) prints from the app's database, read as root. */
export function sqliteCheck(table: AppTable, sql: string, expect: AdbCheck['expect']): AdbCheck {
  return { command: `adb shell ${sqliteCommand(table, sql)}`, expect };
}

/** The text sqlite3 prints for a list of values, one a line (what `equals` compares, trimmed). */
export function lines(values: readonly (string | number)[]): string {
  return values.map(String).join('\n');
}

/**
 * AndroidWorld's device clock: October 15 2023, 15:34 UTC, 24-hour format, automatic
 * time and time zone off (it sets them before every task; the tasks that say "today",
 * "tomorrow" or "this week" mean that date).
 */
export const androidWorldNow = { iso: '2023-10-15T15:34:00Z', seconds: 1697384040 } as const;

/** Start steps that set the device clock to `androidWorldNow` (as root). */
export function fixDeviceClock(): DeviceSetupStep[] {
  return [
    shell('settings put global auto_time 0'),
    shell('settings put global auto_time_zone 0'),
    shell('settings put system time_12_24 24'),
    shell('service call alarm 3 s16 UTC', 'the time zone: UTC'),
    shell('su 0 date 1015153423.00', 'October 15 2023 15:34:00 (MMDDhhmmYY.ss)'),
  ];
}

/** The normalised text of one value, as `rowSignature` builds it in SQL: trimmed, lower case. */
function normalised(value: string | number | SqlExpression): string {
  return (typeof value === 'object' ? value.sql : String(value)).trim().toLowerCase();
}

/** SQL for one row's signature over `columns`: each value trimmed of spaces and lower-cased, joined by `|`. */
function rowSignature(columns: readonly string[]): string {
  return columns.map((name) => `lower(trim(ifnull(${column(name)}, '')))`).join(` || '|' || `);
}

/**
 * The table holds exactly `expected` (compared on `columns`, texts trimmed and case aside;
 * as many rows as listed, duplicates counted): rows added or deleted by mistake, a noise
 * row changed, or a wanted row missing all fail it. AndroidWorld compares its free-text
 * fields with a fuzzy ratio; ours forgives case and surrounding white space only.
 */
export function tableRowsCheck(table: AppTable, columns: readonly string[], expected: readonly SqlRow[]): AdbCheck {
  const signatures = expected.map((row) => columns.map((name) => normalised(row[name] ?? '')).join('|')).sort(binaryOrder);
  return sqliteCheck(table, `SELECT ${rowSignature(columns)} FROM ${table.table} ORDER BY 1;`, { equals: lines(signatures) });
}

/** SQLite's BINARY collation on ASCII text: code-unit order. */
function binaryOrder(left: string, right: string): number {
  return left < right ? -1 : left > right ? 1 : 0;
}
