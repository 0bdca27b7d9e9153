import { mkdtempSync, readFileSync, rmSync, truncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { readTrace } from '../../../src/trace/read-trace.js';
import { TraceWriter } from '../../../src/trace/trace-writer.js';

const root = mkdtempSync(join(tmpdir(), 'senseact-torn-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

let run = 0;

/** Writes one plan-end event per intent and returns the trace file with the start offset of its last line. */
function writeTrace(intents: readonly string[]): { path: string; dir: string; bytes: Buffer; lastLineStart: number } {
  const writer = new TraceWriter({ root, suite: 'prop', task: 'torn', runId: `r${run++}` });
  for (const [index, intent] of intents.entries()) writer.emit({ type: 'plan-end', step: index, latencyMs: index, intent });
  // close() writes the last batch before it first waits; the fsync after it does not matter here.
  void writer.close();
  const path = join(writer.dir, 'trace.jsonl');
  const bytes = readFileSync(path);
  return { path, dir: writer.dir, bytes, lastLineStart: bytes.lastIndexOf(0x0a, bytes.length - 2) + 1 };
}

const intentsOf = (dir: string): string[] => readTrace(dir).events.map((event) => (event.type === 'plan-end' ? event.intent : ''));

describe('readTrace after a crash at any byte', () => {
  it('keeps every complete event and flags a last line cut inside its JSON as torn', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: 'grapheme', maxLength: 30 }), { minLength: 1, maxLength: 8 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (intents, cutFraction) => {
          const { path, dir, bytes, lastLineStart } = writeTrace(intents);
          // Cut anywhere from the start of the last line up to (not including) its closing brace.
          const jsonEnd = bytes.length - 1;
          const cut = lastLineStart + Math.min(Math.floor(cutFraction * (jsonEnd - lastLineStart)), jsonEnd - lastLineStart - 1);
          truncateSync(path, cut);
          const read = readTrace(dir);
          expect(intentsOf(dir)).toEqual(intents.slice(0, -1));
          const cutMidLine = cut > lastLineStart;
          expect(read.tornLastLine).toBe(cutMidLine);
          expect(read.problems.map((problem) => problem.kind)).toEqual(cutMidLine ? ['torn-last-line'] : []);
        },
      ),
      { numRuns: 60, seed: 20261123 },
    );
  });

  it('keeps a last line that lost only its newline: the event is whole', () => {
    const { path, dir, bytes } = writeTrace(['open Alarms', 'tap "Add alarm"']);
    truncateSync(path, bytes.length - 1);
    const read = readTrace(dir);
    expect(intentsOf(dir)).toEqual(['open Alarms', 'tap "Add alarm"']);
    expect(read.tornLastLine).toBe(false);
    expect(read.problems).toEqual([]);
  });

  it('negative control: one byte less than that is torn', () => {
    const { path, dir, bytes } = writeTrace(['open Alarms', 'tap "Add alarm"']);
    truncateSync(path, bytes.length - 2);
    expect(intentsOf(dir)).toEqual(['open Alarms']);
    expect(readTrace(dir).tornLastLine).toBe(true);
  });
});
