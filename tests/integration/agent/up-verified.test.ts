// A control that says it leaves the screen, through the whole loop on the simulator: a
// scripted planner opens Bob's contact page from the contacts list, then taps the page's
// "Navigate up". The loop hands the unit its place on the session's PageTrail, so the up
// button that returned to the list the run came from is strong ("control-went-back"); the
// tap on Bob's row that opened the page is not tied that way.
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runTask } from '../../../src/agent/run-task.js';
import { simulatorForTask } from '../../../src/bench/simulator-for-task.js';
import { SimDevice } from '../../../src/device/sim-device.js';
import type { LanguageModelRequest } from '../../../src/model/language-model.js';
import { ScriptedLanguageModel } from '../../../src/model/scripted-language-model.js';
import { loadSuite } from '../../../src/tasks/load-task-file.js';
import type { Task } from '../../../src/tasks/task-schema.js';
import { readTrace } from '../../../src/trace/read-trace.js';
import { temporaryRunRoot } from '../../helpers/sim-suite.js';

const repoRoot = path.resolve(import.meta.dirname, '..', '..', '..');
const suite = await loadSuite('sim', { tasksRoot: path.join(repoRoot, 'tasks') });
const task = { ...(suite.tasks.find((candidate) => candidate.id === 'contacts-bob-favorite') as Task), stepBudget: 4 };
const root = temporaryRunRoot('senseact-up-verified-');

/** The id of the unit the screen in the prompt lists as `<type> "<label>"`. */
function unitOf(prompt: string, type: string, label: string): string {
  const screen = prompt.slice(prompt.indexOf('<screen>'));
  const found = new RegExp(`\\[(n[0-9a-f]+)\\] ${type} "${label}"`).exec(screen);
  if (!found) throw new Error(`no ${type} "${label}" on the screen:\n${screen}`);
  return found[1]!;
}

/** Opens Bob's contact page, taps its "Navigate up", then finishes. */
function planner(): ScriptedLanguageModel {
  let turn = 0;
  return new ScriptedLanguageModel({
    replies: (request: LanguageModelRequest) => {
      const prompt = request.messages.at(-1)?.content ?? '';
      turn += 1;
      if (turn === 1) return JSON.stringify({ intent: 'Open Bob', commitment: [{ unit: unitOf(prompt, 'click', 'Bob') }] });
      if (turn === 2) return JSON.stringify({ intent: 'Go up to the list', commitment: [{ unit: unitOf(prompt, 'click', 'Navigate up') }] });
      return JSON.stringify({ intent: 'Stop here', finish: true });
    },
  });
}

describe('an up button in the loop', () => {
  it('is strong when it returned to the page the run came from', async () => {
    const device = new SimDevice(simulatorForTask(task, { seed: 7 }));
    const result = await runTask({ task, mode: 'senseact', policy: 'llm', device, probe: device, models: { planner: planner() }, traceRoot: root.dir(), suite: 'up-verified' });
    const events = (await readTrace(result.traceDir)).events;
    const verdicts = events.filter((event) => event.type === 'verify-end' && event.by === 'contract');
    const up = verdicts.filter((event) => String(event.reason).startsWith('click "Navigate up"'));
    expect(up).toHaveLength(1);
    expect(up[0]).toMatchObject({ outcome: 'pass', strength: 'strong', reason: expect.stringContaining('returned to the page the run came from') });
    const row = verdicts.find((event) => String(event.reason).startsWith('click "Bob"'));
    expect(row).toMatchObject({ outcome: 'pass' });
    expect(String(row?.reason)).not.toContain('the page the run came from');
  });
});
