// A fault the simulator injects (--faults) is a `device-fault` trace event of the step whose
// device call it struck: debug prints it (FAULT) and names it in the step's WHY, the run page
// marks the step (badge 'device fault') and lists it. Without faults, or with the trace of
// faults not asked for, there is none.
import { readFile } from 'node:fs/promises';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runTask } from '../../../src/agent/run-task.js';
import type { TaskRunResult } from '../../../src/agent/task-run-result.js';
import { simulatorForTask } from '../../../src/bench/simulator-for-task.js';
import type { CliIo } from '../../../src/cli/cli-io.js';
import { main } from '../../../src/cli/main.js';
import { SimDevice } from '../../../src/device/sim-device.js';
import { readRunArtifacts } from '../../../src/report/read-run-artifacts.js';
import { writeReport } from '../../../src/report/write-report.js';
import type { TraceEvent } from '../../../src/trace/trace-event.js';
import { simSuiteTask, temporaryRunRoot } from '../../helpers/sim-suite.js';

const root = temporaryRunRoot('senseact-device-fault-steps-');
const task = simSuiteTask('settings-airplane-on');

async function run(name: string, options: { faults: boolean; trace: boolean }): Promise<{ result: TaskRunResult; events: readonly TraceEvent[]; page: string }> {
  // Repeat 0 of the bench's seeding: under the standard profile the first tap (Network & internet) is dropped.
  const device = new SimDevice(simulatorForTask(task, { repeat: 0, ...(options.faults ? { faults: 'standard' as const } : {}) }));
  const result = await runTask({ task, mode: 'senseact', policy: 'oracle', device, probe: device, traceRoot: root.dir(), suite: name, traceDeviceFaults: options.trace });
  await writeReport({
    title: name,
    generatedAt: '2026-11-27T00:00:00.000Z',
    summary: { title: 'runs', headers: [], rows: [], notes: [] },
    runs: [{ taskId: task.id, app: task.app, mode: 'senseact', repeat: 0, success: result.success, reason: result.reason, error: result.error, facts: [], traceDir: result.traceDir }],
  }, path.join(root.dir(), `page-${name}.html`));
  const page = await readFile(path.join(root.dir(), `page-${name}`, task.id, 'senseact-r0.html'), 'utf8');
  return { result, events: (await readRunArtifacts(result.traceDir)).events, page };
}

describe('device faults in the step they struck', () => {
  it('writes one event per fault of the result, in order, the dropped tap in the step whose tap it dropped', async () => {
    const { result, events, page } = await run('faulted', { faults: true, trace: true });
    const faults = events.filter((event): event is Extract<TraceEvent, { type: 'device-fault' }> => event.type === 'device-fault');
    expect(faults.map((event) => event.kind)).toEqual(result.faults);
    const dropped = faults.find((event) => event.kind === 'dropped-tap');
    expect(dropped?.detail).toBe('tap (540,675) dropped');
    const step = dropped?.step ?? -1;
    const tapped = events.find((event) => event.step === step && event.type === 'act-end');
    expect(tapped?.type === 'act-end' ? tapped.action : undefined).toMatchObject({ type: 'tap', point: [540, 675] });
    expect(events.find((event) => event.step === step && event.type === 'verify-end')).toMatchObject({ outcome: 'fail' });
    // The run page: a badge on that step's header and the event in its list.
    const section = new RegExp(`<section class="step" id="step-${step}">[\\s\\S]*?</section>`).exec(page)?.[0] ?? '';
    expect(section).toContain('<span class="badge device-fault" title="device fault injected (--faults): dropped-tap, tap (540,675) dropped">device fault</span>');
    expect(section).toContain('<span class="badge fault">device fault injected</span> dropped-tap: tap (540,675) dropped');
  });

  it('writes none without faults, and none when the run was not asked to trace them', async () => {
    const clean = await run('clean', { faults: false, trace: true });
    expect(clean.result.faults).toEqual([]);
    expect(clean.events.some((event) => event.type === 'device-fault')).toBe(false);
    expect(clean.page).not.toContain('device fault');
    const unasked = await run('unasked', { faults: true, trace: false });
    expect(unasked.result.faults).toContain('dropped-tap');
    expect(unasked.events.some((event) => event.type === 'device-fault')).toBe(false);
  });

  it('debug --faults shows the fault in its step and gives it as the WHY of the failed tap', async () => {
    let stdout = '';
    let stderr = '';
    const io: CliIo = { stdout: (text) => { stdout += text; }, stderr: (text) => { stderr += text; }, cwd: root.dir(), env: {} };
    expect(await main(['debug', task.id, '--device', 'sim', '--faults', 'standard', '--step', '1'], io), stderr).toBe(0);
    expect(stdout).toContain('\nFAULT    DEVICE FAULT injected: dropped-tap — tap (540,675) dropped\n');
    expect(stdout).toContain('\nWHY      the expectation part exists(text="Airplane mode") failed: no node matches text="Airplane mode" (an injected device fault (dropped-tap: tap (540,675) dropped))\n');
    let clean = '';
    const quiet: CliIo = { ...io, stdout: (text) => { clean += text; } };
    expect(await main(['debug', task.id, '--device', 'sim', '--step', '1'], quiet)).toBe(0);
    expect(clean).not.toContain('FAULT');
    expect(clean).not.toContain('\nWHY ');
  });

  it('debug names the earlier fault that took the label a target looks for (an unfound selector)', async () => {
    let stdout = '';
    let stderr = '';
    const io: CliIo = { stdout: (text) => { stdout += text; }, stderr: (text) => { stderr += text; }, cwd: root.dir(), env: {} };
    // Under the standard profile (repeat 0), step 3's icon-only fault drops the label "5 minutes" the plan then looks for.
    expect(await main(['debug', 'clock-snooze-5', '--device', 'sim', '--faults', 'standard', '--step', '5'], io), stderr).toBe(0);
    expect(stdout).toContain('\nWHY      no unit of the screen matches the plan\'s target text="5 minutes"; nothing was executed (an injected device fault in step 3 struck that element: icon-only — android.widget.CheckedTextView "5 minutes" lost its label)\n');
    // Step 3's other fault (a delayed tap) quotes no text of the target: not blamed.
    expect(stdout.split('\n').find((line) => line.startsWith('WHY '))).not.toContain('delayed-effect');
    // Negative control: without faults the label stays, the run succeeds and no step blames one.
    let clean = '';
    expect(await main(['debug', 'clock-snooze-5', '--device', 'sim'], { ...io, stdout: (text) => { clean += text; } })).toBe(0);
    expect(clean).toContain('result: SUCCESS');
    expect(clean).not.toContain('struck that element');
  });
});
