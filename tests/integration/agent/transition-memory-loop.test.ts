// The loop keeps the run's verified transitions: the oracle adds two cities, and the
// second "Add city" (the same commit, from the same clock page, to the same search page)
// is strong because the first was verified; the first is judged by its contract alone.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTask } from '../../../src/agent/run-task.js';
import { simulatorForTask } from '../../../src/bench/simulator-for-task.js';
import { SimDevice } from '../../../src/device/sim-device.js';
import { readTrace } from '../../../src/trace/read-trace.js';
import { simSuiteTask } from '../../helpers/sim-suite.js';

let root: string;
beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'senseact-transition-memory-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('the loop\'s transition memory', () => {
  it('makes a repeated, verified move strong, and only the repeat', async () => {
    const task = simSuiteTask('clock-add-london-barcelona');
    const device = new SimDevice(simulatorForTask(task, { seed: 7 }));
    const result = await runTask({ task, mode: 'senseact', policy: 'oracle', device, probe: device, traceRoot: root, suite: 'transition-memory' });
    expect(result.success, result.reason).toBe(true);
    const verdicts = (await readTrace(result.traceDir)).events.flatMap((event) => (event.type === 'verify-end' && event.by === 'contract' && (event.reason ?? '').startsWith('commit "Add city"') ? [event] : []));
    expect(verdicts).toHaveLength(2);
    expect(verdicts[0]?.reason).not.toContain('same effect from this page');
    expect(verdicts[1]).toMatchObject({ outcome: 'pass', strength: 'strong', reason: expect.stringContaining('had the same effect from this page once before (verified)') });
  });
});
