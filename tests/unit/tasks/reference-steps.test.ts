import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadTaskFile } from '../../../src/tasks/load-task-file.js';

const repo = resolve(import.meta.dirname, '../../..');
/** AndroidLab's human step counts (tests/fixtures/SOURCES.tsv). */
const groundTruth = JSON.parse(readFileSync(join(repo, 'tests/fixtures/androidlab/ground_truth_length.json'), 'utf8')) as Record<string, number>;

describe('referenceSteps of the shipped tasks', () => {
  it('equals AndroidLab ground_truth_length.json for every task ported from AndroidLab, and is absent elsewhere', async () => {
    let ported = 0;
    for (const folder of ['tasks/androidlab', 'tasks/sim']) {
      for (const file of readdirSync(join(repo, folder)).filter((name) => name.endsWith('.yaml'))) {
        for (const task of await loadTaskFile(join(repo, folder, file))) {
          if (task.source.benchmark === 'androidlab') {
            ported += 1;
            expect(task.referenceSteps, `${folder}/${file} ${task.id} (${task.source.id})`).toBe(groundTruth[task.source.id]);
          } else {
            expect(task.referenceSteps, `${folder}/${file} ${task.id}`).toBeUndefined();
          }
        }
      }
    }
    // All 138 AndroidLab tasks and the simulator tasks that port one.
    expect(ported).toBeGreaterThanOrEqual(138);
  });
});
