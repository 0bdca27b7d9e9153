import { describe, expect, it } from 'vitest';
import { backoffDelayMs, classifyAppiumError, errorCode, withRetry, type RetryPolicy } from '../../../src/device/retry-policy.js';
import { networkError, webdriverError } from './fake-appium-client.js';

describe('classifyAppiumError', () => {
  const table: Array<[string, unknown, string]> = [
    ['refused (code)', networkError('ECONNREFUSED'), 'connection-refused'],
    ['refused (cause)', Object.assign(new Error('fetch failed'), { cause: { code: 'ECONNREFUSED' } }), 'connection-refused'],
    ['refused at session creation (WebdriverIO words)', new Error('Unable to connect to "http://127.0.0.1:4723/", make sure browser driver is running on that address.'), 'connection-refused'],
    ['reset', networkError('ECONNRESET'), 'connection-reset'],
    ['socket closed (undici)', networkError('UND_ERR_SOCKET'), 'connection-reset'],
    ['timeout (code)', networkError('ETIMEDOUT'), 'timeout'],
    ['timeout (name)', webdriverError('TimeoutError', 'The operation was aborted due to timeout'), 'timeout'],
    ['server error', webdriverError('unknown error', 'An unknown server-side error occurred'), 'server-error'],
    ['5xx status', Object.assign(new Error('Bad gateway'), { statusCode: 502 }), 'server-error'],
    ['invalid session id', webdriverError('invalid session id'), 'session-lost'],
    ['terminated session in words', new Error('A session is either terminated or not started'), 'session-lost'],
    ['session not created', webdriverError('session not created', 'Could not find a driver'), 'session-not-created'],
    ['driver missing (Appium says unknown error)', webdriverError('unknown error', "Could not find a driver for automationName 'UiAutomator2' and platformName 'Android'."), 'session-not-created'],
    // Selenium Grid 4.48 after a relay node was killed (messages as the hub sent them in tests/integration/bench/bench-grid.test.ts).
    ['grid node gone at session creation (connection error)', webdriverError('session not created', 'WebDriverError: Could not start a new session. Connection error (POST http://127.0.0.1:38197/se/grid/node/session) \nHost info: host: \'vm\', ip: \'127.0.0.1\''), 'node-unreachable'],
    ['grid node gone at session creation (request failed)', webdriverError('session not created', 'WebDriverError: Could not start a new session. Failed to execute request (POST http://127.0.0.1:34125/se/grid/node/session)'), 'node-unreachable'],
    ['grid: no node offers the capabilities', webdriverError('WebDriverError', 'WebDriverError: Could not start a new session. No nodes support the capabilities in the request \nHost info: host: \'vm\''), 'session-not-created'],
    ['grid node gone under a running session', webdriverError('unknown error', 'WebDriverError: Unable to execute request for an existing session: Connection error (GET http://127.0.0.1:44671/session/b585a0f0/source) when running "source" with method "GET"'), 'session-lost'],
    ['no such element', webdriverError('no such element'), 'other'],
    ['invalid argument', webdriverError('invalid argument'), 'other'],
    ['a string', 'boom', 'other'],
  ];
  it.each(table)('%s', (_label, error, expected) => {
    expect(classifyAppiumError(error)).toBe(expected);
  });

  it('finds system error codes in nested causes and messages', () => {
    expect(errorCode({ cause: { cause: { code: 'EPIPE' } } })).toBe('EPIPE');
    expect(errorCode(new Error('connect ECONNREFUSED 127.0.0.1:4723'))).toBe('ECONNREFUSED');
    expect(errorCode(new Error('nothing to see'))).toBeUndefined();
  });
});

describe('withRetry', () => {
  const policy: RetryPolicy = { maxAttempts: 5, baseDelayMs: 100, maxDelayMs: 1_000, budgetMs: 10_000 };

  function fakeClock(): { now: () => number; sleep: (ms: number) => Promise<void>; slept: number[] } {
    let time = 0;
    const slept: number[] = [];
    return {
      now: () => time,
      sleep: async (ms) => {
        slept.push(ms);
        time += ms;
      },
      slept,
    };
  }

  it('backs off exponentially up to the cap', () => {
    expect([0, 1, 2, 3, 4, 5].map((index) => backoffDelayMs(policy, index))).toEqual([100, 200, 400, 800, 1_000, 1_000]);
  });

  it('retries retryable failures until success', async () => {
    const clock = fakeClock();
    let calls = 0;
    const value = await withRetry(
      async (attempt) => {
        calls++;
        if (attempt < 3) throw networkError('ECONNREFUSED');
        return 'ok';
      },
      { policy, shouldRetry: () => true, ...clock },
    );
    expect(value).toBe('ok');
    expect(calls).toBe(3);
    expect(clock.slept).toEqual([100, 200]);
  });

  it('rethrows a failure that is not retryable at once', async () => {
    const clock = fakeClock();
    const failure = webdriverError('no such element');
    await expect(withRetry(async () => Promise.reject(failure), { policy, shouldRetry: () => false, ...clock })).rejects.toBe(failure);
    expect(clock.slept).toEqual([]);
  });

  it('stops after maxAttempts', async () => {
    const clock = fakeClock();
    let calls = 0;
    await expect(withRetry(async () => { calls++; throw new Error('down'); }, { policy: { ...policy, maxAttempts: 3 }, shouldRetry: () => true, ...clock })).rejects.toThrow('down');
    expect(calls).toBe(3);
  });

  it('starts no retry past the budget', async () => {
    const clock = fakeClock();
    let calls = 0;
    await expect(withRetry(async () => { calls++; throw new Error('down'); }, { policy: { ...policy, maxAttempts: 20, budgetMs: 700 }, shouldRetry: () => true, ...clock })).rejects.toThrow('down');
    // Waits of 100, 200 and 400 ms reach the 700 ms budget exactly; a fourth (800 ms) would pass it.
    expect(clock.slept).toEqual([100, 200, 400]);
    expect(calls).toBe(4);
  });

  it('stops when the signal is aborted and throws its reason', async () => {
    const controller = new AbortController();
    const reason = new Error('stop');
    let calls = 0;
    const pending = withRetry(
      async () => {
        calls++;
        controller.abort(reason);
        throw new Error('down');
      },
      { policy, shouldRetry: () => true, signal: controller.signal },
    );
    await expect(pending).rejects.toBe(reason);
    expect(calls).toBe(1);
  });
});
