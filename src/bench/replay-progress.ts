/** How long a replay runs before it says anything, and how often it speaks after that. */
const quietMs = 5_000;
const everyMs = 5_000;

/** Progress of `verify-replay` on one source: still loading, steps replayed, done. */
export interface ReplayProgress {
  /** The source is still being read (call it on a timer while loading). */
  loading(): void;
  /** After each task: the steps replayed so far of the source's steps in all. */
  replayed(done: number, total: number): void;
}

/**
 * Progress lines for a long replay, written through `write` (the CLI's stderr): nothing
 * while the work is short (the first five seconds, so a small corpus prints nothing), then
 * at most one line every five seconds — still loading, or how many steps were replayed —
 * and, when anything was said, one line at the end with the time it took. Pure apart from
 * `write`; `now` is the clock.
 */
export function replayProgressLines(write: (line: string) => void, source: string, now: () => number = Date.now): ReplayProgress {
  const started = now();
  let lastLine: number | undefined;
  const due = (): boolean => {
    const time = now();
    if (time - started < quietMs || (lastLine !== undefined && time - lastLine < everyMs)) return false;
    lastLine = time;
    return true;
  };
  const seconds = (): number => Math.round((now() - started) / 1000);
  return {
    loading: () => {
      if (due()) write(`verify-replay: ${source}: still loading (${seconds()} s)\n`);
    },
    replayed: (done, total) => {
      const finished = done === total;
      if (finished && lastLine !== undefined) write(`verify-replay: ${source}: ${total.toLocaleString('en-US')} steps replayed in ${seconds()} s\n`);
      else if (!finished && due()) write(`verify-replay: ${source}: ${done.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} steps replayed (${Math.floor((100 * done) / total)}%, ${seconds()} s)\n`);
    },
  };
}
