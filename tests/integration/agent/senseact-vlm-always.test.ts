// The `senseact-vlm-always` ablation (docs/experiments.md): the same SenseAct loop with a screenshot
// on every planner call, against `senseact`, whose planner sees no pixels while the gate
// stays closed. Scripted models record every request, so the images are counted per call.
import { describe, expect, it } from 'vitest';
import { runTask } from '../../../src/agent/run-task.js';
import type { AgentMode } from '../../../src/agent/task-run-result.js';
import { simulatorForTask } from '../../../src/bench/simulator-for-task.js';
import { SimDevice } from '../../../src/device/sim-device.js';
import { ScriptedLanguageModel, ScriptedVisionModel } from '../../../src/model/scripted-language-model.js';
import { countImages, type VisionMessage } from '../../../src/model/vision-model.js';
import { readTrace } from '../../../src/trace/read-trace.js';
import { simSuiteTask as suiteTask, temporaryRunRoot } from '../../helpers/sim-suite.js';
import { unitIdIn } from '../../unit/agent/senseact-fixture.js';

const runRoot = temporaryRunRoot('senseact-vlm-always-');

/** The dark-theme plan as a model would give it, read from the view in the request. */
function darkThemePlan(request: { messages: readonly VisionMessage[] }): string {
  const view = request.messages.map((message) => message.content).join('\n');
  if (/\[n[0-9a-f]+\] click "Display"/.test(view)) return JSON.stringify({ intent: 'Open Display', expectation: 'exists(text="Dark theme")', commitment: [{ unit: unitIdIn(request, 'Display') }] });
  if (/toggle "Dark theme" unchecked/.test(view)) return JSON.stringify({ intent: 'Dark theme on', expectation: 'checked(label~"Dark theme")', commitment: [{ unit: unitIdIn(request, 'Dark theme'), checked: true }] });
  return JSON.stringify({ intent: 'Done', finish: true });
}

async function runScripted(mode: AgentMode, models: { planner: ScriptedLanguageModel; vision?: ScriptedVisionModel }) {
  const task = suiteTask('settings-dark-theme');
  const device = new SimDevice(simulatorForTask(task, { seed: 7 }));
  return runTask({ task, mode, policy: 'llm', device, models, probe: device, traceRoot: runRoot.dir(), suite: 'vlm-always' });
}

describe('senseact-vlm-always', () => {
  it('sends every planner call to the vision model with one screenshot, counted as vision calls', async () => {
    const planner = new ScriptedLanguageModel({ replies: [] });
    const vision = new ScriptedVisionModel({ replies: (request) => darkThemePlan(request) });
    const result = await runScripted('senseact-vlm-always', { planner, vision });
    expect(result.success, result.reason).toBe(true);
    expect(planner.calls).toHaveLength(0);
    const plannerCalls = vision.calls.filter((call) => call.request.role === 'planner');
    expect(plannerCalls.length).toBe(3);
    for (const call of plannerCalls) expect(countImages(call.request.messages).images).toBe(1);
    expect(result.vlmCalls).toBe(vision.calls.length);
    expect(result.llmCalls).toBe(0);
    expect(result.imagesUploaded).toBe(vision.calls.length);
    // The screenshot shows the screen the plan is made on: one per planning round, in its step folder.
    const trace = await readTrace(result.traceDir);
    const plans = trace.events.filter((event) => event.type === 'plan-end').map((event) => event.step);
    const shots = trace.events.filter((event) => event.type === 'screenshot-end').map((event) => event.step);
    expect(shots).toEqual(plans);
  });

  it('in senseact the same plans go to the text planner without an image while the gate stays closed', async () => {
    const planner = new ScriptedLanguageModel({ replies: (request) => darkThemePlan(request) });
    const vision = new ScriptedVisionModel({ replies: [] });
    const result = await runScripted('senseact', { planner, vision });
    expect(result.success, result.reason).toBe(true);
    expect(planner.calls).toHaveLength(3);
    expect(vision.calls).toHaveLength(0);
    expect(result.gateReasons).toEqual({});
    expect(result.imagesUploaded).toBe(0);
    expect(result.vlmCalls).toBe(0);
    expect(result.llmCalls).toBe(3);
  });

  it('plays the oracle through the same loop: a screenshot per plan, the same steps and verdict as senseact', async () => {
    const task = suiteTask('clock-alarm-1030-once');
    const results = [];
    for (const mode of ['senseact', 'senseact-vlm-always'] as const) {
      const device = new SimDevice(simulatorForTask(task, { seed: 7 }));
      results.push(await runTask({ task, mode, policy: 'oracle', device, probe: device, traceRoot: runRoot.dir(), suite: 'vlm-always' }));
    }
    const [senseact, always] = results as [Awaited<ReturnType<typeof runTask>>, Awaited<ReturnType<typeof runTask>>];
    expect(always.success, always.reason).toBe(true);
    expect(always.steps).toBe(senseact.steps);
    expect(always.vlmCalls).toBe(senseact.llmCalls + senseact.vlmCalls);
    expect(always.imagesUploaded).toBe(always.vlmCalls);
    expect(senseact.imagesUploaded).toBe(0);
  });

  it('without a vision model ends in an infrastructure error that says what to configure', async () => {
    const planner = new ScriptedLanguageModel({ replies: [] });
    const result = await runScripted('senseact-vlm-always', { planner });
    expect(result.error).toMatch(/senseact-vlm-always .* needs a vision model: configure SENSEACT_VISION_MODEL/);
    expect(planner.calls).toHaveLength(0);
  });
});
