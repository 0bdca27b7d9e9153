import type { BenchResults } from './bench-results.js';
import { writeFileAtomic } from './write-file-atomic.js';

/**
 * Rewrites results.json atomically in the background: `schedule` never waits, and
 * requests that arrive during a write, or within `intervalMs` after it, coalesce into one
 * more write. The journal, not this file, is what makes a finished run durable, so runs
 * need not wait for it, and a rewrite after every run would cost O(runs²) (each rewrite
 * serializes every result and recomputes the metrics: about 2 s of CPU per 200 runs on
 * the main thread while worker threads run the tasks). `flush` writes at once, waits for
 * the last write and rethrows a failed one.
 */
export class ResultsFileWriter {
  private writing: Promise<void> | undefined;
  private again = false;
  private urgent = false;
  private failure: unknown;
  /** Ends the pause between two writes early (set while one is pausing). */
  private wake: (() => void) | undefined;
  /** The snapshot most recently written to disk. */
  lastWritten: BenchResults | undefined;

  private readonly intervalMs: number;
  private readonly write: (file: string, text: string) => Promise<void>;

  /** `intervalMs`: the least time between two writes (default 1 s); `write`: how a file is replaced (default {@link writeFileAtomic}). */
  constructor(private readonly file: string, private readonly snapshot: () => BenchResults, options: { readonly intervalMs?: number; readonly write?: (file: string, text: string) => Promise<void> } = {}) {
    this.intervalMs = options.intervalMs ?? 1_000;
    this.write = options.write ?? writeFileAtomic;
  }

  schedule(): void {
    if (this.writing !== undefined) {
      this.again = true;
      return;
    }
    this.writing = this.loop()
      .catch((error: unknown) => {
        this.failure ??= error;
      })
      .finally(() => {
        this.writing = undefined;
      });
  }

  async flush(): Promise<void> {
    this.urgent = true;
    try {
      // A write in progress or pausing gets one more, at once, with the latest results.
      this.schedule();
      this.wake?.();
      while (this.writing !== undefined) await this.writing;
    } finally {
      this.urgent = false;
    }
    if (this.failure !== undefined) throw this.failure;
  }

  private async loop(): Promise<void> {
    do {
      this.again = false;
      const results = this.snapshot();
      await this.write(this.file, `${JSON.stringify(results, null, 2)}\n`);
      this.lastWritten = results;
      // The pause follows every write, not only one that found a request waiting: a request
      // just after a write must wait its interval too, or a slow write paces nothing.
      if (!this.urgent) await this.pause();
    } while (this.again);
  }

  private pause(): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.wake = undefined;
        resolve();
      };
      const timer = setTimeout(done, this.intervalMs);
      this.wake = done;
    });
  }
}
