import cliProgress from 'cli-progress';
import type { BenchProgress } from './run-benchmark.js';

/** Receives progress and, once the benchmark is over, is stopped. */
export interface BenchProgressReporter {
  readonly onProgress: (progress: BenchProgress) => void;
  stop(): void;
}

/**
 * Where the bar draws: a terminal's output stream (`process.stderr` is one). Named by the
 * members the bar uses, so that the published types need no Node type definitions.
 */
export interface ProgressBarStream {
  write(text: string, callback?: (error?: Error | null) => void): unknown;
  readonly isTTY?: boolean;
  /** Width of the terminal in characters. */
  readonly columns?: number;
}

/**
 * A progress bar (cli-progress) on `stream`, for interactive terminals. The caller
 * (the CLI) decides that `stream` is a TTY; nothing here touches process streams.
 */
export function createBarProgressReporter(stream: ProgressBarStream): BenchProgressReporter {
  const bar = new cliProgress.SingleBar(
    // cli-progress types its stream as a whole Node stream; it only writes to it and reads isTTY and columns.
    { stream: stream as NodeJS.WritableStream, format: 'bench [{bar}] {value}/{total} runs | ok {successes} | errors {errors} | running {running} | ETA {eta_formatted}', hideCursor: true, clearOnComplete: false, fps: 5 },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  return {
    onProgress: (progress) => {
      const payload = { successes: progress.successes, errors: progress.errors, running: progress.running };
      if (!started) {
        bar.start(progress.total, progress.done, payload);
        started = true;
      } else {
        bar.update(progress.done, payload);
      }
    },
    stop: () => {
      if (started) bar.stop();
    },
  };
}

/**
 * Plain progress lines for logs and CI: one line at the start, then at most one every
 * `intervalMs` (always one when the last run finishes), each saying how far the
 * benchmark is and which run finished last.
 */
export function createLineProgressReporter(write: (text: string) => void, options: { intervalMs?: number; now?: () => number } = {}): BenchProgressReporter {
  const intervalMs = options.intervalMs ?? 10_000;
  const now = options.now ?? Date.now;
  let lastLineAt: number | undefined;
  return {
    onProgress: (progress) => {
      const time = now();
      const finished = progress.done === progress.total;
      if (lastLineAt !== undefined && !finished && time - lastLineAt < intervalMs) return;
      lastLineAt = time;
      const last = progress.last === undefined
        ? progress.resumed > 0 ? ` (resumed: ${progress.resumed} runs already done)` : ''
        : `; last: ${progress.last.id} ${progress.last.mode} r${progress.last.repeat} ${progress.last.error !== null ? 'ERROR' : progress.last.success ? 'ok' : 'failed'}`;
      write(`bench: ${progress.done}/${progress.total} runs, ${progress.successes} ok, ${progress.errors} errors, ${progress.running} running${last}\n`);
    },
    stop: () => undefined,
  };
}
