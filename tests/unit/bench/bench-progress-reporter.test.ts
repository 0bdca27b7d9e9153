import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createBarProgressReporter, createLineProgressReporter } from '../../../src/bench/bench-progress-reporter.js';
import type { BenchProgress } from '../../../src/bench/run-benchmark.js';

const progress = (done: number, extra: Partial<BenchProgress> = {}): BenchProgress => ({ total: 4, done, resumed: 0, successes: done, errors: 0, running: 1, ...extra });

describe('line progress reporter', () => {
  it('prints the start, then at most one line per interval, and always the last run', () => {
    let now = 0;
    const lines: string[] = [];
    const reporter = createLineProgressReporter((text) => lines.push(text), { intervalMs: 1000, now: () => now });
    reporter.onProgress(progress(2, { resumed: 2 }));
    now = 500;
    reporter.onProgress(progress(3, { last: { id: 'a', mode: 'senseact', repeat: 0, success: false, error: null } }));
    now = 1600;
    reporter.onProgress(progress(3, { last: { id: 'b', mode: 'react-vlm', repeat: 1, success: false, error: 'device lost' } }));
    now = 1700;
    reporter.onProgress(progress(4, { running: 0, last: { id: 'c', mode: 'senseact', repeat: 0, success: true, error: null } }));
    reporter.stop();
    expect(lines).toEqual([
      'bench: 2/4 runs, 2 ok, 0 errors, 1 running (resumed: 2 runs already done)\n',
      'bench: 3/4 runs, 3 ok, 0 errors, 1 running; last: b react-vlm r1 ERROR\n',
      'bench: 4/4 runs, 4 ok, 0 errors, 0 running; last: c senseact r0 ok\n',
    ]);
  });
});

describe('bar progress reporter', () => {
  it('draws on the stream it is given and stops cleanly', () => {
    // Stands in for a terminal: the CLI hands this reporter stderr only when it is a TTY.
    const stream = Object.assign(new PassThrough(), { isTTY: true, columns: 160 });
    let written = '';
    stream.on('data', (chunk: Buffer) => { written += chunk.toString(); });
    const reporter = createBarProgressReporter(stream);
    reporter.onProgress(progress(0));
    reporter.onProgress(progress(4, { running: 0 }));
    reporter.stop();
    expect(written).toContain('4/4 runs | ok 4 | errors 0');
  });
});
