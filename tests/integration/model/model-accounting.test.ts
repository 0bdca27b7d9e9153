// Every request the endpoint sees is counted, played by the mock server: a resend after a
// learned quirk, an empty reply the endpoint billed, cached prompt tokens, and the answer
// judge of a query task, which runs on the session's metered model.
import { describe, expect, it } from 'vitest';
import { ModelAnswerJudge } from '../../../src/agent/model-answer-judge.js';
import { runTask } from '../../../src/agent/run-task.js';
import { computeModeMetrics } from '../../../src/bench/compute-mode-metrics.js';
import { simulatorForTask } from '../../../src/bench/simulator-for-task.js';
import { SimDevice } from '../../../src/device/sim-device.js';
import { labelMatchAnswer } from '../../../src/model/mock-label-model.js';
import { MeteredLanguageModel } from '../../../src/model/metered-language-model.js';
import { modelConfigFromEnv } from '../../../src/model/model-config-from-env.js';
import { OpenAiLanguageModel } from '../../../src/model/openai-language-model.js';
import { UsageLedger } from '../../../src/model/usage-ledger.js';
import { runResult } from '../../unit/bench/run-result-builder.js';
import { fastRetry, mockEndpointPerTest } from '../../helpers/mock-endpoint.js';
import { simSuiteTask, temporaryRunRoot } from '../../helpers/sim-suite.js';

const queryTask = simSuiteTask('settings-query-apps-storage');
const ask = { role: 'planner' as const, messages: [{ role: 'user' as const, content: 'x' }], maxTokens: 20 };
const runs = temporaryRunRoot('senseact-accounting-');
const mocks = mockEndpointPerTest();

function model(url: string): OpenAiLanguageModel {
  return new OpenAiLanguageModel({ config: modelConfigFromEnv({ SENSEACT_BASE_URL: url, SENSEACT_MODEL: 'm' }), retry: fastRetry });
}

describe('every request counted', () => {
  it('a resend after the endpoint refused max_tokens is an attempt of the call', async () => {
    const mock = await mocks.start((request) => ('max_tokens' in (request.body as object)
      ? { status: 400, body: { error: { message: "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.", type: 'invalid_request_error', param: 'max_tokens', code: 'unsupported_parameter' } } }
      : 'ok'));
    const ledger = new UsageLedger();
    await new MeteredLanguageModel(model(mock.url), { ledger }).generate(ask);
    expect(mock.requests).toHaveLength(2);
    expect(ledger.totals().attempts).toBe(2);
  });

  it('an empty reply keeps the tokens the endpoint billed for it, and a reasoning model out of tokens is told so', async () => {
    const mock = await mocks.start(() => ({ status: 200, body: { id: 'x', object: 'chat.completion', created: 0, model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: null, reasoning_content: 'Let me think about this at length…' }, finish_reason: 'length' }], usage: { prompt_tokens: 120, completion_tokens: 20, total_tokens: 140 } } }));
    const ledger = new UsageLedger();
    const error = await new MeteredLanguageModel(model(mock.url), { ledger }).generate(ask).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ failure: 'empty-reply' });
    expect((error as Error).message).toMatch(/only reasoning_content.*spent its token budget on reasoning.*SENSEACT_PLANNER_MAX_TOKENS/);
    expect(ledger.totals()).toMatchObject({ promptTokens: 120 * mock.requests.length, completionTokens: 20 * mock.requests.length, failedCalls: 1, attempts: mock.requests.length });
  });

  it('reads cached prompt tokens and prices them at the cached price when one is given; without one at the prompt price', async () => {
    const mock = await mocks.start(() => ({ text: 'ok', usage: { promptTokens: 1000, completionTokens: 10, cachedPromptTokens: 800 } }));
    const ledger = new UsageLedger();
    const reply = await new MeteredLanguageModel(model(mock.url), { ledger }).generate(ask);
    expect(reply.usage).toEqual({ promptTokens: 1000, completionTokens: 10, cachedPromptTokens: 800 });
    expect(ledger.totals().cachedPromptTokens).toBe(800);
    const run = runResult({ id: 't', mode: 'senseact', promptTokens: 1000, completionTokens: 10, cachedPromptTokens: 800 });
    const [cached] = computeModeMetrics([run], ['senseact'], { label: 'p', promptPerMillionUsd: 2, completionPerMillionUsd: 8, cachedPromptPerMillionUsd: 0.5 });
    expect(cached?.costUsd).toBeCloseTo((200 * 2 + 800 * 0.5 + 10 * 8) / 1e6, 12);
    const [plain] = computeModeMetrics([run], ['senseact'], { label: 'p', promptPerMillionUsd: 2, completionPerMillionUsd: 8 });
    expect(plain?.costUsd).toBeCloseTo((1000 * 2 + 10 * 8) / 1e6, 12);
  });

  it("the answer judge's request is counted with the run (requests seen = counted attempts); an unmetered judge given beside it is not (negative control)", async () => {
    const mock = await mocks.start((request) => JSON.stringify(request.texts.join('\n').includes('Answer to grade:') ? labelMatchAnswer(request) : { thought: 'Read the size of Apps', action: null, finish: true, answer: '4.2 GB' }));
    const language = model(mock.url);
    const run = async (judges?: { model: ModelAnswerJudge }) => {
      const device = new SimDevice(simulatorForTask(queryTask, { seed: 3 }));
      return runTask({ task: queryTask, mode: 'react-text', policy: 'llm', device, probe: device, models: { planner: language, judge: language }, traceRoot: runs.dir(), suite: 'accounting', ...(judges ? { judges } : {}) });
    };
    const metered = await run();
    expect(metered.success, metered.reason).toBe(true);
    expect(mock.requests).toHaveLength(2);
    expect(metered.modelAttempts).toBe(2);
    const unmetered = await run({ model: new ModelAnswerJudge(language) });
    expect(mock.requests).toHaveLength(4);
    expect(unmetered.modelAttempts).toBe(1);
  });
});
