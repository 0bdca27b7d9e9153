// An injected model error (`--model-faults`) is a trace event of the step whose reply it
// changed; the HTML run page marks that step and lists the event. A run without model
// faults shows neither.
import { readFile } from 'node:fs/promises';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runTask } from '../../../src/agent/run-task.js';
import type { TaskRunResult } from '../../../src/agent/task-run-result.js';
import { simulatorForTask } from '../../../src/bench/simulator-for-task.js';
import { SimDevice } from '../../../src/device/sim-device.js';
import { writeReport } from '../../../src/report/write-report.js';
import { simSuiteTask, temporaryRunRoot } from '../../helpers/sim-suite.js';

const root = temporaryRunRoot('senseact-model-fault-page-');

async function runAndRender(modelFaults: boolean): Promise<{ result: TaskRunResult; page: string }> {
  const task = simSuiteTask('settings-dark-theme');
  const device = new SimDevice(simulatorForTask(task, { seed: 7 }));
  const result = await runTask({
    task, mode: 'senseact', policy: 'oracle', device, probe: device, traceRoot: root.dir(), suite: modelFaults ? 'faulted' : 'clean',
    ...(modelFaults ? { modelFaults: { config: { 'wrong-unit': 0.5, 'hallucinated-unit': 0.3, 'invalid-json': 0.3 }, seed: 6 } } : {}),
  });
  const name = modelFaults ? 'report-faulted' : 'report-clean';
  const summary = path.join(root.dir(), `${name}.html`);
  await writeReport({
    title: 'model faults',
    generatedAt: '2026-11-25T00:00:00.000Z',
    summary: { title: 'runs', headers: [], rows: [], notes: [] },
    runs: [{ taskId: task.id, app: task.app, mode: 'senseact', repeat: 0, success: result.success, reason: result.reason, error: result.error, facts: [], traceDir: result.traceDir }],
  }, summary);
  const page = await readFile(path.join(root.dir(), name, task.id, 'senseact-r0.html'), 'utf8');
  return { result, page };
}

describe('the run page under --model-faults', () => {
  it('marks the steps whose replies were changed and lists each fault with its kind and what it changed', async () => {
    const { result, page } = await runAndRender(true);
    expect(result.modelFaults).toEqual(['invalid-json', 'hallucinated-unit', 'wrong-unit', 'wrong-unit', 'invalid-json']);
    const listed = [...page.matchAll(/<span class="badge fault">model fault injected<\/span> ([a-z-]+) in the planner's reply: ([^<]*)</g)];
    expect(listed.map((match) => match[1])).toEqual(result.modelFaults);
    expect(listed.find((match) => match[1] === 'wrong-unit')?.[2]).toMatch(/^unit n[0-9a-f]+ → n[0-9a-f]+$/);
    // A badge in the header of each step that met one (a step with two shows a count).
    const badges = [...page.matchAll(/<header class="step"><h2>step (\d+)<\/h2>.*?<span class="badge fault" title="model fault injected \(--model-faults\): [^"]*">(model fault(?: ×\d)?)<\/span>/g)];
    expect(badges.map((match) => match[2])).toEqual(['model fault ×3', 'model fault', 'model fault']);
  });

  it('shows no model fault when none was injected', async () => {
    const { result, page } = await runAndRender(false);
    expect(result.modelFaults).toEqual([]);
    expect(result.success).toBe(true);
    expect(page).not.toContain('badge fault');
    expect(page).not.toContain('model fault');
  });
});
