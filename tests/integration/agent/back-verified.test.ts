// Back through the whole loop on the simulator: a scripted planner opens a settings page,
// then goes back. The loop's PageTrail knows the page it came from, so Back that returned
// there is strong evidence ("went-back"); a second Back from the main page, which the run
// did not come from, is not tied to it.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTask } from '../../../src/agent/run-task.js';
import { simulatorForTask } from '../../../src/bench/simulator-for-task.js';
import { SimDevice } from '../../../src/device/sim-device.js';
import type { LanguageModelRequest } from '../../../src/model/language-model.js';
import { ScriptedLanguageModel } from '../../../src/model/scripted-language-model.js';
import { loadSuite } from '../../../src/tasks/load-task-file.js';
import type { Task } from '../../../src/tasks/task-schema.js';
import { readTrace } from '../../../src/trace/read-trace.js';

const repoRoot = path.resolve(import.meta.dirname, '..', '..', '..');
const suite = await loadSuite('sim', { tasksRoot: path.join(repoRoot, 'tasks') });
const task = { ...(suite.tasks.find((candidate) => candidate.id === 'settings-dark-theme') as Task), stepBudget: 6 };
let root: string;

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'senseact-back-verified-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** Opens Display, goes back, goes back again (out of Settings), then finishes. */
function planner(): ScriptedLanguageModel {
  let turn = 0;
  return new ScriptedLanguageModel({
    replies: (request: LanguageModelRequest) => {
      const prompt = request.messages.at(-1)?.content ?? '';
      turn += 1;
      if (turn === 1) {
        const display = /\[(n[0-9a-f]+)\] click "Display"/.exec(prompt.slice(prompt.indexOf('<screen>')));
        if (!display) throw new Error('no Display entry on the first screen');
        return JSON.stringify({ intent: 'Open Display', commitment: [{ unit: display[1] }] });
      }
      if (turn <= 3) return JSON.stringify({ intent: 'Go back', commitment: [{ unit: 'nav-back' }] });
      return JSON.stringify({ intent: 'Stop here', finish: true });
    },
  });
}

describe('Back in the loop', () => {
  it('is strong when it returned to the page the run came from, and not when the run came from nowhere', async () => {
    const device = new SimDevice(simulatorForTask(task, { seed: 7 }));
    const result = await runTask({ task, mode: 'senseact', policy: 'llm', device, probe: device, models: { planner: planner() }, traceRoot: root, suite: 'back-verified' });
    const events = (await readTrace(result.traceDir)).events;
    const backs = events.filter((event) => event.type === 'verify-end' && event.by === 'contract' && String(event.reason).startsWith('navigate back'));
    expect(backs.length).toBe(2);
    expect(backs[0]).toMatchObject({ outcome: 'pass', strength: 'strong', reason: expect.stringContaining('it returned to the page the run came from') });
    expect(backs[1]).not.toMatchObject({ strength: 'strong' });
  });
});
