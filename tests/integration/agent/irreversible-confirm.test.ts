// Human in the loop: SenseActAgent asks its `confirm` callback before an action
// that cannot be undone (the clock's Delete), runs it on yes, stops the commitment on no
// (the planner reads why), and refuses it without a callback unless allowIrreversible.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IrreversibleAction } from '../../../src/agent/loop/irreversible-action.js';
import { SenseActAgent, type SenseActAgentOptions } from '../../../src/agent/senseact-agent.js';
import { SimDevice } from '../../../src/device/sim-device.js';
import type { LanguageModelRequest } from '../../../src/model/language-model.js';
import { ScriptedLanguageModel } from '../../../src/model/scripted-language-model.js';
import { Simulator } from '../../../src/sim/simulator.js';

const clock = 'com.google.android.deskclock';
const alarmGone = 'absent(text="8:30 AM")';
let root: string;

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'senseact-confirm-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

function promptOf(request: LanguageModelRequest): string {
  return request.messages.map((message) => message.content).join('\n');
}

/** Expands the 8:30 AM alarm, deletes it, then finishes; the notes it read are kept. */
function deletingPlanner(notes: string[]): ScriptedLanguageModel {
  return new ScriptedLanguageModel({
    replies: (request) => {
      if (request.role !== 'planner') return JSON.stringify({ verdict: 'pass', reason: 'scripted' });
      const prompt = promptOf(request);
      notes.push(prompt);
      const remove = /\[(n[0-9a-f]+)\] click "Delete"/.exec(prompt)?.[1];
      const tried = /Delete the alarm/.test(prompt);
      if (remove !== undefined && !tried) return JSON.stringify({ intent: 'Delete the alarm', expectation: alarmGone, commitment: [{ unit: remove }] });
      const expand = /\[(n[0-9a-f]+)\] click "Expand 8:30 AM alarm"/.exec(prompt)?.[1];
      if (expand !== undefined && !tried) return JSON.stringify({ intent: 'Expand the 8:30 AM alarm', commitment: [{ unit: expand }] });
      return JSON.stringify({ intent: 'Done', finish: true });
    },
  });
}

async function deleteAlarm(options: Partial<SenseActAgentOptions>): Promise<{ success: boolean; prompts: string[] }> {
  const prompts: string[] = [];
  const agent = await SenseActAgent.create({ device: new SimDevice(new Simulator({ seed: 3 })), models: { planner: deletingPlanner(prompts) }, traceRoot: root, ...options });
  const result = await agent.run('Delete the 8:30 AM alarm', { allowedPackages: [clock], launch: clock, stepBudget: 6, check: alarmGone });
  await agent.close();
  expect(result.error).toBeNull();
  return { success: result.outcome === 'success', prompts };
}

describe('SenseActAgent confirm', () => {
  it('asks before Delete and runs it on yes', async () => {
    const asked: IrreversibleAction[] = [];
    const run = await deleteAlarm({ confirm: (action) => { asked.push(action); return Promise.resolve(true); } });
    expect(run.success).toBe(true);
    expect(asked).toEqual([expect.objectContaining({ type: 'click', label: 'Delete', reason: 'its label says "delete"' })]);
  });

  it('does not delete on no, and the planner reads that the person declined', async () => {
    const run = await deleteAlarm({ confirm: () => Promise.resolve(false) });
    expect(run.success).toBe(false);
    expect(run.prompts.at(-1)).toMatch(/Delete the alarm.*the person declined it/s);
  });

  it('refuses Delete without a callback, and runs it with allowIrreversible', async () => {
    const refused = await deleteAlarm({});
    expect(refused.success).toBe(false);
    expect(refused.prompts.at(-1)).toMatch(/nobody can confirm it: refused/);
    expect((await deleteAlarm({ allowIrreversible: true })).success).toBe(true);
  });
});
