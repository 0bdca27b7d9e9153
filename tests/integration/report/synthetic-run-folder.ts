// Builds a SYNTHETIC bench output dir for the report tests: no agent runs; a test
// executor writes plausible trace folders through the real TraceWriter, with hostile app
// text (script tags, an <img onerror>) in every place the report shows data.
import { PNG } from 'pngjs';
import type { TaskRunResult } from '../../../src/agent/task-run-result.js';
import { fakeRunResult } from '../../../src/bench/fake-task-executor.js';
import { runBenchmark } from '../../../src/bench/run-benchmark.js';
import type { ModelCallRecord } from '../../../src/model/model-call-record.js';
import type { TaskExecutionRequest } from '../../../src/bench/task-executor.js';
import { TraceWriter } from '../../../src/trace/trace-writer.js';

export const hostileScript = '<script>window.__pwned = "script";</script>';
export const hostileImage = '<img src="nowhere.png" onerror="window.__pwned = \'img\'">';

/** A 4×8 PNG (solid colour): enough for the page to decode and size it. */
export function tinyPng(): Buffer {
  const png = new PNG({ width: 4, height: 8 });
  png.data.fill(200);
  return PNG.sync.write(png);
}

function afterXml(label: string): string {
  const escaped = label.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
  return `<?xml version="1.0" encoding="UTF-8"?>
<hierarchy index="0" class="hierarchy" rotation="0" width="1080" height="2400">
  <android.widget.FrameLayout index="0" package="com.example.notes" class="android.widget.FrameLayout" text="" bounds="[0,0][1080,2400]" displayed="true">
    <android.widget.TextView index="0" package="com.example.notes" class="android.widget.TextView" text="${escaped}" bounds="[40,200][1040,320]" displayed="true"/>
    <android.widget.Button index="1" package="com.example.notes" class="android.widget.Button" text="Save" clickable="true" bounds="[40,400][540,520]" displayed="true"/>
    <android.widget.EditText index="2" package="com.example.notes" class="android.widget.EditText" text="" hint="Title" clickable="true" focusable="true" bounds="[40,600][1040,720]" displayed="true"/>
  </android.widget.FrameLayout>
</hierarchy>`;
}

/** Writes a 2-step trace like the agent would, into the folder the runner asked for. */
export async function writeSyntheticTrace(request: TaskExecutionRequest, options: { screenshots: boolean; hostile: boolean }): Promise<TaskRunResult> {
  const outDir = request.outDir;
  const writer = new TraceWriter({ root: outDir, suite: 'traces', task: request.task.id, runId: `${request.mode}-r${request.repeat}`, ifExists: 'replace', clock: (() => { let now = 0; return () => (now += 7); })() });
  const text = (plain: string): string => (options.hostile ? `${plain} ${hostileScript} ${hostileImage}` : plain);
  writer.emit({ type: 'run-start', step: null, runId: writer.runId, suite: 'synthetic', task: request.task.id, mode: request.mode, startedAt: '2026-11-22T00:00:00.000Z' });
  writer.emit({ type: 'task-start', step: null, taskId: request.task.id, instruction: text('Create a note'), stepBudget: 10 });
  for (const step of [0, 1]) {
    writer.emit({ type: 'step-start', step });
    writer.writeStepArtifact(step, 'before.xml', afterXml(text('Notes')));
    writer.writeStepArtifact(step, 'after.xml', afterXml(text(step === 0 ? 'New note' : 'Saved')));
    writer.writeStepArtifact(step, 'view.txt', `app com.example.notes/.Main\n[n1a2b] click "Save"\n[n3c4d] fill "Title" ${text('hint')}`);
    writer.emit({ type: 'observe-end', step, packageName: 'com.example.notes', activity: '.Main', latencyMs: 12 });
    writer.emit({ type: 'plan-end', step, latencyMs: 300, intent: text(step === 0 ? 'open a new note' : 'save it'), expectation: { atom: 'exists', query: text('Saved') } });
    writer.emit({ type: 'commitment-end', step, admissible: true, units: [{ unit: 'n1a2b', type: 'click' }] });
    writer.emit({ type: 'act-end', step, action: { kind: 'tap', x: 290, y: 460 }, unitId: 'n1a2b', latencyMs: 40 });
    writer.writeStepArtifact(step, 'delta.json', { label: 'partial-change', textChanges: [{ before: 'Notes', after: text('Saved') }] });
    // Step 0: a plain list of outcomes; step 1: the agent's shape (per unit, then combined).
    writer.writeStepArtifact(step, 'predicates.json', step === 0
      ? [{ predicate: text('exists(text="Saved")'), outcome: 'fail', reason: text('no node matched') }]
      : { expectation: 'exists(text="Saved")', units: [{ unit: 'n1a2b', outcome: { outcome: 'pass', reason: 'the screen changed', evidence: [] } }], combined: { outcome: 'pass', reason: text('text="Saved" matches 1 node') } });
    writer.emit({ type: 'verify-end', step, outcome: step === 0 ? 'fail' : 'pass', reason: text('expectation'), label: 'partial-change', by: 'expectation' });
    writer.emit({ type: 'gate-end', step, opened: step === 0, reason: step === 0 ? text('2 consecutive failures on n1a2b') : 'expectation passed' });
    if (options.screenshots && step === 0) writer.writeStepArtifact(step, 'screenshot.png', tinyPng());
    const record: ModelCallRecord = {
      role: 'planner',
      requestedModel: 'scripted',
      messages: [{ role: 'system', content: text('You are a planner') }],
      reply: { text: text('{"intent":"save"}'), model: 'scripted', finishReason: 'stop' },
      promptTokens: 900,
      completionTokens: 40,
      usageEstimated: false,
      latencyMs: 300,
      images: 0,
      imageBytes: 0,
      imageTokens: 0,
      promptSections: { system: 890, framing: 10 },
    };
    const artifact = writer.writeModelCall(step, record);
    writer.emit({ type: 'model-call-end', step, role: 'planner', model: 'scripted', promptTokens: 900, completionTokens: 40, latencyMs: 300, images: 0, imageBytes: 0, artifact });
    writer.emit({ type: 'surface-end', step, decision: step === 0 ? 'continue' : 'stop', rule: 'surface-changed' });
    writer.emit({ type: 'step-end', step, latencyMs: 400, latency: { device: 52, perception: 4, model: 300, verification: 6 } });
  }
  writer.emit({ type: 'task-end', step: null, taskId: request.task.id, success: true, reason: text('note saved'), steps: 2 });
  writer.emit({ type: 'run-end', step: null, status: 'completed', durationMs: 800 });
  await writer.close();
  return { ...fakeRunResult(request), steps: 2, reason: text('note saved'), traceDir: writer.dir };
}

/** A bench output dir of `tasks` synthetic runs in senseact mode, built through the real runner. */
export async function writeSyntheticBench(outDir: string, tasks: number, options: { screenshots: boolean; hostile: boolean }): Promise<void> {
  await runBenchmark({
    tasks: Array.from({ length: tasks }, (_, index) => ({ id: `note-${index}`, app: 'com.example.notes' })),
    modes: ['senseact'],
    repeat: 1,
    concurrency: 1,
    outDir,
    resume: false,
    executor: async (request) => writeSyntheticTrace(request, options),
    policy: 'oracle',
    suite: 'synthetic',
  });
}
