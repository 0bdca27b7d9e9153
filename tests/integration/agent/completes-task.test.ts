// A plan may say its commitment completes the task: the loop ends the run once that
// commitment verifies, without another planner call to say FINISH; a commitment that
// does not verify, or open-loop (which verifies nothing), asks the planner again.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTask } from '../../../src/agent/run-task.js';
import { planReplySchema } from '../../../src/agent/planning/plan-reply.js';
import { simulatorForTask } from '../../../src/bench/simulator-for-task.js';
import { SimDevice } from '../../../src/device/sim-device.js';
import type { LanguageModelRequest } from '../../../src/model/language-model.js';
import { ScriptedLanguageModel } from '../../../src/model/scripted-language-model.js';
import { simSuiteTask } from '../../helpers/sim-suite.js';

let root: string;
beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'senseact-completes-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** The unit id the view gives a label. */
function unitId(request: LanguageModelRequest, label: string): string {
  const view = request.messages.map((message) => message.content).join('\n');
  const match = new RegExp(`\\[(n[0-9a-f]+)\\] [a-z-]+ "${label}"`).exec(view);
  if (!match?.[1]) throw new Error(`no unit labelled "${label}" in the view`);
  return match[1];
}

/**
 * settings-airplane-on with a scripted planner: open Network & internet, then switch
 * Airplane mode on, saying (`completesTask`) that this ends the task, with `expectation`;
 * FINISH when asked again.
 */
async function run(mode: 'senseact' | 'open-loop', expectation: string) {
  const task = simSuiteTask('settings-airplane-on');
  const device = new SimDevice(simulatorForTask(task, { seed: 7 }));
  const planner = new ScriptedLanguageModel({
    replies: (request) => {
      const view = request.messages.map((message) => message.content).join('\n');
      if (view.includes('Network & internet') && !view.includes('Airplane mode')) return JSON.stringify({ intent: 'Open Network & internet', expectation: 'exists(text="Airplane mode")', commitment: [{ unit: unitId(request, 'Network & internet') }] });
      if (!view.includes('Turn on Airplane mode')) return JSON.stringify({ intent: 'Turn on Airplane mode', expectation, commitment: [{ unit: unitId(request, 'Airplane mode'), checked: true }], completesTask: true });
      return JSON.stringify({ intent: 'Done', finish: true });
    },
  });
  const result = await runTask({ task, mode, policy: 'llm', device, probe: device, models: { planner }, traceRoot: root, suite: 'completes-task' });
  return { result, calls: planner.calls.length };
}

describe('completesTask', () => {
  it('ends the run when the commitment said to complete the task verifies: no FINISH call', async () => {
    const { result, calls } = await run('senseact', 'checked(is=switch, near(text="Airplane mode"))');
    expect(result.success, result.reason).toBe(true);
    expect(result.stopReason).toBe('the planner said FINISH with its last commitment, which verified');
    expect(calls).toBe(2);
  });

  it('asks the planner again when that commitment does not verify', async () => {
    // The switch turns on, but the expectation names a text that never shows.
    const { result, calls } = await run('senseact', 'exists(text="Airplane mode is on everywhere")');
    expect(result.stopReason).not.toContain('which verified');
    expect(calls).toBeGreaterThan(2);
  });

  it('open-loop verifies nothing: its planner still says FINISH', async () => {
    const { result, calls } = await run('open-loop', 'checked(is=switch, near(text="Airplane mode"))');
    expect(result.stopReason).toBe('the planner said FINISH');
    expect(calls).toBe(3);
  });

  it('a commitment cut short ends nothing, though its expectation shows: the oracle adds both cities', async () => {
    // The oracle commits [fill "Barcelona", select its result] as the last step; the result's
    // unit is another after typing, so only the fill runs, and the search field alone holds
    // "Barcelona" (the expectation). Ending there left Barcelona out of the clock.
    const task = simSuiteTask('clock-add-london-barcelona');
    const device = new SimDevice(simulatorForTask(task, { seed: 7 }));
    const result = await runTask({ task, mode: 'senseact', policy: 'oracle', device, probe: device, traceRoot: root, suite: 'completes-task' });
    expect(result.success, result.reason).toBe(true);
    expect(result.stopReason).toBe('the planner said FINISH with its last commitment, which verified');
  });

  it('goes with a commitment only, not with finish or a skill call', () => {
    expect(planReplySchema.safeParse({ intent: 'x', commitment: [{ unit: 'n1' }], completesTask: true }).success).toBe(true);
    expect(planReplySchema.safeParse({ intent: 'x', finish: true, completesTask: true }).success).toBe(false);
    expect(planReplySchema.safeParse({ intent: 'x', skill: 's', completesTask: true }).success).toBe(false);
  });
});
