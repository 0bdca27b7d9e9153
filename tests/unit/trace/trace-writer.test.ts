import { spawnSync } from 'node:child_process';
import { pbkdf2 } from 'node:crypto';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InvalidTraceEventError } from '../../../src/trace/invalid-trace-event-error.js';
import { readTrace } from '../../../src/trace/read-trace.js';
import { traceEventTypes, type TraceEventInput } from '../../../src/trace/trace-event.js';
import { stepFolder, TraceWriter } from '../../../src/trace/trace-writer.js';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'senseact-trace-'));
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

function fakeClock(stepMs = 10): () => number {
  let now = 1_000;
  return () => {
    const value = now;
    now += stepMs;
    return value;
  };
}

/** One event of every type, as an agent run would emit them. */
const everyEvent: TraceEventInput[] = [
  { type: 'run-start', step: null, runId: 'r', suite: 'sim/settings', task: 'wifi-off', mode: 'senseact', startedAt: '2026-11-22T03:00:00.000Z', seed: 7, config: { planner: 'gpt-4o' } },
  { type: 'task-start', step: null, taskId: 'wifi-off', instruction: 'Turn Wi-Fi off', app: 'com.android.settings', stepBudget: 10 },
  { type: 'start-step-end', step: null, index: 0, description: 'pm clear com.android.settings', outcome: 'done', output: 'Success' },
  { type: 'step-start', step: 0 },
  { type: 'observe-end', step: 0, packageName: 'com.android.settings', activity: '.Settings', latencyMs: 12.5, polls: 2, settled: true, artifact: 'steps/000/before.xml' },
  { type: 'perceive-end', step: 0, latencyMs: 3, nodes: 120, keptNodes: 31, units: 12, blocks: 4 },
  { type: 'model-call-end', step: 0, role: 'planner', model: 'gpt-4o', promptTokens: 900, completionTokens: 80, latencyMs: 700, images: 0, imageBytes: 0, artifact: 'steps/000/model-calls/000.json' },
  { type: 'plan-end', step: 0, latencyMs: 700, intent: 'Turn off the Wi-Fi toggle', expectation: { and: [{ checked: { text: 'Wi-Fi' }, value: false }] } },
  { type: 'commitment-end', step: 0, admissible: true, units: ['n3f2a'] },
  { type: 'act-end', step: 0, action: { kind: 'tap', x: 10, y: 20 }, unitId: 'n3f2a', latencyMs: 40 },
  { type: 'verify-end', step: 0, outcome: 'fail', reason: 'toggle still checked', label: 'no-change', by: 'contract' },
  { type: 'gate-end', step: 0, opened: true, reason: 'two failures on the same target', score: 2 },
  { type: 'guard-end', step: 0, packageName: 'com.android.chrome', action: 'left', detail: 'back in com.android.settings' },
  { type: 'screenshot-end', step: 0, artifact: 'steps/000/screenshot.png', of: 'after', width: 1080, height: 2400, bytes: 48_000, latencyMs: 90 },
  { type: 'model-fault-injected', step: 0, kind: 'wrong-unit', role: 'planner', detail: 'unit n3f2a → n9c1e' },
  { type: 'reply-repaired', step: 0, role: 'planner', repairs: ['fence', 'surrounding-text'] },
  { type: 'device-fault', step: 1, kind: 'dropped-tap', detail: 'tap (540,675) dropped' },
  { type: 'vlm-call-end', step: 0, role: 'vision', model: 'gpt-4o', promptTokens: 1100, completionTokens: 20, latencyMs: 1500, images: 1, imageBytes: 48_000 },
  { type: 'certificate-end', step: 0, text: 'scope wifi; action toggle; effect no-change', confidence: 'high' },
  { type: 'surface-end', step: 0, decision: 'continue', rule: 'no-effect', flags: ['change-strategy'] },
  { type: 'meta-plan-end', step: 0, reason: 'start of the task', subtasks: [{ name: 'Open Display', done: 'exists(text="Brightness")' }, { name: 'Say hi' }], progress: ['pending', 'pending'], attempts: 1 },
  { type: 'progress-end', step: 0, checked: [1], progress: ['checked', 'pending'] },
  { type: 'finish-refused', step: 0, reason: 'FINISH refused: sub-task 1 is not done', progress: ['pending', 'pending'] },
  { type: 'vote-end', step: 0, samples: 3, candidates: [{ key: 'n1', votes: 2, specificity: 3 }, { key: 'n2', votes: 1, specificity: 2 }], chosen: 'n1', tieBroken: false, extraCalls: 2, extraTokens: 900 },
  { type: 'memory-hints-end', step: 0, app: 'com.android.settings', tokens: 80, lines: 3 },
  { type: 'memory-summary-end', step: null, app: 'com.android.settings', kept: true, mapTokens: 420, tokens: 60 },
  { type: 'step-end', step: 0, latencyMs: 2300, latency: { device: 52, perception: 3, model: 2200, verification: 1 } },
  { type: 'skill-step-end', step: 0, skill: 'settings-turn-off-wi-fi', index: 0, intent: 'Open Network & internet', expectation: 'exists(text="Internet")', outcome: 'pass', reason: 'commitment passed' },
  { type: 'skill-end', step: null, skill: 'settings-turn-off-wi-fi', outcome: 'completed', reason: 'all 1 steps verified', steps: 1, bindings: {} },
  { type: 'error', step: 0, message: 'session lost', name: 'DeviceError', code: 'device', where: 'observe', infrastructure: true },
  { type: 'task-end', step: null, taskId: 'wifi-off', success: false, reason: 'step budget exhausted', steps: 1 },
  { type: 'run-end', step: null, status: 'completed', durationMs: 2400, usage: { calls: 2 } },
];

describe('TraceWriter and readTrace', () => {
  it('covers every event type and round-trips them with v and t stamped', async () => {
    expect(new Set(everyEvent.map((event) => event.type))).toEqual(new Set(traceEventTypes));
    const writer = new TraceWriter({ root, suite: 'sim/settings', task: 'wifi-off', runId: 'run-1', clock: fakeClock() });
    for (const event of everyEvent) writer.emit(event);
    await writer.close();
    expect(writer.dir).toBe(join(root, 'sim', 'settings', 'wifi-off', 'run-1'));
    const read = readTrace(writer.dir);
    expect(read.problems).toEqual([]);
    expect(read.tornLastLine).toBe(false);
    expect(read.events).toHaveLength(everyEvent.length);
    expect(read.events.map((event) => event.t)).toEqual(everyEvent.map((_, index) => 10 * (index + 1)));
    read.events.forEach((event, index) => {
      expect(event.v).toBe(1);
      expect(event).toMatchObject(everyEvent[index] as object);
    });
    expect(Object.keys(read.events[0] ?? {}).slice(0, 4)).toEqual(['v', 'type', 't', 'step']);
  });

  it('writes events a step at a time: a batch is on disk when its step ends, before close', async () => {
    const writer = new TraceWriter({ root, suite: 's', task: 't', runId: 'r' });
    const onDisk = (): string[] => readFileSync(join(writer.dir, 'trace.jsonl'), 'utf8').split('\n').filter(Boolean).map((line) => (JSON.parse(line) as { type: string }).type);
    writer.emit({ type: 'step-start', step: 3 });
    writer.emit({ type: 'perceive-end', step: 3, latencyMs: 1 });
    // Mid-step the events wait in the batch (a crash now loses them: the last batch)...
    expect(onDisk()).toEqual([]);
    writer.emit({ type: 'step-end', step: 3 });
    // ...and the step's end writes them, in order, without waiting for close.
    expect(onDisk()).toEqual(['step-start', 'perceive-end', 'step-end']);
    writer.emit({ type: 'step-start', step: 4 });
    writer.emit({ type: 'error', step: 4, message: 'device lost' });
    expect(onDisk()).toEqual(['step-start', 'perceive-end', 'step-end', 'step-start', 'error']);
    writer.emit({ type: 'step-start', step: 5 });
    await writer.close();
    expect(readTrace(writer.dir).events.map((event) => event.type)).toEqual(['step-start', 'perceive-end', 'step-end', 'step-start', 'error', 'step-start']);
  });

  it('with fsync: true, each event is on disk as soon as emit returns', async () => {
    const writer = new TraceWriter({ root, suite: 's', task: 't', runId: 'r', fsync: true });
    writer.emit({ type: 'step-start', step: 3 });
    expect(readFileSync(join(writer.dir, 'trace.jsonl'), 'utf8').trim().split('\n')).toHaveLength(1);
    await writer.close();
  });

  it('a process that dies mid-step leaves every earlier step on disk and loses only the step in progress', () => {
    const script = [
      `import { TraceWriter } from ${JSON.stringify(new URL('../../../src/trace/trace-writer.ts', import.meta.url).href)};`,
      `const writer = new TraceWriter({ root: ${JSON.stringify(root)}, suite: 's', task: 'crash', runId: 'r' });`,
      'for (let step = 0; step < 3; step++) {',
      "  writer.emit({ type: 'step-start', step });",
      "  writer.writeStepArtifact(step, 'view.txt', `screen ${step}`);",
      "  writer.emit({ type: 'step-end', step });",
      '}',
      "writer.emit({ type: 'step-start', step: 3 });",
      "writer.emit({ type: 'perceive-end', step: 3, latencyMs: 1 });",
      // Dies at once, without close() and without the event loop ever turning.
      "process.kill(process.pid, 'SIGKILL');",
    ].join('\n');
    const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: join(import.meta.dirname, '..', '..', '..'), encoding: 'utf8' });
    expect(child.signal, child.stderr).toBe('SIGKILL');
    const dir = join(root, 's', 'crash', 'r');
    const read = readTrace(dir);
    expect(read.problems).toEqual([]);
    expect(read.events.map((event) => `${event.type} ${event.step}`)).toEqual(['step-start 0', 'step-end 0', 'step-start 1', 'step-end 1', 'step-start 2', 'step-end 2']);
  });

  it('keeps extra payload fields of loose events', async () => {
    const writer = new TraceWriter({ root, suite: 's', task: 't', runId: 'r' });
    writer.emit({ type: 'plan-end', step: 1, latencyMs: 5, intent: 'x', commitment: [{ unit: 'n1', argument: 'hello' }] });
    await writer.close();
    expect(readTrace(writer.dir).events[0]).toMatchObject({ commitment: [{ unit: 'n1', argument: 'hello' }] });
  });

  it('rejects a malformed event with the schema problem', async () => {
    const writer = new TraceWriter({ root, suite: 's', task: 't', runId: 'r' });
    const bad = { type: 'verify-end', step: 0, outcome: 'maybe' } as unknown as TraceEventInput;
    let error: unknown;
    try {
      writer.emit(bad);
    } catch (caught) {
      error = caught;
    }
    expect(InvalidTraceEventError.isInstance(error)).toBe(true);
    expect(String((error as Error).message)).toMatch(/"verify-end".*outcome/);
    expect(writer.events).toBe(0);
    await writer.close();
    expect(() => writer.emit({ type: 'step-start', step: 0 })).toThrow(/closed/);
  });

  it('tolerates a torn last line and reports unknown versions and invalid lines', async () => {
    const writer = new TraceWriter({ root, suite: 's', task: 't', runId: 'r' });
    writer.emit({ type: 'step-start', step: 0 });
    await writer.close();
    const path = join(writer.dir, 'trace.jsonl');
    appendFileSync(path, '{"v":2,"type":"step-start","t":1,"step":1}\n');
    appendFileSync(path, '{"v":1,"type":"teleport-end","t":1,"step":1}\n');
    appendFileSync(path, '{"v":1,"type":"step-end","t":2,"st');
    const read = readTrace(path);
    expect(read.events.map((event) => event.type)).toEqual(['step-start']);
    expect(read.tornLastLine).toBe(true);
    expect(read.problems.map((problem) => [problem.line, problem.kind])).toEqual([
      [2, 'unknown-version'],
      [3, 'invalid-event'],
      [4, 'torn-last-line'],
    ]);
    expect(read.problems[0]?.message).toMatch(/version 2; this reader understands v1/);
    expect(read.problems[1]?.message).toMatch(/teleport-end/);
  });

  it('a broken line in the middle is not mistaken for a torn end', async () => {
    const dir = join(root, 'manual');
    const writer = new TraceWriter({ root: dir, suite: 's', task: 't', runId: 'r' });
    await writer.close();
    writeFileSync(join(writer.dir, 'trace.jsonl'), '{"v":1,"type":"step-start","t":0,"step":0}\n{oops\n{"v":1,"type":"step-end","t":1,"step":0}\n');
    const read = readTrace(writer.dir);
    expect(read.tornLastLine).toBe(false);
    expect(read.problems.map((problem) => problem.kind)).toEqual(['not-json']);
    expect(read.events).toHaveLength(2);
  });

  it('throws on a missing trace, naming the expected layout', () => {
    expect(() => readTrace(join(root, 'nothing-here'))).toThrow(/runs\/bench-<suite>-<time>\/traces\/<task>\/<mode>-r<repeat>/);
  });

  it('writes step artifacts and model calls under steps/<nnn>/, redacting secrets but not PNG bytes', async () => {
    const writer = new TraceWriter({ root, suite: 's', task: 't', runId: 'r', secrets: ['my-local-secret-123'] });
    const png = new Uint8Array([137, 80, 78, 71, 0, 255]);
    expect(writer.writeStepArtifact(2, 'before.xml', '<hierarchy><node text="sk-abcdefghijklmnopqrstu" password="false"/></hierarchy>')).toBe(join('steps', '002', 'before.xml'));
    writer.writeStepArtifact(2, 'screenshot.png', png);
    writer.writeStepArtifact(2, 'delta.json', { label: 'new-page', image: png });
    const first = writer.writeModelCall(2, { role: 'planner', messages: [{ role: 'user', content: 'key my-local-secret-123' }], headers: { Authorization: 'Bearer x' } });
    const second = writer.writeModelCall(2, { role: 'verifier' });
    const runLevel = writer.writeModelCall(null, { role: 'judge' });
    expect([first, second, runLevel]).toEqual([join('steps', '002', 'model-calls', '000.json'), join('steps', '002', 'model-calls', '001.json'), join('model-calls', '000.json')]);
    writer.emit({ type: 'run-start', step: null, runId: writer.runId, suite: 's', task: 't', mode: 'oracle', startedAt: 'now', config: { apiKey: 'abc', note: 'Bearer abcdefghijkl' } });
    await writer.close();

    expect(readFileSync(join(writer.dir, 'steps', '002', 'before.xml'), 'utf8')).toBe('<hierarchy><node text="[REDACTED]" password="false"/></hierarchy>');
    expect(Buffer.from(readFileSync(join(writer.dir, 'steps', '002', 'screenshot.png'))).equals(Buffer.from(png))).toBe(true);
    expect(JSON.parse(readFileSync(join(writer.dir, 'steps', '002', 'delta.json'), 'utf8'))).toEqual({ label: 'new-page', image: { binaryBytes: 6 } });
    const call = readFileSync(join(writer.dir, first), 'utf8');
    expect(call).not.toContain('my-local-secret-123');
    expect(JSON.parse(call)).toEqual({ role: 'planner', messages: [{ role: 'user', content: 'key [REDACTED]' }], headers: { Authorization: '[REDACTED]' } });
    const trace = readFileSync(join(writer.dir, 'trace.jsonl'), 'utf8');
    expect(trace).not.toMatch(/abcdefghijkl|"apiKey":"abc"/);
    expect(existsSync(join(writer.dir, 'model-calls', '000.json'))).toBe(true);
  });

  it('a password learned while a write is still in flight reaches neither that file nor one written before', async () => {
    const writer = new TraceWriter({ root, suite: 's', task: 't', runId: 'r' });
    const password = 'Hunter2-correct-horse';
    const earlier = writer.writeModelCall(1, { content: `Task: join with ${password}` });
    await writer.settled();
    // Keep the I/O pool busy so the next write's open waits in its queue: the file does not
    // exist yet when the redactor calls back.
    const busy = Array.from({ length: Number(process.env['UV_THREADPOOL_SIZE'] ?? 4) }, () => new Promise((resolve) => pbkdf2('x', 'y', 200_000, 32, 'sha256', resolve)));
    const inFlight = writer.writeModelCall(2, { content: `Task: join with ${password}` });
    writer.redactor.addPassword(password);
    const after = writer.writeModelCall(2, { content: `Task: join with ${password}` });
    await Promise.all(busy);
    await writer.close();
    for (const file of [earlier, inFlight, after]) expect(JSON.parse(readFileSync(join(writer.dir, file), 'utf8'))).toEqual({ content: 'Task: join with [password]' });
  });

  it('run folders: sanitized names, suffix on collision, error or replace on request', async () => {
    const first = new TraceWriter({ root, suite: 'androidlab/clock', task: 'task 1: set alarm', runId: 'same' });
    await first.close();
    expect(first.dir).toBe(join(root, 'androidlab', 'clock', 'task_1__set_alarm', 'same'));
    const second = new TraceWriter({ root, suite: 'androidlab/clock', task: 'task 1: set alarm', runId: 'same' });
    await second.close();
    expect(second.runId).toBe('same-1');
    expect(() => new TraceWriter({ root, suite: 'androidlab/clock', task: 'task 1: set alarm', runId: 'same', ifExists: 'error' })).toThrow(/already exists/);
    const replaced = new TraceWriter({ root, suite: 'androidlab/clock', task: 'task 1: set alarm', runId: 'same', ifExists: 'replace' });
    await replaced.close();
    expect(replaced.runId).toBe('same');
    expect(readTrace(replaced.dir).events).toEqual([]);
    expect(() => new TraceWriter({ root, suite: 'x/../..', task: 't' })).toThrow(/Invalid run folder name/);
    expect(() => stepFolder(-1)).toThrow(/non-negative/);
  });

  it('writeRunFile stays inside the run folder', async () => {
    const writer = new TraceWriter({ root, suite: 's', task: 't', runId: 'r' });
    expect(writer.writeRunFile('result.json', { success: true })).toBe('result.json');
    expect(() => writer.writeRunFile('../escape.json', {})).toThrow(/inside the run folder/);
    await writer.close();
  });
});
