import { mkdtempSync, readFileSync, rmSync, truncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { readTrace } from '../../../src/trace/read-trace.js';
import { TraceWriter } from '../../../src/trace/trace-writer.js';

const root = mkdtempSync(join(tmpdir(), 'senseact-torn-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('readTrace after a crash at any byte', () => {
  it('keeps every complete event and flags only a cut last line', () => {
    let run = 0;
    fc.assert(
      fc.property(
        fc.array(fc.record({ intent: fc.string({ unit: 'grapheme', maxLength: 30 }), latencyMs: fc.nat(10_000) }), { minLength: 1, maxLength: 8 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (plans, cutFraction) => {
          const writer = new TraceWriter({ root, suite: 'prop', task: 'torn', runId: `r${run++}` });
          for (const [index, plan] of plans.entries()) writer.emit({ type: 'plan-end', step: index, latencyMs: plan.latencyMs, intent: plan.intent });
          writer.close();
          const path = join(writer.dir, 'trace.jsonl');
          const bytes = readFileSync(path);
          const lastLineStart = bytes.lastIndexOf(0x0a, bytes.length - 2) + 1;
          // Cut anywhere from the start of the last line to just before its newline.
          const cut = lastLineStart + Math.floor(cutFraction * (bytes.length - 1 - lastLineStart));
          truncateSync(path, cut);
          const read = readTrace(writer.dir);
          expect(read.events.map((event) => (event.type === 'plan-end' ? event.intent : ''))).toEqual(plans.slice(0, -1).map((plan) => plan.intent));
          const cutMidLine = cut > lastLineStart;
          expect(read.tornLastLine).toBe(cutMidLine);
          expect(read.problems.map((problem) => problem.kind)).toEqual(cutMidLine ? ['torn-last-line'] : []);
        },
      ),
      { numRuns: 60 },
    );
  });
});
