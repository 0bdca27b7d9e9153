// Going back through the whole loop on the simulator, with scripted planners. The loop's
// PageTrail knows the page the run came from, so a step that returned there is strong
// evidence when the key or control says it leaves the screen:
// - Back from a settings page it opened ("went-back"); a second Back, from the main page the
//   run began on, which left the app for the home screen ("left-for-home"), is not tied as a
//   return to a page the run came from;
// - the "Navigate up" of Bob's contact page opened from the contacts list
//   ("control-went-back"); the tap on Bob's row that opened the page is not tied that way.
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
import type { TraceEvent } from '../../../src/trace/trace-event.js';
import { temporaryRunRoot } from '../../helpers/sim-suite.js';

const repoRoot = path.resolve(import.meta.dirname, '..', '..', '..');
const suite = await loadSuite('sim', { tasksRoot: path.join(repoRoot, 'tasks') });
const root = temporaryRunRoot('senseact-back-verified-');

/** The id of the unit the screen in the prompt lists as `<type> "<label>"`. */
function unitOf(prompt: string, type: string, label: string): string {
  const screen = prompt.slice(prompt.indexOf('<screen>'));
  const found = new RegExp(`\\[(n[0-9a-f]+)\\] ${type} "${label}"`).exec(screen);
  if (!found) throw new Error(`no ${type} "${label}" on the screen:\n${screen}`);
  return found[1]!;
}

/** A planner that commits, turn by turn, to the unit each of `turns` picks from the prompt, then finishes. */
function planner(turns: readonly { intent: string; unit: (prompt: string) => string }[]): ScriptedLanguageModel {
  let turn = 0;
  return new ScriptedLanguageModel({
    replies: (request: LanguageModelRequest) => {
      const prompt = request.messages.at(-1)?.content ?? '';
      const next = turns[turn];
      turn += 1;
      return JSON.stringify(next ? { intent: next.intent, commitment: [{ unit: next.unit(prompt) }] } : { intent: 'Stop here', finish: true });
    },
  });
}

/** Runs `taskId` with `turns` and returns the contract's verdicts in the order of the steps. */
async function verdicts(taskId: string, turns: Parameters<typeof planner>[0]): Promise<TraceEvent[]> {
  const task = { ...(suite.tasks.find((candidate) => candidate.id === taskId) as Task), stepBudget: turns.length + 2 };
  const device = new SimDevice(simulatorForTask(task, { seed: 7 }));
  const result = await runTask({ task, mode: 'senseact', policy: 'llm', device, probe: device, models: { planner: planner(turns) }, traceRoot: root.dir(), suite: 'back-verified' });
  return (await readTrace(result.traceDir)).events.filter((event) => event.type === 'verify-end' && event.by === 'contract');
}

const reasonOf = (event: TraceEvent | undefined): string => (event?.type === 'verify-end' ? event.reason ?? '' : '');

describe('Back in the loop', () => {
  it('is strong when it returned to the page the run came from, and when it left the page the run began on for the home screen', async () => {
    const back = { intent: 'Go back', unit: () => 'nav-back' };
    const all = await verdicts('settings-dark-theme', [{ intent: 'Open Display', unit: (prompt) => unitOf(prompt, 'click', 'Display') }, back, back]);
    const backs = all.filter((event) => reasonOf(event).startsWith('navigate back'));
    expect(backs.length).toBe(2);
    expect(backs[0]).toMatchObject({ outcome: 'pass', strength: 'strong', reason: expect.stringContaining('it returned to the page the run came from') });
    expect(backs[1]).toMatchObject({ outcome: 'pass', strength: 'strong', reason: expect.stringMatching(/with no page under it on the trail, it left com\.android\.settings for the home screen/) });
    expect(reasonOf(backs[1])).not.toContain('it returned to the page the run came from');
  });
});

describe('an up button in the loop', () => {
  it('is strong when it returned to the page the run came from', async () => {
    const all = await verdicts('contacts-bob-favorite', [
      { intent: 'Open Bob', unit: (prompt) => unitOf(prompt, 'click', 'Bob') },
      { intent: 'Go up to the list', unit: (prompt) => unitOf(prompt, 'click', 'Navigate up') },
    ]);
    const up = all.filter((event) => reasonOf(event).startsWith('click "Navigate up"'));
    expect(up).toHaveLength(1);
    expect(up[0]).toMatchObject({ outcome: 'pass', strength: 'strong', reason: expect.stringContaining('returned to the page the run came from') });
    const row = all.find((event) => reasonOf(event).startsWith('click "Bob"'));
    expect(row).toMatchObject({ outcome: 'pass' });
    expect(reasonOf(row)).not.toContain('the page the run came from');
  });
});
