// A runaway model, played by the mock server: the label-matching stand-in (it reads the
// view and picks the unit whose label matches the task) with well-formed replies that
// name unit ids no screen has (`refused`), and the same model answering plainly. Refused
// plans stop a run after a few in a row, and a spent budget stops it as a failure, never
// an infrastructure error; a clean model is untouched by either.
import { describe, expect, it } from 'vitest';
import { maxRefusedPlansInARow } from '../../../src/agent/planning/plan-intent.js';
import { runTask, type RunTaskOptions } from '../../../src/agent/run-task.js';
import type { AgentMode } from '../../../src/agent/task-run-result.js';
import { simulatorForTask } from '../../../src/bench/simulator-for-task.js';
import { SimDevice } from '../../../src/device/sim-device.js';
import { labelMatchAnswer } from '../../../src/model/mock-label-model.js';
import { personalityReply, type MockPersonality } from '../../../src/model/mock-model-personality.js';
import { ModelConfigError } from '../../../src/model/model-config-error.js';
import { modelConfigFromEnv } from '../../../src/model/model-config-from-env.js';
import { OpenAiLanguageModel } from '../../../src/model/openai-language-model.js';
import { fastRetry, mockEndpointPerTest } from '../../helpers/mock-endpoint.js';
import { simSuiteTask, temporaryRunRoot } from '../../helpers/sim-suite.js';

const task = simSuiteTask('settings-dark-theme');
const runs = temporaryRunRoot('senseact-budgets-');
const mocks = mockEndpointPerTest();

async function run(personality: MockPersonality, mode: AgentMode, extra: Partial<RunTaskOptions> = {}) {
  const server = await mocks.start((request) => personalityReply(personality, labelMatchAnswer(request), request));
  const config = modelConfigFromEnv({ SENSEACT_BASE_URL: server.url, SENSEACT_PLANNER_MODEL: 'planner-model', SENSEACT_VERIFIER_MODEL: 'verifier-model' });
  const language = new OpenAiLanguageModel({ config, retry: fastRetry });
  const device = new SimDevice(simulatorForTask(task, { seed: 3 }));
  const result = await runTask({ task, mode, policy: 'llm', device, probe: device, models: { planner: language, verifier: language }, traceRoot: runs.dir(), suite: `budget-${personality}`, ...extra });
  return { result, requests: server.requests.length };
}

describe('a model whose plans are always refused', () => {
  it.each(['senseact-text', 'react-text'] as const)('%s: stops after a few refused plans in a row, a failure of the run, not infrastructure', async (mode) => {
    const { result, requests } = await run('refused', mode);
    expect(result.error).toBeNull();
    expect(result.success).toBe(false);
    expect(result.stopReason).toMatch(new RegExp(`^the model's plans were refused ${maxRefusedPlansInARow} times in a row: unit "nx000" is not on this screen`));
    expect(requests).toBe(maxRefusedPlansInARow);
  });

  it.each(['senseact-text', 'react-text'] as const)('%s: the same model answering with ids on the screen completes (negative control)', async (mode) => {
    const { result, requests } = await run('strict', mode);
    expect(result.success, result.reason).toBe(true);
    expect(result.stopReason).toMatch(/said FINISH/);
    expect(requests).toBeLessThan(maxRefusedPlansInARow);
  });
});

describe('model budgets of a run', () => {
  it.each(['senseact-text', 'react-text'] as const)('%s: a call limit stops the run with "budget: …" as its failure; no call beyond it is sent', async (mode) => {
    const { result, requests } = await run('strict', mode, { budget: { maxModelCalls: 1 } });
    expect(result.error).toBeNull();
    expect(result.success).toBe(false);
    expect(result.stopReason).toBe('budget: 1 model calls reached the limit of 1 (--max-model-calls)');
    expect(result.reason).toMatch(/^budget: 1 model calls/);
    expect(requests).toBe(1);
    expect(result.modelAttempts).toBe(1);
  });

  it('a token limit stops after the call that crosses it; the task file\'s budget counts too, the tighter winning', async () => {
    const tight = await run('strict', 'senseact-text', { budget: { maxTokens: 50 } });
    expect(tight.result.stopReason).toMatch(/^budget: \d+ tokens reached the limit of 50 \(--max-tokens\)$/);
    expect(tight.requests).toBe(1);
    const { result, requests } = await run('strict', 'senseact-text', { task: { ...task, modelBudget: { maxModelCalls: 2 } }, budget: { maxModelCalls: 50 } });
    expect(result.stopReason).toMatch(/^budget: 2 model calls reached the limit of 2/);
    expect(requests).toBe(2);
  });

  it('a cost limit is counted at the given prices; without prices it is refused as bad configuration', async () => {
    const { result, requests } = await run('strict', 'react-text', { budget: { maxCostUsd: 0.000001 }, budgetPrices: { promptPerMillionUsd: 2.5, completionPerMillionUsd: 10 } });
    expect(result.stopReason).toMatch(/^budget: \$0\.\d+ reached the limit of \$0\.000001 \(--max-cost\)$/);
    expect(requests).toBe(1);
    await expect(run('strict', 'react-text', { budget: { maxCostUsd: 1 } })).rejects.toSatisfy((error) => ModelConfigError.isInstance(error) && /needs prices/.test(error.message));
  });

  it('limits the clean run does not reach change nothing (negative control)', async () => {
    const { result } = await run('strict', 'senseact-text', { budget: { maxModelCalls: 20, maxTokens: 100_000 } });
    expect(result.success, result.reason).toBe(true);
    expect(result.stopReason).toBe('the planner said FINISH');
  });
});
