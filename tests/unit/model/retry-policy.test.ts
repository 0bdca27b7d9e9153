import { describe, expect, it } from 'vitest';
import { defaultRetryPolicy, parseRetryAfter, retryDelayMs, sleep } from '../../../src/model/retry-policy.js';

const headers = (values: Record<string, string>) => ({ get: (name: string) => values[name] ?? null });

describe('retry policy', () => {
  it('backs off exponentially with bounded jitter and a cap', () => {
    expect(retryDelayMs(defaultRetryPolicy, 1, undefined, () => 0)).toBe(500);
    expect(retryDelayMs(defaultRetryPolicy, 2, undefined, () => 0)).toBe(1000);
    expect(retryDelayMs(defaultRetryPolicy, 3, undefined, () => 1)).toBe(2400);
    expect(retryDelayMs(defaultRetryPolicy, 10, undefined, () => 0)).toBe(8000);
  });

  it('follows Retry-After up to maxRetryAfterMs (a minute by default), not the backoff cap', () => {
    expect(retryDelayMs(defaultRetryPolicy, 1, 1500)).toBe(1500);
    expect(retryDelayMs(defaultRetryPolicy, 1, 30_000)).toBe(30_000);
    expect(retryDelayMs(defaultRetryPolicy, 1, 600_000)).toBe(60_000);
    expect(retryDelayMs({ ...defaultRetryPolicy, maxRetryAfterMs: 5_000 }, 1, 30_000)).toBe(5_000);
    expect(retryDelayMs(defaultRetryPolicy, 9, undefined, () => 0)).toBe(8_000);
  });

  it('parses retry-after-ms, seconds and HTTP dates', () => {
    expect(parseRetryAfter(headers({ 'retry-after-ms': '250' }))).toBe(250);
    expect(parseRetryAfter(headers({ 'retry-after': '2' }))).toBe(2000);
    expect(parseRetryAfter(headers({ 'retry-after': 'Thu, 01 Jan 1970 00:00:10 GMT' }), 4000)).toBe(6000);
    expect(parseRetryAfter(headers({ 'retry-after': 'soon' }))).toBeUndefined();
    expect(parseRetryAfter(headers({}))).toBeUndefined();
    expect(parseRetryAfter(undefined)).toBeUndefined();
  });

  it('sleep rejects with the abort reason', async () => {
    const controller = new AbortController();
    const waiting = sleep(60_000, controller.signal);
    controller.abort(new Error('cancelled'));
    await expect(waiting).rejects.toThrow('cancelled');
  });
});
