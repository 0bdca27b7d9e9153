// A dry run's "N tasks can run" is followed by what those tasks still need on a device: a
// check no judge runs yet, a start state made by hand, APKs not shipped. A suite that
// needs none of it gets no such line.
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { dryRunNeeds } from '../../../src/bench/dry-run-needs.js';
import { loadSuite } from '../../../src/tasks/load-task-file.js';

const tasksRoot = path.resolve(import.meta.dirname, '..', '..', '..', 'tasks');

describe('dryRunNeeds', () => {
  it('counts DroidTask: 133 judged by a model that does not run, 122 from a hand-made state, 162 installing 12 APKs', async () => {
    const { tasks } = await loadSuite('droidtask', { tasksRoot });
    expect(dryRunNeeds(tasks)).toEqual([
      '133 of them end inconclusive whatever the agent does: their check (success: judge: model) is left to a model judge of the final screen, which does not run yet',
      "122 of them start from a state a person makes by hand (their manual: steps above): make it once, save it in an emulator snapshot and name it in the device profile's reset: { snapshot: <name> } (tasks/README.md)",
      '162 of them install an APK when their app is missing (12 APK file(s) under apks/, not shipped: where each comes from is in tasks/README.md)',
    ]);
  });

  it('says nothing for tasks that need none of it (the simulator suite)', async () => {
    const { tasks } = await loadSuite('sim', { tasksRoot });
    expect(dryRunNeeds(tasks)).toEqual([]);
  });
});
