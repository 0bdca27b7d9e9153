import { z } from 'zod';

/** How a device call is retried: exponential backoff from `baseDelayMs`, capped, within a time budget. */
export const retryPolicySchema = z.object({
  /** Attempts in total, the first included (1 = no retry). */
  maxAttempts: z.number().int().min(1).max(20),
  baseDelayMs: z.number().int().min(0),
  maxDelayMs: z.number().int().min(0),
  /** No retry starts once this much time has passed since the first attempt. */
  budgetMs: z.number().int().min(0),
});
export type RetryPolicy = z.infer<typeof retryPolicySchema>;

export const defaultRetryPolicy: RetryPolicy = { maxAttempts: 4, baseDelayMs: 100, maxDelayMs: 2_000, budgetMs: 15_000 };

/**
 * What kind of failure an Appium/WebdriverIO error is:
 * - `connection-refused`: nothing listens (server down or restarting) — the request never ran;
 * - `connection-reset`: the connection broke mid-request — the command may or may not have run;
 * - `timeout`: no answer in time — the command may or may not have run;
 * - `server-error`: the server answered `unknown error` (HTTP 500) or another 5xx;
 * - `session-lost`: `invalid session id` — the session was deleted, timed out or the server restarted
 *   (or a grid cannot reach the node that holds it);
 * - `session-not-created`: the server refused to create a session;
 * - `node-unreachable`: a Selenium Grid chose a node for a new session and could not reach
 *   it (a device that went away; the hub marks it DOWN at its next health check);
 * - `other`: a command error that retrying cannot fix (no such element, invalid argument, ...).
 */
export type AppiumErrorClass = 'connection-refused' | 'connection-reset' | 'timeout' | 'server-error' | 'session-lost' | 'session-not-created' | 'node-unreachable' | 'other';

const resetCodes = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED', 'ECONNABORTED']);
const refusedCodes = new Set(['ECONNREFUSED', 'ENOTFOUND', 'ENETUNREACH', 'EHOSTUNREACH', 'EAI_AGAIN', 'EADDRNOTAVAIL']);
const timeoutCodes = new Set(['ETIMEDOUT', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

/** Classifies an error thrown by WebdriverIO (request or response error) or by the network stack. */
export function classifyAppiumError(error: unknown): AppiumErrorClass {
  const code = errorCode(error);
  if (code !== undefined) {
    if (refusedCodes.has(code)) return 'connection-refused';
    if (resetCodes.has(code)) return 'connection-reset';
    if (timeoutCodes.has(code)) return 'timeout';
  }
  const name = typeof error === 'object' && error !== null && 'name' in error ? String((error as { name: unknown }).name) : '';
  const message = error instanceof Error ? error.message : String(error);
  // WebdriverIO's session creation reports a refused connection only in words.
  if (/Unable to connect to "|fetch failed|Failed to fetch \[/i.test(message)) return 'connection-refused';
  if (name === 'invalid session id' || /invalid session id|session is either terminated or not started|no such session/i.test(message)) return 'session-lost';
  // Grid 4 words it so when the node it picked does not answer: another try may pick a live one.
  if (/Could not start a new session\. (Connection error|Failed to execute request)/i.test(message)) return 'node-unreachable';
  // ...and so when the node holding our session does not answer: the session is out of reach.
  if (/Unable to execute request for an existing session/i.test(message)) return 'session-lost';
  // Appium answers a missing driver with a 500 `unknown error`; retrying cannot install it.
  if (name === 'session not created' || /session not created|could not find a driver for automationName|Could not start a new session/i.test(message)) return 'session-not-created';
  if (name === 'TimeoutError' || /timed out|timeout/i.test(name)) return 'timeout';
  if (name === 'unknown error' || /\b5\d\d\b.*(internal|server|gateway|unavailable)/i.test(message)) return 'server-error';
  const statusCode = typeof error === 'object' && error !== null && 'statusCode' in error ? Number((error as { statusCode: unknown }).statusCode) : NaN;
  if (statusCode >= 500 && statusCode <= 599) return 'server-error';
  return 'other';
}

/** The system error code of an error or of its causes (`ECONNREFUSED`, `UND_ERR_SOCKET`, ...). */
export function errorCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^(E[A-Z]+|UND_ERR_[A-Z_]+)$/.test(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  const message = error instanceof Error ? error.message : typeof error === 'string' ? error : '';
  return /\b(E(?:CONN[A-Z]+|TIMEDOUT|PIPE|NOTFOUND|NETUNREACH|HOSTUNREACH|AI_AGAIN)|UND_ERR_[A-Z_]+)\b/.exec(message)?.[1];
}

/** Delay before retry number `retryIndex` (0 = the first retry): `base * 2^retryIndex`, at most `maxDelayMs`. */
export function backoffDelayMs(policy: RetryPolicy, retryIndex: number): number {
  return Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retryIndex);
}

export interface RetryOptions {
  readonly policy: RetryPolicy;
  /** Whether this failure of attempt `attempt` (1-based) may be retried. */
  readonly shouldRetry: (error: unknown, attempt: number) => boolean;
  readonly signal?: AbortSignal | undefined;
  /** Waits `ms` or rejects when `signal` fires; tests pass a fake clock. */
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  readonly now?: () => number;
  readonly onRetry?: (info: { readonly error: unknown; readonly attempt: number; readonly delayMs: number }) => void;
}

/**
 * Runs `operation` until it succeeds, a failure is not retryable, the attempts are used
 * up, or the next retry would start past the budget; then rethrows the last error.
 * An aborted signal stops the loop at once (the abort reason is thrown).
 */
export async function withRetry<T>(operation: (attempt: number) => Promise<T>, options: RetryOptions): Promise<T> {
  const sleep = options.sleep ?? abortableSleep;
  const now = options.now ?? Date.now;
  const started = now();
  for (let attempt = 1; ; attempt++) {
    options.signal?.throwIfAborted();
    try {
      return await operation(attempt);
    } catch (error) {
      if (options.signal?.aborted) throw options.signal.reason;
      if (attempt >= options.policy.maxAttempts || !options.shouldRetry(error, attempt)) throw error;
      const delayMs = backoffDelayMs(options.policy, attempt - 1);
      if (now() - started + delayMs > options.policy.budgetMs) throw error;
      options.onRetry?.({ error, attempt, delayMs });
      await sleep(delayMs, options.signal);
    }
  }
}

/** `setTimeout` as a promise that rejects with the signal's reason when it fires first. */
export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
