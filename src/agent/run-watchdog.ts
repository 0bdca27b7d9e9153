import { RunTimeoutError } from './run-timeout-error.js';

/** A run's wall-clock watchdog: its signal aborts the run's calls when the limit passes; `guard` ends what does not listen. */
export interface RunWatchdog {
  /** Aborts at the limit, or when the caller's signal aborts. */
  readonly signal: AbortSignal | undefined;
  /** Settles like `work`, or rejects with `RunTimeoutError` once the limit passes, whichever comes first. */
  guard<T>(work: Promise<T>): Promise<T>;
  /** True once the limit passed (not when only the caller aborted). */
  fired(): boolean;
  stop(): void;
}

/**
 * Starts the watchdog of one run (docs/models-and-traces.md): after `limitMs` of wall-clock
 * time its signal aborts with a `RunTimeoutError`, so device and model calls stop, and
 * `guard` rejects at once, so a step that does not listen to the signal cannot hold the
 * run. Without a limit it only passes the caller's signal on.
 */
export function startRunWatchdog(limitMs: number | undefined, outer: AbortSignal | undefined): RunWatchdog {
  if (limitMs === undefined) return { signal: outer, guard: async (work) => await work, fired: () => false, stop: () => undefined };
  const controller = new AbortController();
  const error = new RunTimeoutError(limitMs);
  let expire: (() => void) | undefined;
  const expired = new Promise<never>((_, reject) => {
    expire = () => reject(error);
  });
  // Nobody may await `expired` (a run that ends in time): keep its rejection from going unhandled.
  expired.catch(() => undefined);
  const timer = setTimeout(() => {
    controller.abort(error);
    expire?.();
  }, limitMs);
  const onOuterAbort = (): void => controller.abort(outer?.reason);
  if (outer?.aborted === true) controller.abort(outer.reason);
  else outer?.addEventListener('abort', onOuterAbort, { once: true });
  return {
    signal: controller.signal,
    guard: async (work) => await Promise.race([work, expired]),
    fired: () => controller.signal.aborted && controller.signal.reason === error,
    stop: () => {
      clearTimeout(timer);
      outer?.removeEventListener('abort', onOuterAbort);
    },
  };
}
