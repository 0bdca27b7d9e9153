import { readdir, readFile, stat } from 'node:fs/promises';
import * as path from 'node:path';
import { isMap, isScalar, type Document, type LineCounter } from 'yaml';
import type { z } from 'zod';
import { debugLog } from '../util/debug-log.js';
import { parseYamlSafely } from '../util/parse-yaml-safely.js';
import { defaultPredicateChecker, type PredicateChecker } from './predicate-checker.js';
import { closestName, schemaFieldNames } from './schema-field-names.js';
import { TaskLoadError, type TaskLoadProblem } from './task-load-error.js';
import { suiteSchema, taskFileSchema, type Suite, type Task } from './task-schema.js';

/** Options shared by the loaders. */
export interface LoadTaskOptions {
  /** Checks predicate and query text; defaults to the verify layer's parser. */
  readonly predicateChecker?: PredicateChecker;
}

/** Options of `loadSuite`. */
export interface LoadSuiteOptions extends LoadTaskOptions {
  /** Folder holding the suites; default `tasks/` under the current directory. */
  readonly tasksRoot?: string;
}

const fieldNames = schemaFieldNames(taskFileSchema);

function displayPath(file: string): string {
  const relative = path.relative(process.cwd(), file);
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : file;
}

function fieldPath(segments: readonly PropertyKey[]): string {
  let text = '';
  for (const segment of segments) {
    if (typeof segment === 'number') text += `[${segment}]`;
    else text += text === '' ? String(segment) : `.${String(segment)}`;
  }
  return text;
}

function taskIdAt(data: unknown, index: number): string | undefined {
  if (typeof data !== 'object' || data === null) return undefined;
  const tasks = (data as { tasks?: unknown }).tasks;
  if (!Array.isArray(tasks)) return undefined;
  const task: unknown = tasks[index];
  const id = typeof task === 'object' && task !== null ? (task as { id?: unknown }).id : undefined;
  return typeof id === 'string' ? id : undefined;
}

interface Locator {
  locate(segments: readonly PropertyKey[], key?: string): { line?: number; column?: number };
}

function locator(document: Document, lineCounter: LineCounter): Locator {
  const at = (offset: number | undefined): { line?: number; column?: number } => {
    if (offset === undefined) return {};
    const position = lineCounter.linePos(offset);
    return { line: position.line, column: position.col };
  };
  return {
    locate(segments, key) {
      // Walk down as far as the document goes, so a missing field points at its parent.
      for (let length = segments.length; length >= 0; length--) {
        const node = document.getIn(segments.slice(0, length) as (string | number)[], true);
        if (node === undefined || node === null) continue;
        if (key !== undefined && length === segments.length && isMap(node)) {
          const pair = node.items.find((item) => isScalar(item.key) && item.key.value === key);
          if (pair !== undefined && isScalar(pair.key)) return at(pair.key.range?.[0]);
        }
        const range = (node as { range?: [number, number, number] }).range;
        return at(range?.[0]);
      }
      return {};
    },
  };
}

function describeIssue(issue: z.core.$ZodIssue): string {
  if (issue.code === 'invalid_type' && /received undefined$/.test(issue.message)) return `missing required field (expected ${issue.expected})`;
  return issue.message;
}

function problemsFromZod(error: z.ZodError, file: string, data: unknown, where: Locator): TaskLoadProblem[] {
  const problems: TaskLoadProblem[] = [];
  for (const issue of error.issues) {
    const segments = issue.path;
    const inTask = segments[0] === 'tasks' && typeof segments[1] === 'number';
    const taskId = inTask ? taskIdAt(data, segments[1] as number) : undefined;
    const taskLabel = inTask && taskId === undefined ? { field: fieldPath(segments) } : {};
    const rest = inTask ? segments.slice(2) : segments;
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        const suggestion = closestName(key, fieldNames);
        const hint = suggestion === undefined ? `remove it (the schema in src/tasks/task-schema.ts lists the fields)` : `did you mean "${suggestion}"?`;
        problems.push({
          file,
          ...where.locate(segments, key),
          ...(taskId === undefined ? {} : { taskId }),
          field: fieldPath([...rest, key]),
          ...taskLabel,
          message: `unknown field "${key}": ${hint}`,
        });
      }
      continue;
    }
    problems.push({
      file,
      ...where.locate(segments),
      ...(taskId === undefined ? {} : { taskId }),
      field: fieldPath(rest),
      ...taskLabel,
      message: describeIssue(issue),
    });
  }
  return problems;
}

function predicateProblems(tasks: readonly Task[], file: string, where: Locator, checker: PredicateChecker): TaskLoadProblem[] {
  const problems: TaskLoadProblem[] = [];
  tasks.forEach((task, taskIndex) => {
    const check = (kind: 'predicate' | 'query', text: string | undefined, segments: (string | number)[]): void => {
      if (text === undefined) return;
      const problem = kind === 'predicate' ? checker.predicate(text) : checker.query(text);
      if (problem === undefined) return;
      problems.push({ file, ...where.locate(['tasks', taskIndex, ...segments]), taskId: task.id, field: fieldPath(segments), message: `${problem} (in ${JSON.stringify(text.length > 120 ? `${text.slice(0, 119)}…` : text)})` });
    };
    check('predicate', task.success?.screen, ['success', 'screen']);
    task.solution?.forEach((step, stepIndex) => {
      check('predicate', step.expect, ['solution', stepIndex, 'expect']);
      step.actions.forEach((action, actionIndex) => {
        if ('target' in action) check('query', action.target, ['solution', stepIndex, 'actions', actionIndex, 'target']);
        if (action.unit === 'scroll') check('query', action.until, ['solution', stepIndex, 'actions', actionIndex, 'until']);
      });
    });
  });
  return problems;
}

/**
 * Parses the text of one task file (`tasks: [...]`). `file` names the file in errors.
 * Throws `TaskLoadError` listing every problem: YAML syntax and alias bombs (with line and column),
 * schema violations and unknown fields (with a hint), invalid predicates and queries,
 * duplicate ids.
 */
export function parseTaskFile(text: string, file: string, options: LoadTaskOptions = {}): Task[] {
  const yaml = parseYamlSafely(text);
  if (!yaml.success) throw new TaskLoadError(yaml.problems.map((problem) => ({ file, ...problem })));
  const where = locator(yaml.value.document, yaml.value.lineCounter);
  const data = yaml.value.value;
  if (data === null || data === undefined) throw new TaskLoadError([{ file, message: 'the file is empty; a task file holds `tasks: [...]` (see tasks/README.md)' }]);
  const parsed = taskFileSchema.safeParse(data);
  if (!parsed.success) throw new TaskLoadError(problemsFromZod(parsed.error, file, data, where), parsed.error);
  const problems = predicateProblems(parsed.data.tasks, file, where, options.predicateChecker ?? defaultPredicateChecker);
  const seen = new Map<string, number>();
  parsed.data.tasks.forEach((task, index) => {
    const first = seen.get(task.id);
    if (first !== undefined) problems.push({ file, ...where.locate(['tasks', index, 'id']), taskId: task.id, field: 'id', message: `duplicate id: task ${first + 1} in this file has it too` });
    else seen.set(task.id, index);
  });
  if (problems.length > 0) throw new TaskLoadError(problems);
  return parsed.data.tasks;
}

/** Reads and parses one task file (a file may hold many tasks). Throws `TaskLoadError`. */
export async function loadTaskFile(file: string, options: LoadTaskOptions = {}): Promise<Task[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new TaskLoadError([{ file: displayPath(file), message: `cannot read the file (${(error as Error).message}); check the path` }], error);
  }
  return parseTaskFile(text, displayPath(file), options);
}

/**
 * Loads one task from a file: the one with `id`, or the only task when the file holds
 * one. Throws `TaskLoadError` when the id is missing or ambiguous.
 */
export async function loadTask(file: string, id?: string, options: LoadTaskOptions = {}): Promise<Task> {
  const tasks = await loadTaskFile(file, options);
  const found = id === undefined ? (tasks.length === 1 ? tasks[0] : undefined) : tasks.find((task) => task.id === id);
  if (found !== undefined) return found;
  const ids = tasks.map((task) => task.id).join(', ');
  throw new TaskLoadError([{ file: displayPath(file), message: id === undefined ? `the file holds ${tasks.length} tasks (${ids}); pass the id of one` : `no task "${id}" here; the file has: ${ids}` }]);
}

async function yamlFilesUnder(directory: string): Promise<string[]> {
  const entries = await readdir(directory, { withFileTypes: true });
  const files: string[] = [];
  for (const entry of entries.sort((left, right) => left.name.localeCompare(right.name))) {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) files.push(...(await yamlFilesUnder(full)));
    else if (/\.ya?ml$/.test(entry.name)) files.push(full);
  }
  return files;
}

/**
 * Loads a suite: every `*.yaml` under a folder. `nameOrDir` is a suite name under
 * `tasksRoot` (`sim`, `androidlab`) or a folder path. Tasks come in file-name order, and
 * their ids must be unique across the suite. Collects the problems of all files before
 * throwing one `TaskLoadError`.
 */
export async function loadSuite(nameOrDir: string, options: LoadSuiteOptions = {}): Promise<Suite> {
  const tasksRoot = options.tasksRoot ?? path.resolve('tasks');
  const underRoot = path.resolve(tasksRoot, nameOrDir);
  const directory = /^[\w-]+$/.test(nameOrDir) && (await isDirectory(underRoot)) ? underRoot : path.resolve(nameOrDir);
  if (!(await isDirectory(directory))) {
    const known = (await isDirectory(tasksRoot)) ? (await readdir(tasksRoot, { withFileTypes: true })).filter((entry) => entry.isDirectory()).map((entry) => entry.name) : [];
    throw new TaskLoadError([{ file: displayPath(directory), message: `no such suite folder; known suites under ${displayPath(tasksRoot)}: ${known.join(', ') || '(none)'}` }]);
  }
  const files = await yamlFilesUnder(directory);
  if (files.length === 0) throw new TaskLoadError([{ file: displayPath(directory), message: 'the suite folder has no .yaml files' }]);
  const problems: TaskLoadProblem[] = [];
  const tasks: Task[] = [];
  const fileOf = new Map<string, string>();
  for (const file of files) {
    try {
      for (const task of await loadTaskFile(file, options)) {
        const earlier = fileOf.get(task.id);
        if (earlier !== undefined) {
          problems.push({ file: displayPath(file), taskId: task.id, field: 'id', message: `duplicate id: ${earlier} has a task with this id too` });
          continue;
        }
        fileOf.set(task.id, displayPath(file));
        tasks.push(task);
      }
    } catch (error) {
      if (!TaskLoadError.isInstance(error)) throw error;
      problems.push(...error.problems);
    }
  }
  const name = path.basename(directory);
  for (const task of tasks) {
    const of = task.source.benchmark === 'senseact' ? task.source.variantOf : undefined;
    if (of !== undefined && (of === task.id || !fileOf.has(of))) {
      problems.push({ file: fileOf.get(task.id) ?? displayPath(directory), taskId: task.id, field: 'source.variantOf', message: of === task.id ? 'a task cannot be a variant of itself: name the task whose template it varies' : `a variant of "${of}", which is not in suite "${name}": name a task of the same suite` });
    }
  }
  if (problems.length > 0) throw new TaskLoadError(problems);
  debugLog('tasks', 'suite loaded', { name, files: files.length, tasks: tasks.length });
  return suiteSchema.parse({ name, tasks });
}

async function isDirectory(candidate: string): Promise<boolean> {
  try {
    return (await stat(candidate)).isDirectory();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ENOTDIR') return false;
    throw error;
  }
}
