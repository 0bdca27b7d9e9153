import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSuite } from '../../../src/tasks/load-task-file.js';

const repoRoot = path.resolve(import.meta.dirname, '..', '..', '..');
const androidlabData = path.resolve(repoRoot, 'tests/fixtures/androidlab');

interface OriginalTask {
  id: string;
  metricType: string;
  instruction: string;
  judge: string;
}

function originalTasks(): OriginalTask[] {
  const [header, ...lines] = readFileSync(path.join(androidlabData, 'tasks.tsv'), 'utf8').trim().split('\n');
  const columns = (header ?? '').split('\t');
  const at = (cells: string[], name: string): string => cells[columns.indexOf(name)] ?? '';
  return lines.map((line) => {
    const cells = line.split('\t');
    return { id: at(cells, 'task_id'), metricType: at(cells, 'metric_type'), instruction: at(cells, 'task').trim(), judge: at(cells, 'judge_kind') };
  });
}

describe('tasks/androidlab', async () => {
  const suite = await loadSuite('androidlab', { tasksRoot: path.join(repoRoot, 'tasks') });
  const originals = originalTasks();

  it('holds all 138 AndroidLab instructions: 98 with programmatic checks, 40 answer tasks', () => {
    expect(originals).toHaveLength(138);
    expect(suite.tasks).toHaveLength(138);
    const programmatic = suite.tasks.filter((task) => task.source.benchmark === 'androidlab' && task.source.judge !== 'answer_llm_judge');
    const answers = suite.tasks.filter((task) => task.source.benchmark === 'androidlab' && task.source.judge === 'answer_llm_judge');
    expect(programmatic).toHaveLength(98);
    expect(answers).toHaveLength(40);
    for (const task of programmatic) expect(task.success?.screen ?? task.success?.adb, task.id).toBeDefined();
    for (const task of answers) {
      expect(task.answer?.judge, task.id).toBe('model');
      expect(task.answer?.expected ?? task.answer?.fromAdb, task.id).toBeDefined();
    }
  });

  it('records the original id, instruction, metric type and judge of every task', () => {
    const byId = new Map(suite.tasks.map((task) => [task.source.benchmark === 'androidlab' ? task.source.id : '', task]));
    for (const original of originals) {
      const task = byId.get(original.id);
      expect(task, original.id).toBeDefined();
      expect(task?.instruction).toBe(original.instruction);
      if (task?.source.benchmark !== 'androidlab') throw new Error(`${original.id}: source is not androidlab`);
      expect(task.source.judge).toBe(original.judge);
      expect(task.source.metricType).toBe(original.metricType.startsWith('operation') ? 'operation' : 'query_detect');
    }
  });

  it('keeps the adb queries of the original specs as adb checks or answer sources', () => {
    const commands = suite.tasks.flatMap((task) => [...(task.success?.adb ?? []).map((check) => check.command), ...(task.answer?.fromAdb ? [task.answer.fromAdb.command] : [])]);
    const adbQueries = readFileSync(path.join(androidlabData, 'tasks.tsv'), 'utf8').split('\n').map((line) => line.split('\t')[5] ?? '').filter((query) => query.startsWith('adb '));
    expect(adbQueries.length).toBeGreaterThanOrEqual(8);
    for (const query of adbQueries) expect(commands).toContain(query);
  });
});
