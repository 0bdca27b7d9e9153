import { describe, expect, it, vi } from 'vitest';
import type { BenchResults } from '../../../src/bench/bench-results.js';
import { ResultsFileWriter } from '../../../src/bench/results-file-writer.js';

/** A results file that records every write (each takes `ms`), and a snapshot that counts finished runs. */
function recording(ms = 2): { writes: string[]; write: (file: string, text: string) => Promise<void>; done: { runs: number }; snapshot: () => BenchResults } {
  const writes: string[] = [];
  const done = { runs: 0 };
  return {
    writes,
    done,
    write: async (_file, text) => {
      await new Promise((resolve) => setTimeout(resolve, ms));
      writes.push(text);
    },
    // The writer only serializes the snapshot; a stand-in with the one field the test reads.
    snapshot: () => ({ runs: done.runs }) as unknown as BenchResults,
  };
}

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('ResultsFileWriter', () => {
  it('coalesces the rewrites of runs that finish within the interval, and flush writes the latest at once', async () => {
    const file = recording();
    const writer = new ResultsFileWriter('results.json', file.snapshot, { intervalMs: 10_000, write: file.write });
    for (let run = 1; run <= 50; run++) {
      file.done.runs = run;
      writer.schedule();
      await pause(1);
    }
    // The first run's rewrite went out at once; the other 49 wait for the interval.
    expect(file.writes.map((text) => JSON.parse(text).runs)).toEqual([1]);
    const started = performance.now();
    await writer.flush();
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(file.writes.map((text) => JSON.parse(text).runs)).toEqual([1, 50]);
    expect(writer.lastWritten).toEqual({ runs: 50 });
  });

  it('without an interval rewrites after nearly every run (the cost the interval saves)', async () => {
    const file = recording();
    const writer = new ResultsFileWriter('results.json', file.snapshot, { intervalMs: 0, write: file.write });
    for (let run = 1; run <= 20; run++) {
      file.done.runs = run;
      writer.schedule();
      // Each run finishes after the previous rewrite landed, however slow the machine is.
      await vi.waitFor(() => expect(file.writes.length).toBeGreaterThanOrEqual(run));
    }
    await writer.flush();
    expect(file.writes.length).toBeGreaterThanOrEqual(20);
    expect(JSON.parse(file.writes.at(-1) ?? '{}').runs).toBe(20);
  });

  it('writes once for one request (no write is owed after the pause); flush writes once more', async () => {
    const file = recording();
    const writer = new ResultsFileWriter('results.json', file.snapshot, { intervalMs: 20, write: file.write });
    file.done.runs = 1;
    writer.schedule();
    await pause(60);
    expect(file.writes).toHaveLength(1);
    await writer.flush();
    expect(file.writes.map((text) => JSON.parse(text).runs)).toEqual([1, 1]);
  });

  it('rethrows a failed write from flush', async () => {
    const writer = new ResultsFileWriter('results.json', () => ({}) as BenchResults, { write: async () => { throw new Error('disk full'); } });
    writer.schedule();
    await expect(writer.flush()).rejects.toThrow('disk full');
  });
});
