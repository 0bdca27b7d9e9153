// A model's bad answers are its failure of the run, not infrastructure: a model whose
// replies never validate (`broken`: JSON cut off every time) or that answers with no text
// ends its run failed with "model reply: …", and a resumed bench would not run it again.
// Negative controls: a server failing with status 500 stays an infrastructure error, and
// the same model answering whole JSON completes.
import { describe, expect, it } from 'vitest';
import { runTask } from '../../../src/agent/run-task.js';
import type { AgentMode } from '../../../src/agent/task-run-result.js';
import { simulatorForTask } from '../../../src/bench/simulator-for-task.js';
import { SimDevice } from '../../../src/device/sim-device.js';
import { isModelInfrastructureError } from '../../../src/model/is-model-infrastructure-error.js';
import { isModelReplyFailure } from '../../../src/model/is-model-reply-failure.js';
import { labelMatchAnswer } from '../../../src/model/mock-label-model.js';
import { personalityReply } from '../../../src/model/mock-model-personality.js';
import type { MockChatRequest, MockReply } from '../../../src/model/mock-openai-server.js';
import { modelConfigFromEnv } from '../../../src/model/model-config-from-env.js';
import { OpenAiLanguageModel } from '../../../src/model/openai-language-model.js';
import { fastRetry, mockEndpointPerTest } from '../../helpers/mock-endpoint.js';
import { simSuiteTask, temporaryRunRoot } from '../../helpers/sim-suite.js';

const task = simSuiteTask('settings-dark-theme');
const runs = temporaryRunRoot('senseact-reply-failures-');
const mocks = mockEndpointPerTest();

async function run(reply: (request: MockChatRequest) => MockReply, mode: AgentMode) {
  const server = await mocks.start(reply);
  const config = modelConfigFromEnv({ SENSEACT_BASE_URL: server.url, SENSEACT_PLANNER_MODEL: 'planner-model', SENSEACT_VERIFIER_MODEL: 'verifier-model' });
  const language = new OpenAiLanguageModel({ config, retry: fastRetry });
  const device = new SimDevice(simulatorForTask(task, { seed: 3 }));
  return runTask({ task, mode, policy: 'llm', device, probe: device, models: { planner: language, verifier: language }, traceRoot: runs.dir(), suite: 'reply-failures' });
}

const noText: MockReply = { status: 200, body: { id: 'x', object: 'chat.completion', created: 0, model: 'planner-model', choices: [{ index: 0, message: { role: 'assistant', content: null }, finish_reason: 'length' }], usage: { prompt_tokens: 900, completion_tokens: 512, total_tokens: 1412 } } };

describe("a model's bad answers fail its run", () => {
  it.each(['senseact-text', 'react-text'] as const)('%s: replies that never validate end the run failed with "model reply: …", no infrastructure error', async (mode) => {
    const result = await run((request) => personalityReply('broken', labelMatchAnswer(request), request), mode);
    expect(result.error).toBeNull();
    expect(result.success).toBe(false);
    expect(result.stopReason).toMatch(/^model reply: planner-model \(role planner\) gave no valid reply in \d attempt\(s\)/);
    expect(result.reason).toMatch(/^model reply: /);
  });

  it('an empty reply (no text, the token budget spent) ends the run failed, its billed tokens counted', async () => {
    const result = await run(() => noText, 'senseact-text');
    expect(result.error).toBeNull();
    expect(result.success).toBe(false);
    expect(result.stopReason).toMatch(/^model reply: planner-model \(role planner\) answered with no text \(the reply has no text \(finish_reason length\)\)/);
    expect([result.promptTokens, result.completionTokens]).toEqual([900, 512]);
  });

  it('negative control: a server error is still infrastructure (error set)', async () => {
    const result = await run(() => ({ status: 500, body: { error: { message: 'boom', type: 'server_error' } } }), 'senseact-text');
    expect(result.error).toMatch(/Model call failed \(server-error, HTTP 500\)/);
    expect(result.stopReason).toBeUndefined();
  });

  it('negative control: the same model answering whole JSON completes', async () => {
    const result = await run((request) => personalityReply('strict', labelMatchAnswer(request), request), 'senseact-text');
    expect(result.success, result.reason).toBe(true);
  });
});

describe('the classification', () => {
  it('a reply failure is not infrastructure; a server error is', async () => {
    const server = await mocks.start((request) => (request.index === 0 ? noText : { status: 500, body: { error: { message: 'boom' } } }));
    const model = new OpenAiLanguageModel({ config: modelConfigFromEnv({ SENSEACT_BASE_URL: server.url }), retry: { ...fastRetry, maxAttempts: 1 } });
    const empty = await model.generate({ role: 'planner', messages: [{ role: 'user', content: 'hi' }] }).catch((error: unknown) => error);
    const failed = await model.generate({ role: 'planner', messages: [{ role: 'user', content: 'hi' }] }).catch((error: unknown) => error);
    expect([isModelReplyFailure(empty), isModelInfrastructureError(empty)]).toEqual([true, false]);
    expect([isModelReplyFailure(failed), isModelInfrastructureError(failed)]).toEqual([false, true]);
  });
});
