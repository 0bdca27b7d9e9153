// Endpoints that make a model wait or never answer, played by the mock server: a 30 s
// rate-limit window (on a clock the test advances, so nothing really waits 30 s), a dead
// endpoint that accepts and never answers (with a 100 ms timeout), and the retry settings
// from the environment.
import { describe, expect, it } from 'vitest';
import type { MockChatRequest, MockReply } from '../../../src/model/mock-openai-server.js';
import { createConfiguredModels } from '../../../src/model/create-configured-models.js';
import { ModelCallError } from '../../../src/model/model-call-error.js';
import { modelConfigFromEnv } from '../../../src/model/model-config-from-env.js';
import { OpenAiLanguageModel } from '../../../src/model/openai-language-model.js';
import type { RetryClock } from '../../../src/model/openai-chat-client.js';
import { mockEndpointPerTest } from '../../helpers/mock-endpoint.js';

const mocks = mockEndpointPerTest();

/** A clock whose sleeps move time on at once. */
function virtualClock(): RetryClock & { slept: number[] } {
  let now = 0;
  const slept: number[] = [];
  return { slept, now: () => now, sleep: async (ms) => { slept.push(ms); now += ms; } };
}

/** 429 until `windowMs` of the clock's time has passed, with Retry-After in whole seconds (or none). */
function rateLimited(clock: RetryClock, windowMs: number, retryAfter: 'seconds-left' | 'one-second' | 'none'): (request: MockChatRequest) => MockReply {
  return () => {
    const left = windowMs - clock.now();
    if (left <= 0) return 'through';
    const headers: Record<string, string> = retryAfter === 'none' ? {} : { 'retry-after': retryAfter === 'one-second' ? '1' : String(Math.ceil(left / 1000)) };
    return { status: 429, body: { error: { message: 'Rate limit reached for requests', type: 'requests' } }, headers };
  };
}

const ask = { role: 'planner' as const, messages: [{ role: 'user' as const, content: 'x' }] };

describe('a 30 s rate-limit window', () => {
  it.each(['seconds-left', 'one-second', 'none'] as const)('is ridden out with the default settings (Retry-After: %s)', async (retryAfter) => {
    const clock = virtualClock();
    const mock = await mocks.start(rateLimited(clock, 30_000, retryAfter));
    const model = new OpenAiLanguageModel({ config: modelConfigFromEnv({ SENSEACT_BASE_URL: mock.url, SENSEACT_MODEL: 'm' }), clock });
    const reply = await model.generate(ask);
    expect(reply.text).toBe('through');
    expect(reply.attempts).toBe(mock.requests.length);
    expect(clock.now()).toBeGreaterThanOrEqual(30_000);
    expect(clock.now()).toBeLessThan(40_000);
  });

  it('a window longer than the call budget (120 s) fails as rate-limited, and SENSEACT_MODEL_RETRIES=0 gives up at once (negative controls)', async () => {
    const clock = virtualClock();
    const mock = await mocks.start(rateLimited(clock, 600_000, 'seconds-left'));
    const model = new OpenAiLanguageModel({ config: modelConfigFromEnv({ SENSEACT_BASE_URL: mock.url, SENSEACT_MODEL: 'm' }), clock });
    await expect(model.generate(ask)).rejects.toMatchObject({ failure: 'rate-limited', status: 429 });
    expect(clock.now()).toBeLessThanOrEqual(120_000);
    const none = virtualClock();
    const again = await mocks.start(rateLimited(none, 30_000, 'seconds-left'));
    const strict = new OpenAiLanguageModel({ config: modelConfigFromEnv({ SENSEACT_BASE_URL: again.url, SENSEACT_MODEL: 'm', SENSEACT_MODEL_RETRIES: '0' }), clock: none });
    await expect(strict.generate(ask)).rejects.toMatchObject({ failure: 'rate-limited', attempts: 1 });
    expect(again.requests).toHaveLength(1);
  });

  it('SENSEACT_MODEL_RETRY_MAX_WAIT_MS caps each wait a server asks for', async () => {
    const clock = virtualClock();
    const mock = await mocks.start(rateLimited(clock, 30_000, 'seconds-left'));
    const model = new OpenAiLanguageModel({ config: modelConfigFromEnv({ SENSEACT_BASE_URL: mock.url, SENSEACT_MODEL: 'm', SENSEACT_MODEL_RETRY_MAX_WAIT_MS: '5000' }), clock });
    expect((await model.generate(ask)).text).toBe('through');
    expect(Math.max(...clock.slept)).toBe(5_000);
    expect(mock.requests).toHaveLength(7);
  });
});

describe('retry settings from the environment', () => {
  it('reads SENSEACT_MODEL_RETRIES and SENSEACT_MODEL_RETRY_MAX_WAIT_MS, options winning, and names a bad value', () => {
    expect(modelConfigFromEnv({ SENSEACT_MODEL_RETRIES: '2', SENSEACT_MODEL_RETRY_MAX_WAIT_MS: '90000' }).retry).toEqual({ maxAttempts: 3, maxRetryAfterMs: 90_000 });
    expect(modelConfigFromEnv({ SENSEACT_MODEL_RETRIES: '2' }, { retry: { maxAttempts: 7 } }).retry).toEqual({ maxAttempts: 7 });
    expect(modelConfigFromEnv({}).retry).toBeUndefined();
    expect(modelConfigFromEnv({ SENSEACT_MODEL_RETRIES: 'many' }).problems.join('\n')).toMatch(/SENSEACT_MODEL_RETRIES must be a whole number of retries ≥ 0 \(0: none\), got "many"/);
    expect(modelConfigFromEnv({ SENSEACT_MODEL_RETRY_MAX_WAIT_MS: '-1' }).problems.join('\n')).toMatch(/SENSEACT_MODEL_RETRY_MAX_WAIT_MS must be a number of milliseconds ≥ 0/);
  });
});

describe('a dead endpoint (accepts, never answers)', () => {
  it('opens the breaker after two unanswered requests: the next call, text or vision, fails at once without a request', async () => {
    const mock = await mocks.start(() => ({ text: 'never', delayMs: 60_000 }));
    const config = modelConfigFromEnv({ SENSEACT_BASE_URL: mock.url, SENSEACT_MODEL: 'm' });
    const models = createConfiguredModels({ config, timeoutMs: 100, retry: { initialDelayMs: 1 } });
    await expect(models.language.generate(ask)).rejects.toMatchObject({ failure: 'timeout', attempts: 2 });
    const seen = mock.requests.length;
    const started = performance.now();
    const error = await models.vision.generate({ role: 'vision', messages: [{ role: 'user', content: 'x', images: [] }] }).catch((caught: unknown) => caught);
    expect(ModelCallError.isInstance(error) && error.failure).toBe('endpoint-down');
    expect((error as Error).message).toMatch(/not sent: the endpoint is down \(2 requests in a row got no answer \(last: the request timed out\)/);
    expect(performance.now() - started).toBeLessThan(50);
    expect(mock.requests.length).toBe(seen);
  });

  it('one stall then an answer closes it again: the next calls go through (negative control)', async () => {
    let stalls = 1;
    const mock = await mocks.start(() => (stalls-- > 0 ? { text: 'late', delayMs: 60_000 } : 'on time'));
    const models = createConfiguredModels({ config: modelConfigFromEnv({ SENSEACT_BASE_URL: mock.url, SENSEACT_MODEL: 'm' }), timeoutMs: 200, retry: { initialDelayMs: 1 } });
    expect((await models.language.generate(ask)).text).toBe('on time');
    stalls = 1;
    expect((await models.language.generate(ask)).text).toBe('on time');
    expect((await models.language.generate(ask)).text).toBe('on time');
  });
});
