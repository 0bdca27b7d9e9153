// Meta-plans through the whole loop (runTask on the simulator): progress checked on the
// screen, FINISH refused while a sub-task's check has not held, the oracle's meta-plan,
// and the planning usage in the result and the trace.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maxMetaPlans } from '../../../src/agent/planning/meta-plan-progress.js';
import type { PlanningOptions } from '../../../src/agent/planning/planning-options.js';
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
const task = suite.tasks.find((candidate) => candidate.id === 'settings-dark-theme') as Task;
let root: string;

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'senseact-meta-plan-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

function unitId(request: LanguageModelRequest, label: string): string | undefined {
  const view = request.messages.map((message) => message.content).join('\n');
  return new RegExp(`\\[(n[0-9a-f]+)\\] [a-z-]+ "${label}"`).exec(view)?.[1];
}

/** A planner for "Turn my phone to Dark theme": opens Display, switches Dark theme on, then says FINISH; its meta-plan's second check is `second`. */
function darkThemePlanner(second: string): ScriptedLanguageModel {
  return new ScriptedLanguageModel({
    replies: (request) => {
      if (request.responseFormat?.name === 'MetaPlan') {
        return JSON.stringify({ subtasks: [{ name: 'Open Display', done: 'exists(text="Dark theme")' }, { name: 'Switch Dark theme on', done: second }] });
      }
      const prompt = request.messages.at(-1)?.content ?? '';
      const toggle = /\[(n[0-9a-f]+)\] toggle "Dark theme[^"]*"( checked)?/.exec(prompt);
      if (toggle && toggle[2] === undefined) return JSON.stringify({ intent: 'Switch Dark theme on', expectation: 'checked(is=switch, near(text~"Dark theme"))', commitment: [{ unit: toggle[1], checked: true }], subtasksDone: [2] });
      if (toggle) return JSON.stringify({ intent: 'Done', finish: true });
      const display = unitId(request, 'Display');
      if (display) return JSON.stringify({ intent: 'Open Display', expectation: 'exists(text="Dark theme")', commitment: [{ unit: display }] });
      return JSON.stringify({ intent: 'Done', finish: true });
    },
  });
}

async function run(planner: ScriptedLanguageModel | undefined, planning: PlanningOptions, mode: 'senseact' | 'open-loop' = 'senseact') {
  const device = new SimDevice(simulatorForTask(task, { seed: 7 }));
  const result = await runTask({ task, mode, policy: planner ? 'llm' : 'oracle', device, probe: device, ...(planner ? { models: { planner } } : {}), traceRoot: root, suite: 'meta-plan', planning });
  return { result, events: (await readTrace(result.traceDir)).events };
}

describe('meta-plans in the loop', () => {
  it('checks both sub-tasks on the screen and lets FINISH through when they held', async () => {
    const { result, events } = await run(darkThemePlanner('checked(is=switch, near(text~"Dark theme"))'), { metaPlan: true });
    expect(result.success).toBe(true);
    expect(result.reason).toContain('the planner said FINISH');
    expect(result.planning).toMatchObject({ metaPlans: 1, subtasks: 2, subtasksChecked: 2, finishRefusals: 0 });
    expect(events.filter((event) => event.type === 'progress-end').map((event) => event.type === 'progress-end' && event.progress)).toContainEqual(['checked', 'checked']);
    const planPrompt = events.find((event) => event.type === 'meta-plan-end');
    expect(planPrompt).toMatchObject({ reason: 'start of the task', progress: ['pending', 'pending'] });
  });

  it('refuses FINISH while the second sub-task\'s check never holds, says why, re-plans, and ends the run (task success is still the task\'s own check)', async () => {
    const planner = darkThemePlanner('exists(text="Sepia mode")');
    const { result, events } = await run(planner, { metaPlan: true });
    const refusals = events.filter((event) => event.type === 'finish-refused');
    expect(refusals.length).toBeGreaterThan(0);
    expect(refusals[0]).toMatchObject({ progress: ['checked', 'claimed'] });
    expect(refusals[0]!.type === 'finish-refused' && refusals[0]!.reason).toMatch(/sub-task 2 "Switch Dark theme on" is not done: its check exists\(text="Sepia mode"\) has not held/);
    // The planner is told why in its next prompt.
    expect(planner.calls.some((call) => (call.request.messages.at(-1)?.content ?? '').includes('Your previous commitment was rejected: FINISH refused: sub-task 2'))).toBe(true);
    expect(result.planning?.metaPlans).toBe(maxMetaPlans);
    expect(result.reason).toMatch(/FINISH refused \d+ times in a row and no new meta-plan is left/);
    // The dark theme is on: the task's check decides success, not the meta-plan.
    expect(result.success).toBe(true);
    expect(result.planning?.finishRefusals).toBe(refusals.length);
  });

  it('without --meta-plan asks for no plan and refuses nothing (the same planner, the same loop)', async () => {
    const planner = darkThemePlanner('exists(text="Sepia mode")');
    const { result, events } = await run(planner, {});
    expect(planner.calls.some((call) => call.request.responseFormat?.name === 'MetaPlan')).toBe(false);
    expect(events.some((event) => event.type === 'finish-refused' || event.type === 'meta-plan-end')).toBe(false);
    expect(result.planning).toBeUndefined();
    expect(result.reason).toContain('the planner said FINISH');
  });

  it('open-loop checks nothing: sub-tasks are done by the planner\'s word and FINISH goes through', async () => {
    const { result, events } = await run(darkThemePlanner('exists(text="Sepia mode")'), { metaPlan: true }, 'open-loop');
    expect(events.some((event) => event.type === 'finish-refused')).toBe(false);
    expect(result.planning).toMatchObject({ metaPlans: 1, subtasksChecked: 0, subtasksClaimed: 1 });
  });

  it('the oracle answers the meta-plan from the reference steps, labelled as oracle results', async () => {
    const { result, events } = await run(undefined, { metaPlan: true });
    expect(result.policy).toBe('oracle');
    expect(result.success).toBe(true);
    const plan = events.find((event) => event.type === 'meta-plan-end');
    expect(plan?.type === 'meta-plan-end' && plan.subtasks.map((subtask) => subtask.name)).toEqual(['Open Display', 'Switch dark theme on']);
    expect(result.planning?.subtasksChecked).toBe(1);
    expect(result.promptTokensBySection['plan']).toBeGreaterThan(0);
  });
});
