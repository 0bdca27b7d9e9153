import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { generateStructured } from '../../../src/model/generate-structured.js';
import { InvalidModelReplyError } from '../../../src/model/invalid-model-reply-error.js';
import { MeteredVisionModel } from '../../../src/model/metered-language-model.js';
import { ModelCallError } from '../../../src/model/model-call-error.js';
import { modelConfigFromEnv } from '../../../src/model/model-config-from-env.js';
import { OpenAiLanguageModel } from '../../../src/model/openai-language-model.js';
import { OpenAiVisionModel } from '../../../src/model/openai-vision-model.js';
import { UsageLedger } from '../../../src/model/usage-ledger.js';
import { fastRetry, mockEndpointPerTest } from '../../helpers/mock-endpoint.js';

const answerSchema = z.object({ action: z.enum(['tap', 'type']), target: z.string() });

const mocks = mockEndpointPerTest();

function config(url: string, env: Record<string, string> = {}) {
  return modelConfigFromEnv({ SENSEACT_BASE_URL: url, SENSEACT_API_KEY: 'sk-test-abcdefghijklmnopqrstuv', SENSEACT_PLANNER_MODEL: 'plan-model', SENSEACT_VISION_MODEL: 'vision-model', ...env });
}

describe('OpenAiLanguageModel against the mock server', () => {
  it('sends the role model, messages and key; returns text, usage and model', async () => {
    const mock = await mocks.start(() => ({ text: 'hello', usage: { promptTokens: 21, completionTokens: 2 } }));
    const model = new OpenAiLanguageModel({ config: config(mock.url), retry: fastRetry });
    const reply = await model.generate({ role: 'planner', messages: [{ role: 'system', content: 'be brief' }, { role: 'user', content: 'hi' }], temperature: 0, maxTokens: 50 });
    expect(reply.text).toBe('hello');
    expect(reply.usage).toEqual({ promptTokens: 21, completionTokens: 2 });
    expect(reply.model).toBe('plan-model');
    expect(reply.finishReason).toBe('stop');
    expect(reply.latencyMs).toBeGreaterThan(0);
    const received = mock.requests[0];
    expect(received?.model).toBe('plan-model');
    expect(received?.headers.authorization).toBe('Bearer sk-test-abcdefghijklmnopqrstuv');
    expect(received?.body).toMatchObject({ temperature: 0, max_tokens: 50, messages: [{ role: 'system', content: 'be brief' }, { role: 'user', content: 'hi' }] });
    expect(model.modelName('verifier')).toBe('plan-model');
  });

  it('extracts JSON from fences through generateStructured', async () => {
    const mock = await mocks.start(() => 'Sure.\n```json\n{"action": "tap", "target": "n12ab"}\n```');
    const model = new OpenAiLanguageModel({ config: config(mock.url), retry: fastRetry });
    const result = await generateStructured(model, { role: 'planner', schema: answerSchema, messages: [{ role: 'user', content: 'act' }] });
    expect(result.value).toEqual({ action: 'tap', target: 'n12ab' });
    expect(mock.requests).toHaveLength(1);
  });

  it('retries an invalid reply with the validation error, then succeeds', async () => {
    const mock = await mocks.start((request) => (request.index === 0 ? '{"action": "swipe", "target": "n1"}' : '{"action": "type", "target": "n1"}'));
    const model = new OpenAiLanguageModel({ config: config(mock.url), retry: fastRetry });
    const result = await generateStructured(model, { role: 'planner', schema: answerSchema, messages: [{ role: 'user', content: 'act' }] });
    expect(result.value.action).toBe('type');
    expect(result.attempts).toBe(2);
    const retryTexts = mock.requests[1]?.texts ?? [];
    expect(retryTexts.at(-2)).toBe('{"action": "swipe", "target": "n1"}');
    expect(retryTexts.at(-1)).toMatch(/previous reply was invalid[\s\S]*action/);
  });

  it('turns repeated invalid replies into InvalidModelReplyError, not a ModelCallError', async () => {
    const mock = await mocks.start(() => ({ text: 'I would tap the button.', usage: { promptTokens: 10, completionTokens: 5 } }));
    const model = new OpenAiLanguageModel({ config: config(mock.url), retry: fastRetry });
    const error = await generateStructured(model, { role: 'planner', schema: answerSchema, messages: [{ role: 'user', content: 'act' }], maxRetries: 1 }).catch((caught: unknown) => caught);
    expect(InvalidModelReplyError.isInstance(error)).toBe(true);
    expect(ModelCallError.isInstance(error)).toBe(false);
    expect(error).toMatchObject({ rawText: 'I would tap the button.', model: 'plan-model', usage: { promptTokens: 20, completionTokens: 10 }, attempts: 2 });
    expect(mock.requests).toHaveLength(2);
  });

  it('backs off on 429 (honouring Retry-After) and then succeeds', async () => {
    const mock = await mocks.start((request) =>
      request.index < 2 ? { status: 429, body: { error: { message: 'Rate limit reached', type: 'requests' } }, headers: { 'retry-after-ms': '3' } } : 'ok',
    );
    const model = new OpenAiLanguageModel({ config: config(mock.url), retry: fastRetry });
    const reply = await model.generate({ role: 'planner', messages: [{ role: 'user', content: 'x' }] });
    expect(reply.text).toBe('ok');
    expect(mock.requests).toHaveLength(3);
  });

  it('gives up after the attempt limit on repeated 500s with an infrastructure error', async () => {
    const mock = await mocks.start(() => ({ status: 500, body: { error: { message: 'GPU on fire', type: 'server_error' } } }));
    const model = new OpenAiLanguageModel({ config: config(mock.url), retry: { ...fastRetry, maxAttempts: 3 } });
    const error = await model.generate({ role: 'planner', messages: [{ role: 'user', content: 'x' }] }).catch((caught: unknown) => caught);
    expect(ModelCallError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ failure: 'server-error', status: 500, attempts: 3, model: 'plan-model', role: 'planner' });
    expect((error as Error).message).toMatch(/HTTP 500.*plan-model.*after 3 attempt/);
    expect(mock.requests).toHaveLength(3);
  });

  it('stops retrying when the budget would be exceeded', async () => {
    const mock = await mocks.start(() => ({ status: 503, body: { error: { message: 'busy' } }, headers: { 'retry-after': '5' } }));
    const model = new OpenAiLanguageModel({ config: config(mock.url), retry: { maxAttempts: 10, initialDelayMs: 1, maxDelayMs: 60_000, budgetMs: 1_000 } });
    const error = await model.generate({ role: 'planner', messages: [{ role: 'user', content: 'x' }] }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ failure: 'server-error', status: 503, attempts: 1 });
    expect(mock.requests).toHaveLength(1);
  });

  it('does not retry a 401 and names the key variables', async () => {
    const mock = await mocks.start(() => ({ status: 401, body: { error: { message: 'Incorrect API key provided', type: 'invalid_request_error' } } }));
    const model = new OpenAiLanguageModel({ config: config(mock.url), retry: fastRetry });
    const error = await model.generate({ role: 'planner', messages: [{ role: 'user', content: 'x' }] }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ failure: 'client-error', status: 401, attempts: 1 });
    expect((error as Error).message).toMatch(/SENSEACT_API_KEY/);
    expect(mock.requests).toHaveLength(1);
  });

  it('times out a slow reply, retries, and reports a timeout', async () => {
    const mock = await mocks.start(() => ({ text: 'too late', delayMs: 5_000 }));
    const model = new OpenAiLanguageModel({ config: config(mock.url), timeoutMs: 100, retry: { ...fastRetry, maxAttempts: 2 } });
    const error = await model.generate({ role: 'planner', messages: [{ role: 'user', content: 'x' }] }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ failure: 'timeout', attempts: 2 });
    // Under load a 100 ms timeout may fire before the server has read a request, so the
    // server's count is at most the attempts.
    expect(mock.requests.length).toBeLessThanOrEqual(2);
  });

  it('takes the timeout from the config (SENSEACT_MODEL_TIMEOUT_MS) when no option is given', async () => {
    const mock = await mocks.start(() => ({ text: 'too late', delayMs: 5_000 }));
    const model = new OpenAiLanguageModel({ config: config(mock.url, { SENSEACT_MODEL_TIMEOUT_MS: '100' }), retry: { ...fastRetry, maxAttempts: 1 } });
    const error = await model.generate({ role: 'planner', messages: [{ role: 'user', content: 'x' }] }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ failure: 'timeout', attempts: 1 });
  });

  it('a slow reply within the timeout succeeds', async () => {
    const mock = await mocks.start(() => ({ text: 'worth the wait', delayMs: 50 }));
    const model = new OpenAiLanguageModel({ config: config(mock.url), timeoutMs: 10_000, retry: fastRetry });
    expect((await model.generate({ role: 'planner', messages: [{ role: 'user', content: 'x' }] })).text).toBe('worth the wait');
  });

  it('aborts a pending call at once and does not retry it', async () => {
    const mock = await mocks.start(() => ({ text: 'never', delayMs: 10_000 }));
    const model = new OpenAiLanguageModel({ config: config(mock.url), retry: fastRetry });
    const controller = new AbortController();
    const pending = model.generate({ role: 'planner', messages: [{ role: 'user', content: 'x' }], signal: controller.signal }).catch((caught: unknown) => caught);
    while (mock.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort();
    const error = await pending;
    expect(error).toMatchObject({ failure: 'aborted', attempts: 1 });
    expect(mock.requests).toHaveLength(1);
  });

  it('reports connection failures as infrastructure errors', async () => {
    const mock = await mocks.start(() => 'unused');
    const url = mock.url;
    await mock.close();
    const model = new OpenAiLanguageModel({ config: config(url), retry: { ...fastRetry, maxAttempts: 2 } });
    const error = await model.generate({ role: 'planner', messages: [{ role: 'user', content: 'x' }] }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ failure: 'connection', attempts: 2 });
    expect((error as Error).message).toMatch(/SENSEACT_BASE_URL/);
  });

  it('estimates usage when the server sends none, and says so', async () => {
    const mock = await mocks.start(() => ({ text: 'four token reply here', omitUsage: true }));
    const model = new OpenAiLanguageModel({ config: config(mock.url), retry: fastRetry });
    const reply = await model.generate({ role: 'planner', messages: [{ role: 'user', content: 'count me' }] });
    expect(reply.usage.estimated).toBe(true);
    expect(reply.usage.completionTokens).toBeGreaterThan(0);
    expect(reply.usage.promptTokens).toBeGreaterThan(0);
  });

  it('asks for JSON mode only when enabled', async () => {
    const mock = await mocks.start(() => '{}');
    const plain = new OpenAiLanguageModel({ config: config(mock.url), retry: fastRetry });
    const jsonMode = new OpenAiLanguageModel({ config: config(mock.url), retry: fastRetry, jsonMode: true });
    await plain.generate({ role: 'planner', messages: [{ role: 'user', content: 'x' }], json: true });
    await jsonMode.generate({ role: 'planner', messages: [{ role: 'user', content: 'x' }], json: true });
    expect(mock.requests[0]?.body).not.toHaveProperty('response_format');
    expect(mock.requests[1]?.body).toMatchObject({ response_format: { type: 'json_object' } });
  });

  it('adapts to models that refuse max_tokens and non-default temperatures, once per model', async () => {
    const mock = await mocks.start((request) => {
      const body = request.body as Record<string, unknown>;
      if ('max_tokens' in body) {
        return { status: 400, body: { error: { message: "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.", type: 'invalid_request_error', param: 'max_tokens', code: 'unsupported_parameter' } } };
      }
      if ('temperature' in body) {
        return { status: 400, body: { error: { message: "Unsupported value: 'temperature' does not support 0 with this model. Only the default (1) value is supported.", type: 'invalid_request_error', param: 'temperature', code: 'unsupported_value' } } };
      }
      return 'adapted';
    });
    const model = new OpenAiLanguageModel({ config: config(mock.url), retry: { ...fastRetry, maxAttempts: 1 } });
    const request = { role: 'planner' as const, messages: [{ role: 'user' as const, content: 'x' }], temperature: 0, maxTokens: 20 };
    expect((await model.generate(request)).text).toBe('adapted');
    expect(mock.requests).toHaveLength(3);
    expect(mock.requests[2]?.body).toMatchObject({ max_completion_tokens: 20 });
    expect(mock.requests[2]?.body).not.toHaveProperty('temperature');
    expect((await model.generate(request)).text).toBe('adapted');
    expect(mock.requests).toHaveLength(4);
  });

  it('other 400s are not retried or adapted', async () => {
    const mock = await mocks.start(() => ({ status: 400, body: { error: { message: 'messages: too long', type: 'invalid_request_error' } } }));
    const model = new OpenAiLanguageModel({ config: config(mock.url), retry: fastRetry });
    const error = await model.generate({ role: 'planner', messages: [{ role: 'user', content: 'x' }], maxTokens: 5, temperature: 0 }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ failure: 'client-error', status: 400, attempts: 1 });
    expect(mock.requests).toHaveLength(1);
  });

  it('works without a key against a loopback server', async () => {
    const mock = await mocks.start(() => 'local');
    const model = new OpenAiLanguageModel({ config: modelConfigFromEnv({ SENSEACT_BASE_URL: mock.url }), retry: fastRetry });
    expect((await model.generate({ role: 'planner', messages: [{ role: 'user', content: 'x' }] })).text).toBe('local');
  });
});

describe('OpenAiVisionModel against the mock server', () => {
  it('sends images as base64 data URLs and the ledger counts them with their bytes', async () => {
    const mock = await mocks.start(() => ({ text: '{"action": "tap", "target": "region-2"}', usage: { promptTokens: 1200, completionTokens: 9 } }));
    const ledger = new UsageLedger();
    const model = new MeteredVisionModel(new OpenAiVisionModel({ config: config(mock.url), retry: fastRetry }), { ledger });
    const first = new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10, 1, 2, 3]);
    const second = new Uint8Array(2048).map((_, index) => index % 251);
    const result = await generateStructured(model, {
      role: 'vision',
      schema: answerSchema,
      messages: [{ role: 'user', content: 'Which region is the Save button?', images: [{ png: first, detail: 'high' }, { png: second }] }],
    });
    expect(result.value.target).toBe('region-2');
    const received = mock.requests[0];
    expect(received?.model).toBe('vision-model');
    expect(received?.images.map((image) => Buffer.from(image).equals(Buffer.from(image.byteLength === first.byteLength ? first : second)))).toEqual([true, true]);
    const parts = (received?.body as { messages: { content: unknown }[] }).messages[1]?.content as { type: string; image_url?: { url: string; detail?: string } }[];
    expect(parts.map((part) => part.type)).toEqual(['text', 'image_url', 'image_url']);
    expect(parts[1]?.image_url?.url.startsWith('data:image/png;base64,')).toBe(true);
    expect(parts[1]?.image_url?.detail).toBe('high');
    expect(parts[2]?.image_url).not.toHaveProperty('detail');
    expect(ledger.totals()).toMatchObject({ calls: 1, images: 2, imageBytes: first.byteLength + 2048, promptTokens: 1200, completionTokens: 9 });
    expect(ledger.byRole().vision?.images).toBe(2);
    // Neither image has a readable size: both count at the most high detail costs (auto = high).
    expect(ledger.totals().imageTokens).toBe(2 * 1445);
  });

  it("the mock's own usage counts each image at its real size and requested detail", async () => {
    const mock = await mocks.start(() => ({ text: 'ok' }));
    const model = new OpenAiVisionModel({ config: config(mock.url), retry: fastRetry });
    const phone = new Uint8Array(PNG.sync.write(new PNG({ width: 1080, height: 2400 })));
    const ask = (detail: 'low' | 'high' | undefined) =>
      model.generate({ role: 'vision', messages: [{ role: 'user', content: 'look', images: [detail === undefined ? { png: phone } : { png: phone, detail }] }] });
    const text = await model.generate({ role: 'vision', messages: [{ role: 'user', content: 'look' }] });
    const high = await ask('high');
    const low = await ask('low');
    const unset = await ask(undefined);
    expect(mock.requests.map((request) => request.imageDetails)).toEqual([[], ['high'], ['low'], [undefined]]);
    expect(high.usage.promptTokens - text.usage.promptTokens).toBe(1445);
    expect(low.usage.promptTokens - text.usage.promptTokens).toBe(85);
    expect(unset.usage.promptTokens - text.usage.promptTokens).toBe(1445);
  });
});
