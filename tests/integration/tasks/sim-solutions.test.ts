// Plays every task's reference solution of tasks/sim directly on a Simulator (see
// play-solution.ts). Then the task's own success check must pass. A negative control evaluates
// the same check on the untouched start (same seed, no actions): it must NOT pass, so no
// check is trivially true.
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { evaluateSuccess } from '../../../src/tasks/evaluate-success.js';
import { loadSuite } from '../../../src/tasks/load-task-file.js';
import { describeScreen, observe, playSolution, startSimulator } from './play-solution.js';

const repoRoot = path.resolve(import.meta.dirname, '..', '..', '..');
const suite = await loadSuite('sim', { tasksRoot: path.join(repoRoot, 'tasks') });

describe('tasks/sim', () => {
  it('has at least 60 tasks, each with a success check, a solution, allowed packages and a step budget', () => {
    expect(suite.tasks.length).toBeGreaterThanOrEqual(60);
    for (const task of suite.tasks) {
      expect(task.success ?? task.answer, task.id).toBeDefined();
      expect(task.solution, task.id).toBeDefined();
      const units = (task.solution ?? []).reduce((sum, step) => sum + step.actions.length, 0);
      expect(task.stepBudget, task.id).toBeGreaterThanOrEqual(units);
    }
  });

  it.each(suite.tasks.map((task) => [task.id, task] as const))('%s: the reference solution succeeds and the untouched start does not', async (_id, task) => {
    const sim = startSimulator(task);
    const { finalTree, answer } = playSolution(sim, task);
    const result = await evaluateSuccess(task, { finalTree, appState: (packageName) => sim.appState(packageName), ...(answer !== undefined ? { answer } : {}) });
    expect(result.outcome, `task ${task.id}: ${result.reason}\n  ${describeScreen(finalTree)}`).toBe('pass');
    for (const packageName of [sim.currentPackage()]) {
      expect([...task.allowedPackages, 'com.google.android.apps.nexuslauncher'], `task ${task.id} ends in ${packageName}`).toContain(packageName);
    }

    if (task.answer !== undefined) {
      const decoy = await evaluateSuccess(task, { finalTree, appState: (packageName) => sim.appState(packageName), answer: 'I could not find it' });
      expect(decoy.outcome, `task ${task.id}: a wrong answer must not pass`).toBe('fail');
    }

    const untouched = startSimulator(task);
    const control = await evaluateSuccess(task, { finalTree: observe(untouched), appState: (packageName) => untouched.appState(packageName) });
    expect(control.outcome, `task ${task.id}: the success check already holds at the start (${control.reason})`).not.toBe('pass');
  });
});
