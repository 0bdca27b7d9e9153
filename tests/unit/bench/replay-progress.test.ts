import { describe, expect, it } from 'vitest';
import { replayProgressLines } from '../../../src/bench/replay-progress.js';

/** A progress whose clock the test moves, and the lines it wrote. */
function clocked(): { progress: ReturnType<typeof replayProgressLines>; lines: string[]; at: (ms: number) => void } {
  let time = 1_000_000;
  const lines: string[] = [];
  const progress = replayProgressLines((line) => lines.push(line), 'corpus', () => time);
  return { progress, lines, at: (ms) => { time = 1_000_000 + ms; } };
}

describe('replayProgressLines', () => {
  it('says nothing for a replay that ends within five seconds, even at the end', () => {
    const { progress, lines, at } = clocked();
    at(1_000);
    progress.loading();
    at(3_000);
    progress.replayed(500, 1_000);
    at(4_900);
    progress.replayed(1_000, 1_000);
    expect(lines).toEqual([]);
  });

  it('after five seconds, one line at most every five seconds: still loading, then the steps replayed, then the end', () => {
    const { progress, lines, at } = clocked();
    at(5_000);
    progress.loading();
    at(7_000);
    progress.loading();
    at(10_000);
    progress.loading();
    at(12_000);
    progress.replayed(4_210, 12_023);
    at(15_500);
    progress.replayed(6_647, 12_023);
    at(16_000);
    progress.replayed(12_023, 12_023);
    expect(lines).toEqual([
      'verify-replay: corpus: still loading (5 s)\n',
      'verify-replay: corpus: still loading (10 s)\n',
      'verify-replay: corpus: 6,647 of 12,023 steps replayed (55%, 16 s)\n',
      'verify-replay: corpus: 12,023 steps replayed in 16 s\n',
    ]);
  });
});
