// Provenance of tasks/sim: a task that names an original task must name one that exists,
// and AndroidLab-sourced tasks keep the original instruction verbatim.
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadSuite } from '../../../src/tasks/load-task-file.js';

const repoRoot = path.resolve(import.meta.dirname, '..', '..', '..');
const data = path.resolve(repoRoot, 'tests/fixtures');
const suite = await loadSuite('sim', { tasksRoot: path.join(repoRoot, 'tasks') });

/** AndroidLab instructions by task id, from the per-app specs. */
function androidlabInstructions(): Map<string, string> {
  const byId = new Map<string, string>();
  for (const app of ['clock', 'contacts', 'setting']) {
    const spec = parse(readFileSync(path.join(data, 'androidlab/config', `${app}.yaml`), 'utf8')) as { tasks: { task_id: string; task: string }[] };
    for (const task of spec.tasks) byId.set(task.task_id, task.task.trim());
  }
  return byId;
}

/** DroidTask instructions by application name, from its tasks.csv (name, apk, output dir, then the tasks). */
function droidtaskInstructions(): Map<string, string[]> {
  const byApp = new Map<string, string[]>();
  const text = readFileSync(path.join(data, 'autodroid/tasks.csv'), 'utf8').replace(/^\uFEFF/, '');
  // Fields may be quoted and contain commas, doubled quotes and newlines.
  const records: string[][] = [[]];
  let field = '';
  let quoted = false;
  for (let index = 0; index < text.length; index++) {
    const character = text[index];
    if (quoted) {
      if (character === '"' && text[index + 1] === '"') {
        field += '"';
        index++;
      } else if (character === '"') quoted = false;
      else field += character;
    } else if (character === '"') quoted = true;
    else if (character === ',') {
      records[records.length - 1]?.push(field);
      field = '';
    } else if (character === '\n') {
      records[records.length - 1]?.push(field);
      field = '';
      records.push([]);
    } else if (character !== '\r') field += character;
  }
  records[records.length - 1]?.push(field);
  for (const record of records) {
    const [name, , , ...tasks] = record;
    if (name) byApp.set(name.trim(), tasks.map((task) => task.trim()).filter(Boolean));
  }
  return byApp;
}

describe('tasks/sim provenance', () => {
  const androidlab = androidlabInstructions();
  const droidtask = droidtaskInstructions();

  it('draws on all three sources', () => {
    const counts = new Map<string, number>();
    for (const task of suite.tasks) counts.set(task.source.benchmark, (counts.get(task.source.benchmark) ?? 0) + 1);
    expect(counts.get('androidlab')).toBeGreaterThanOrEqual(40);
    expect(counts.get('droidtask')).toBeGreaterThanOrEqual(10);
    expect(counts.get('senseact')).toBeGreaterThanOrEqual(10);
  });

  it.each(suite.tasks.filter((task) => task.source.benchmark !== 'senseact').map((task) => [task.id, task] as const))('%s names an original task', (_id, task) => {
    const source = task.source;
    if (source.benchmark === 'androidlab') {
      expect(androidlab.get(source.id), `AndroidLab has no ${source.id}`).toBeDefined();
      expect(task.instruction).toBe(androidlab.get(source.id));
    } else if (source.benchmark === 'droidtask') {
      expect(droidtask.get(source.app), `DroidTask has no app "${source.app}"`).toBeDefined();
      expect(droidtask.get(source.app)).toContain(source.task);
    }
  });
});
