/**
 * How our own retries of a model call behave (the SDK's retries are off). A 429 is the
 * endpoint asking to wait, not failing: it is retried within `budgetMs` whatever
 * `maxAttempts` says (as long as retries are on at all), honouring its Retry-After up to
 * `maxRetryAfterMs`; so a 30 s rate-limit window is ridden out by default.
 */
export interface RetryPolicy {
  /** Calls in total, the first included, for failures other than 429 (`SENSEACT_MODEL_RETRIES` + 1). Default 4; 1 turns every retry off, 429 included. */
  readonly maxAttempts: number;
  /** Delay before the first retry, in milliseconds; doubles per retry. Default 500. */
  readonly initialDelayMs: number;
  /** Upper bound of one backoff delay when the server names none, in milliseconds. Default 8000. */
  readonly maxDelayMs: number;
  /** Upper bound of one wait a server asks for with Retry-After (`SENSEACT_MODEL_RETRY_MAX_WAIT_MS`), in milliseconds. Default 60000. */
  readonly maxRetryAfterMs: number;
  /** Wall-time budget of the whole call including retries, in milliseconds. Default 120000. */
  readonly budgetMs: number;
  /** Retries after a 429 at most (`models --check` allows 1). Default: as many as `budgetMs` allows. */
  readonly maxRateLimitRetries?: number;
}

export const defaultRetryPolicy: RetryPolicy = { maxAttempts: 4, initialDelayMs: 500, maxDelayMs: 8_000, maxRetryAfterMs: 60_000, budgetMs: 120_000 };

/**
 * Delay before retry number `retry` (1 for the first retry): the server's Retry-After
 * when given (capped at `maxRetryAfterMs`), else exponential backoff with up to 20%
 * jitter, capped at `maxDelayMs`.
 */
export function retryDelayMs(policy: RetryPolicy, retry: number, retryAfterMs: number | undefined, random: () => number = Math.random): number {
  if (retryAfterMs !== undefined && Number.isFinite(retryAfterMs) && retryAfterMs >= 0) return Math.min(retryAfterMs, policy.maxRetryAfterMs);
  const base = policy.initialDelayMs * 2 ** (retry - 1);
  return Math.min(policy.maxDelayMs, base * (1 + 0.2 * random()));
}

/** Parses `retry-after-ms` / `retry-after` (seconds or an HTTP date) into milliseconds. */
export function parseRetryAfter(headers: { get(name: string): string | null } | undefined, now: number = Date.now()): number | undefined {
  if (headers === undefined) return undefined;
  const milliseconds = headers.get('retry-after-ms');
  if (milliseconds !== null && milliseconds.trim() !== '' && Number.isFinite(Number(milliseconds))) return Number(milliseconds);
  const value = headers.get('retry-after');
  if (value === null || value.trim() === '') return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Waits `ms` milliseconds; rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted === true) {
      reject(signal.reason as Error);
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason as Error);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
