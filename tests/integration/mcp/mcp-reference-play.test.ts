// A scripted MCP client that knows only observe / act / check plays reference solutions of
// the sim suite through `senseact mcp` (in process, the SDK's in-memory transport): the
// task's own check passes, and every act verdict equals the loop's (runTask, oracle
// policy) for the same step on the same seed. The comparison and the check are shown to
// fail on what did not happen: a verdict changed, a solution cut short. Oracle results.
// The whole settings and clock suites: scripts/mcp-reference-play.ts.
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSuite } from '../../../src/tasks/load-task-file.js';
import type { Task } from '../../../src/tasks/task-schema.js';
import { compareVerdicts, playTask } from '../../../scripts/mcp-reference-client.js';

const repoRoot = path.resolve(import.meta.dirname, '..', '..', '..');
const suite = await loadSuite('sim', { tasksRoot: path.join(repoRoot, 'tasks') });

function suiteTask(id: string): Task {
  const task = suite.tasks.find((candidate) => candidate.id === id);
  if (!task) throw new Error(`tasks/sim has no task ${id}`);
  return task;
}

describe('the reference solutions through senseact mcp', () => {
  it.each(['settings-private-dns-google', 'clock-delete-alarms-after-2pm'])('%s succeeds with every act verdict equal to the loop\'s', async (id) => {
    const play = await playTask(suiteTask(id));
    expect(play.reason).not.toMatch(/^step /);
    expect(play.success).toBe(true);
    expect(play.mismatches).toEqual([]);
    expect(play.equal).toBe(play.compared);
    expect(play.compared).toBeGreaterThanOrEqual(3);
    // The client used nothing but observe, act and check; the deletes were confirmed through elicitation.
    expect(Object.keys(play.client.calls).every((name) => ['observe', 'act', 'check'].includes(name))).toBe(true);
    if (id.startsWith('clock-delete')) expect(play.client.confirmations).toBe(3);
  }, 60_000);

  it('a solution cut short fails the task\'s check, and a changed verdict or unit is a mismatch', async () => {
    const task = suiteTask('settings-private-dns-google');
    const cut = await playTask({ ...task, solution: task.solution!.slice(0, 2) });
    expect(cut.success).toBe(false);
    const loop = [{ units: ['n1'], verdict: 'pass' }, { units: ['n2'], verdict: 'pass' }];
    expect(compareVerdicts(loop, loop)).toEqual({ equal: 2, compared: 2, mismatches: [] });
    expect(compareVerdicts([{ units: ['n1'], verdict: 'pass' }, { units: ['n2'], verdict: 'fail' }], loop).equal).toBe(1);
    expect(compareVerdicts([{ units: ['n1'], verdict: 'pass' }, { units: ['n3'], verdict: 'pass' }], loop).mismatches).toEqual(['step 2: mcp pass [n3] vs loop pass [n2]']);
    expect(compareVerdicts(loop.slice(0, 1), loop).mismatches).toHaveLength(1);
  }, 60_000);
});
