// A stream-only endpoint answers every request with server-sent events, asked or not. The
// client reads such a reply as the completion it holds (text, finish reason, usage): a run
// on the label-matching model completes with one request per call, where before each
// call was retried as a server error (4 requests) with a hint about login pages. An event
// stream holding no chat completion fails at once, named, without retries; an HTML page
// is still the retried invalid-response (negative controls).
import { describe, expect, it } from 'vitest';
import { runTask } from '../../../src/agent/run-task.js';
import { simulatorForTask } from '../../../src/bench/simulator-for-task.js';
import { SimDevice } from '../../../src/device/sim-device.js';
import { labelMatchAnswer } from '../../../src/model/mock-label-model.js';
import type { MockReply } from '../../../src/model/mock-openai-server.js';
import { ModelCallError } from '../../../src/model/model-call-error.js';
import { modelConfigFromEnv } from '../../../src/model/model-config-from-env.js';
import { OpenAiLanguageModel } from '../../../src/model/openai-language-model.js';
import { fastRetry, mockEndpointPerTest } from '../../helpers/mock-endpoint.js';
import { simSuiteTask, temporaryRunRoot } from '../../helpers/sim-suite.js';

const task = simSuiteTask('settings-dark-theme');
const runs = temporaryRunRoot('senseact-stream-only-');
const mocks = mockEndpointPerTest();

function model(url: string): OpenAiLanguageModel {
  return new OpenAiLanguageModel({ config: modelConfigFromEnv({ SENSEACT_BASE_URL: url, SENSEACT_MODEL: 'streamer' }), retry: fastRetry });
}

describe('a stream-only endpoint', () => {
  it('a run completes with one request per call; the streamed text, finish reason and usage are read', async () => {
    const server = await mocks.start((request) => ({ text: JSON.stringify(labelMatchAnswer(request)), stream: true, usage: { promptTokens: 1000, completionTokens: 20 } }));
    const language = model(server.url);
    const device = new SimDevice(simulatorForTask(task, { seed: 3 }));
    const result = await runTask({ task, mode: 'senseact-text', policy: 'llm', device, probe: device, models: { planner: language, verifier: language }, traceRoot: runs.dir(), suite: 'stream-only' });
    expect(result.success, result.reason).toBe(true);
    expect([result.modelAttempts, server.requests.length]).toEqual([result.llmCalls, result.llmCalls]);
    expect(result.promptTokens).toBe(1000 * result.llmCalls);
    expect(result.estimatedUsageCalls).toBeUndefined();
    expect(server.requests.every((request) => (request.body as { stream?: boolean }).stream !== true)).toBe(true);
  });

  it('one streamed reply: text joined from its chunks, finish reason, model', async () => {
    const server = await mocks.start(() => ({ text: 'Hello from a stream', stream: true, finishReason: 'length', model: 'served-model' }));
    const reply = await model(server.url).generate({ role: 'planner', messages: [{ role: 'user', content: 'hi' }] });
    expect([reply.text, reply.finishReason, reply.model, reply.attempts]).toEqual(['Hello from a stream', 'length', 'served-model', 1]);
  });

  it('negative control: an event stream with no chat completion fails at once, named, not retried', async () => {
    const odd: MockReply = { status: 200, body: 'data: {"status": "queued"}\n\ndata: [DONE]\n\n', headers: { 'content-type': 'text/event-stream' } };
    const server = await mocks.start(() => odd);
    const error = await model(server.url).generate({ role: 'planner', messages: [{ role: 'user', content: 'hi' }] }).catch((caught: unknown) => caught);
    expect(ModelCallError.isInstance(error) && [error.failure, error.attempts]).toEqual(['invalid-response', 1]);
    expect((error as Error).message).toMatch(/streamed its reply \(server-sent events\) with no chunk of a chat completion.*This endpoint streams its replies/);
    expect(server.requests).toHaveLength(1);
  });

  it('negative control: an HTML page with status 200 is still the retried invalid-response', async () => {
    const server = await mocks.start(() => ({ status: 200, body: '<html>data: sign in</html>', headers: { 'content-type': 'text/html' } }));
    const error = await model(server.url).generate({ role: 'planner', messages: [{ role: 'user', content: 'hi' }] }).catch((caught: unknown) => caught);
    expect(ModelCallError.isInstance(error) && [error.failure, error.attempts]).toEqual(['invalid-response', 4]);
  });
});
