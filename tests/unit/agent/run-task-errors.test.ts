// A run that cannot start for a reason the user can fix says so with the agent's own error
// class (SenseActAgentError, code and what to configure), as SenseActAgent and the SenseAct
// loop do: the llm policy without models, a ReAct vision baseline without a vision model.
import { describe, expect, it } from 'vitest';
import { runTask } from '../../../src/agent/run-task.js';
import { SenseActAgentError } from '../../../src/agent/senseact-agent-error.js';
import { simulatorForTask } from '../../../src/bench/simulator-for-task.js';
import { SimDevice } from '../../../src/device/sim-device.js';
import { ScriptedLanguageModel, ScriptedVisionModel } from '../../../src/model/scripted-language-model.js';
import { readTrace } from '../../../src/trace/read-trace.js';
import { simSuiteTask, temporaryRunRoot } from '../../helpers/sim-suite.js';

const runRoot = temporaryRunRoot('senseact-run-task-errors-');
const task = simSuiteTask('settings-airplane-on');

function device(): SimDevice {
  return new SimDevice(simulatorForTask(task, { seed: 7 }));
}

describe('runTask, user-facing errors', () => {
  it('refuses the llm policy without models with a SenseActAgentError that names the option and the settings', async () => {
    const refused = await runTask({ task, mode: 'senseact', policy: 'llm', device: device(), traceRoot: runRoot.dir(), suite: 'errors' }).then(() => undefined, (error: unknown) => error);
    expect(SenseActAgentError.isInstance(refused)).toBe(true);
    expect(refused).toMatchObject({ code: 'agent-models' });
    expect((refused as Error).message).toMatch(/option models.*SENSEACT_BASE_URL.*policy "oracle"/);
  });

  it('control: with models given the same run starts (the oracle needs none)', async () => {
    const sim = device();
    const result = await runTask({ task, mode: 'senseact', policy: 'oracle', device: sim, probe: sim, traceRoot: runRoot.dir(), suite: 'errors' });
    expect(result.error).toBeNull();
    expect(result.success, result.reason).toBe(true);
  });

  it('ends react-vlm without a vision model in an infrastructure error with the agent error\'s code, before any model call', async () => {
    const planner = new ScriptedLanguageModel({ replies: [] });
    const result = await runTask({ task, mode: 'react-vlm', policy: 'llm', device: device(), models: { planner }, traceRoot: runRoot.dir(), suite: 'errors', runId: 'no-vision' });
    expect(result.error).toMatch(/^react-vlm needs a vision model: configure SENSEACT_VISION_MODEL/);
    expect(planner.calls).toHaveLength(0);
    const errors = (await readTrace(result.traceDir)).events.filter((event) => event.type === 'error');
    expect(errors).toEqual([expect.objectContaining({ code: 'agent-no-vision-model', name: 'SenseActAgentError', infrastructure: true })]);
  });

  it('control: react-vlm with a vision model runs its steps', async () => {
    const vision = new ScriptedVisionModel({ replies: [JSON.stringify({ thought: 'nothing to do', action: null, finish: true })] });
    const result = await runTask({ task, mode: 'react-vlm', policy: 'llm', device: device(), models: { planner: new ScriptedLanguageModel({ replies: [] }), vision }, traceRoot: runRoot.dir(), suite: 'errors', runId: 'with-vision' });
    expect(result.error).toBeNull();
    expect(vision.calls).toHaveLength(1);
  });
});
