import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readRunArtifacts } from '../../../src/report/read-run-artifacts.js';
import { findTraceFile, readTrace } from '../../../src/trace/read-trace.js';
import { openRunFiles } from '../../../src/trace/run-files.js';
import { StoreBlobError } from '../../../src/trace/store-blob-error.js';
import { TraceWriter, type TraceFormat } from '../../../src/trace/trace-writer.js';
import { readableBytes } from '../../helpers/stored-bytes.js';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'senseact-compact-'));
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

const screen = (label: string): string => `<hierarchy rotation="0"><node class="android.widget.Button" text="${label}" bounds="[0,0][100,50]" clickable="true"/></hierarchy>`;
const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);

/** One small run: a start screen, a model call, a view, the screen after, a screenshot and result.json. */
async function writeRun(format: TraceFormat, runId: string, after = screen('Done')): Promise<TraceWriter> {
  const writer = new TraceWriter({ root, suite: 'bench', task: 'task-a', runId, format });
  writer.emit({ type: 'step-start', step: 0 });
  writer.emit({ type: 'observe-end', step: 0, packageName: 'p', activity: 'a', latencyMs: 1, polls: 1, settled: true, artifact: writer.writeStepArtifact(0, 'before.xml', screen('Start')) });
  writer.writeModelCall(0, { prompt: 'Tap Start', reply: '{"intent":"start"}' });
  writer.writeStepArtifact(0, 'view.txt', 'app p\n[n1] button "Start"\n');
  writer.writeStepArtifact(0, 'after.xml', after);
  writer.writeStepArtifact(0, 'screenshot.png', png);
  writer.emit({ type: 'step-end', step: 0 });
  writer.writeRunFile('result.json', { success: true });
  await writer.close();
  return writer;
}

function readAll(dir: string): Record<string, string> {
  const trace = readTrace(dir);
  const files = openRunFiles(dir, trace.artifacts === undefined ? {} : { artifacts: trace.artifacts });
  return Object.fromEntries(files.names.map((name) => [name, Buffer.from(files.read(name) ?? []).toString('base64')]));
}

describe('compact traces', () => {
  it('one file per run; every artifact reads back as the full trace wrote it', async () => {
    const full = await writeRun('full', 'full-r0');
    const compact = await writeRun('compact', 'compact-r0');
    expect(readdirSync(compact.dir)).toEqual(['trace.jsonl.gz']);
    expect(readdirSync(full.dir).sort()).toEqual(['result.json', 'steps', 'trace.jsonl']);
    const fromFull = readAll(full.dir);
    expect(Object.keys(fromFull).sort()).toEqual(['result.json', 'steps/000/after.xml', 'steps/000/before.xml', 'steps/000/model-calls/000.json', 'steps/000/screenshot.png', 'steps/000/view.txt']);
    expect(readAll(compact.dir)).toEqual(fromFull);
    // The events are the same, and the artifact line is no event (no problem reported).
    const events = (dir: string): unknown[] => readTrace(dir).events.map(({ t: _t, ...event }) => event);
    expect(events(compact.dir)).toEqual(events(full.dir));
    expect(readTrace(compact.dir).problems).toEqual([]);
    // Negative control: a name the run never wrote.
    const trace = readTrace(compact.dir);
    expect(openRunFiles(compact.dir, { artifacts: trace.artifacts! }).read('steps/001/after.xml')).toBeUndefined();
  });

  it('identical screens of two runs are stored once; a different one is stored again', async () => {
    await writeRun('compact', 'r0');
    const packs = (): string[] => readdirSync(join(root, 'bench', '_store'));
    const bytes = (): number => packs().reduce((sum, name) => sum + statSync(join(root, 'bench', '_store', name)).size, 0);
    const first = bytes();
    await writeRun('compact', 'r1');
    const second = bytes();
    await writeRun('compact', 'r2', screen('Something else'));
    const third = bytes();
    expect(packs()).toHaveLength(1);
    const address = (run: string, name: string): string => readTrace(join(root, 'bench', 'task-a', run)).artifacts!.files[name]!;
    expect(address('r1', 'steps/000/after.xml')).toBe(address('r0', 'steps/000/after.xml'));
    expect(address('r2', 'steps/000/after.xml')).not.toBe(address('r0', 'steps/000/after.xml'));
    expect(address('r2', 'steps/000/before.xml')).toBe(address('r0', 'steps/000/before.xml'));
    // The second run added only its bundle (its result and model call); the third also its new screen.
    expect(second - first).toBeLessThan(first / 2);
    expect(third - second).toBeGreaterThan(second - first);
  });

  it('a password learned after a screen and a model call were kept reaches neither, nor the events', async () => {
    const password = 'Hunter2-correct-horse';
    for (const learn of [true, false]) {
      const writer = new TraceWriter({ root, suite: learn ? 'learned' : 'control', task: 't', format: 'compact' });
      writer.emit({ type: 'step-start', step: 0 });
      writer.writeModelCall(0, { reply: `type ${password}` });
      writer.writeStepArtifact(0, 'after.xml', screen(password));
      writer.emit({ type: 'plan-end', step: 0, latencyMs: 1, intent: `join with ${password}`, expectation: null });
      writer.emit({ type: 'step-end', step: 0 });
      if (learn) writer.redactor.addPassword(password);
      await writer.close();
      const written = readdirSync(join(root, learn ? 'learned' : 'control'), { withFileTypes: true, recursive: true }).filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
      expect(written.length).toBe(2);
      const holding = written.filter((file) => readableBytes(file).includes(password));
      // Negative control: without learning it, the password is in the trace (trace.jsonl.gz) and in the store: the search reads through both compressions.
      expect(holding.length).toBe(learn ? 0 : 2);
      if (learn) expect(readAll(writer.dir)['steps/000/after.xml']).toBe(Buffer.from(screen('[password]')).toString('base64'));
    }
  });

  it('a damaged store: the reader names the pack; the report reads the events and lists the problem', async () => {
    const writer = await writeRun('compact', 'r0');
    const store = join(root, 'bench', '_store');
    const pack = join(store, readdirSync(store)[0]!);
    truncateSync(pack, 10);
    const trace = readTrace(writer.dir);
    expect(() => openRunFiles(writer.dir, { artifacts: trace.artifacts! }).read('steps/000/after.xml')).toThrow(StoreBlobError);
    expect(() => openRunFiles(writer.dir, { artifacts: trace.artifacts! }).read('steps/000/after.xml')).toThrow(/ends before blob .* cut short/);
    const artifacts = await readRunArtifacts(writer.dir);
    expect(artifacts.format).toBe('compact');
    expect(artifacts.events.length).toBe(3);
    expect(artifacts.problems.join('\n')).toMatch(/steps\/000\/after\.xml: The store pack .* ends before blob/);
    // Content that does not match its address is refused too.
    writeFileSync(pack, readFileSync(pack).fill(0));
    expect(() => openRunFiles(writer.dir, { artifacts: trace.artifacts! }).read('steps/000/before.xml')).toThrow(StoreBlobError);
  });

  it("a closed run's events are gzip-compressed; a crash before, during or after the compression leaves a whole trace", async () => {
    const writer = await writeRun('compact', 'r0');
    const compressed = join(writer.dir, 'trace.jsonl.gz');
    const text = gunzipSync(readFileSync(compressed)).toString('utf8');
    expect(text.split('\n').filter(Boolean).map((line) => (JSON.parse(line) as { type?: string }).type ?? 'the artifacts line')).toEqual(['step-start', 'observe-end', 'step-end', 'the artifacts line']);
    expect(statSync(compressed).size).toBeLessThan(Buffer.byteLength(text));
    const whole = readTrace(writer.dir);
    expect(whole.path).toBe(compressed);
    expect(whole.events.map((event) => event.type)).toEqual(['step-start', 'observe-end', 'step-end']);
    // Killed after writing the compressed copy, before removing the plain one: the plain one is read (the copy may be cut short).
    writeFileSync(join(writer.dir, 'trace.jsonl'), text);
    truncateSync(compressed, 20);
    expect(findTraceFile(writer.dir)).toBe(join(writer.dir, 'trace.jsonl'));
    expect(readAll(writer.dir)).toEqual(readAll((await writeRun('compact', 'r1')).dir));
    // A compressed trace cut short reads as far as it goes, its last line torn (negative control: not a whole trace).
    rmSync(join(writer.dir, 'trace.jsonl'));
    expect(readTrace(writer.dir).events.length).toBeLessThan(3);
    writeFileSync(compressed, readFileSync(join(root, 'bench', 'task-a', 'r1', 'trace.jsonl.gz')).subarray(0, 60));
    const torn = readTrace(writer.dir);
    expect(torn.tornLastLine || torn.events.length === 0).toBe(true);
    expect(torn.artifacts).toBeUndefined();
  });

  it('a file written after close is named by a gzip member appended to the compressed trace', async () => {
    const writer = new TraceWriter({ root, suite: 'bench', task: 'task-a', runId: 'late', format: 'compact' });
    writer.emit({ type: 'step-start', step: 0 });
    writer.writeStepArtifact(0, 'before.xml', screen('Start'));
    writer.emit({ type: 'step-end', step: 0 });
    await writer.close();
    writer.writeStepArtifact(0, 'after.xml', screen('Late'));
    await writer.settled();
    expect(readdirSync(writer.dir)).toEqual(['trace.jsonl.gz']);
    expect(existsSync(join(writer.dir, 'trace.jsonl'))).toBe(false);
    const files = readAll(writer.dir);
    expect(Object.keys(files)).toEqual(['steps/000/after.xml', 'steps/000/before.xml']);
    expect(Buffer.from(files['steps/000/after.xml']!, 'base64').toString('utf8')).toBe(screen('Late'));
    expect(readTrace(writer.dir).problems).toEqual([]);
  });

  it('none writes nothing and still validates events', async () => {
    const writer = new TraceWriter({ root, suite: 'bench', task: 'task-a', runId: 'r0', format: 'none' });
    writer.emit({ type: 'step-start', step: 0 });
    writer.writeStepArtifact(0, 'after.xml', screen('x'));
    expect(() => writer.emit({ type: 'step-start', step: -1 } as never)).toThrow(/does not match its schema/);
    await writer.close();
    expect(readdirSync(root)).toEqual([]);
    expect(writer.events).toBe(1);
  });
});
