// A skill never names a unit by its rank (docs/skills.md: resource-id, label, role — never a
// position): a shuffled list would point a rank at another row. A unit nothing else names
// alone is named by its id near a label of its own row, or the run teaches nothing.
import { describe, expect, it } from 'vitest';
import { runTask } from '../../../src/agent/run-task.js';
import { simulatorForTask } from '../../../src/bench/simulator-for-task.js';
import { SimDevice } from '../../../src/device/sim-device.js';
import { induceSkills } from '../../../src/skills/induce-skills.js';
import { liftRun } from '../../../src/skills/lift-run.js';
import { readVerifiedRun } from '../../../src/skills/read-verified-run.js';
import { simSuiteTask as suiteTask, temporaryRunRoot } from '../../helpers/sim-suite.js';

const runRoot = temporaryRunRoot('senseact-rank-free-');

async function teach(id: string) {
  const device = new SimDevice(simulatorForTask(suiteTask(id), { seed: 2 }));
  try {
    const result = await runTask({ task: suiteTask(id), mode: 'senseact', policy: 'oracle', device, probe: device, traceRoot: runRoot.dir(), suite: 'rank-free', runId: id });
    expect(result.success).toBe(true);
    return readVerifiedRun(result.traceDir);
  } finally {
    await device.close();
  }
}

describe('targets without a rank', () => {
  it('near miss: Maria Garcia shown twice (favourites and the list), her row named by nothing but its place: no skill, and induce says why', async () => {
    const read = await teach('contacts-unstar-maria');
    expect('reason' in read && read.reason).toMatch(/"Open Maria Garcia": click "Maria Garcia" has no label or id that names it alone/);
  });

  it('control: runs whose units their own labels name still teach, and no target of theirs carries a rank', async () => {
    for (const id of ['contacts-query-12', 'settings-dark-theme', 'clock-add-tokyo']) {
      const read = await teach(id);
      if ('reason' in read) throw new Error(read.reason);
      const skill = induceSkills([liftRun(read)]).skills[0];
      expect(JSON.stringify(skill?.steps)).not.toMatch(/nth=/);
      expect(skill?.steps.length).toBeGreaterThan(0);
    }
  });
});
