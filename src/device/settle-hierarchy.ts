import { z } from 'zod';
import { abortableSleep } from './retry-policy.js';

/** When an observation counts as settled: two consecutive hierarchies `intervalMs` apart are equal. */
export const settleOptionsSchema = z.object({
  /** Pause between two pulls. */
  intervalMs: z.number().int().min(0),
  /** Give up waiting after this long and return the last hierarchy (`settled: false`); 0 turns settling off. */
  timeoutMs: z.number().int().min(0),
});
export type SettleOptions = z.infer<typeof settleOptionsSchema>;

export interface SettleResult {
  readonly xml: string;
  readonly polls: number;
  readonly settled: boolean;
}

/**
 * Pulls hierarchies until two consecutive ones are identical or the timeout runs out.
 * With `timeoutMs: 0` it pulls once and reports `settled: true` (nothing was waited
 * for). Rejects with the signal's reason when it fires.
 */
export async function settleHierarchy(
  pull: () => Promise<string>,
  options: SettleOptions & { readonly signal?: AbortSignal | undefined; readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>; readonly now?: () => number },
): Promise<SettleResult> {
  const sleep = options.sleep ?? abortableSleep;
  const now = options.now ?? (() => performance.now());
  const start = now();
  let previous = await pull();
  let polls = 1;
  if (options.timeoutMs === 0) return { xml: previous, polls, settled: true };
  for (;;) {
    options.signal?.throwIfAborted();
    if (now() - start >= options.timeoutMs) return { xml: previous, polls, settled: false };
    if (options.intervalMs > 0) await sleep(options.intervalMs, options.signal);
    const next = await pull();
    polls++;
    if (next === previous) return { xml: next, polls, settled: true };
    previous = next;
  }
}
