// A run's wall-clock watchdog (runTask runTimeoutMs, bench --run-timeout): a run whose device
// hangs, ignoring the abort signal, ends as an infrastructure error named 'run timeout' once
// the limit passes, its trace kept; the same run with a device that answers passes within it.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTask } from '../../../src/agent/run-task.js';
import { simulatorForTask } from '../../../src/bench/simulator-for-task.js';
import { SimDevice } from '../../../src/device/sim-device.js';
import { main } from '../../../src/cli/main.js';
import { loadSuite } from '../../../src/tasks/load-task-file.js';
import { readTrace } from '../../../src/trace/read-trace.js';

const repoRoot = path.resolve(import.meta.dirname, '..', '..', '..');
const suite = await loadSuite('sim', { tasksRoot: path.join(repoRoot, 'tasks') });
const task = suite.tasks.find((candidate) => candidate.id === 'settings-wifi-off')!;
let root: string;

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'senseact-watchdog-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('the run watchdog', () => {
  it('ends a run whose device hangs (deaf to the abort) as a run-timeout infrastructure error, its trace kept', async () => {
    const device = new SimDevice(simulatorForTask(task));
    let acts = 0;
    // The second action never returns and ignores the signal: only the watchdog's guard can end the run.
    const act = device.act.bind(device);
    device.act = async (action, options) => (++acts === 2 ? await new Promise<never>(() => undefined) : await act(action, options));
    const started = performance.now();
    const result = await runTask({ task, mode: 'senseact', policy: 'oracle', device, probe: device, traceRoot: root, suite: 'watchdog', runTimeoutMs: 1500 });
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(result.success).toBe(false);
    expect(result.error).toMatch(/^run timeout: the run took longer than its wall-clock limit of 1500 ms/);
    expect(result.reason).toMatch(/^infrastructure error: run timeout/);
    const { events } = readTrace(result.traceDir);
    expect(events.some((event) => event.type === 'error' && event.code === 'run-timeout' && event.infrastructure === true)).toBe(true);
    expect(events.at(-1)?.type).toBe('run-end');
  });

  it('negative control: the same run with a device that answers succeeds within the limit', async () => {
    const device = new SimDevice(simulatorForTask(task));
    const result = await runTask({ task, mode: 'senseact', policy: 'oracle', device, probe: device, traceRoot: root, suite: 'watchdog', runTimeoutMs: 60_000 });
    expect(result).toMatchObject({ success: true, error: null });
  });

  it('bench --run-timeout takes seconds >= 0 and names a bad value (exit 2)', async () => {
    let err = '';
    const code = await main(['bench', '--suite', 'sim', '--tasks', 'settings-wifi-off', '--device', 'sim', '--run-timeout', 'soon', '--dry-run'], { stdout: () => undefined, stderr: (text) => { err += text; }, cwd: repoRoot, env: {} });
    expect(code).toBe(2);
    expect(err).toContain('--run-timeout: expected seconds (a number ≥ 0; 0: no limit), got "soon"');
    const ok = await main(['bench', '--suite', 'sim', '--tasks', 'settings-wifi-off', '--device', 'sim', '--run-timeout', '0', '--dry-run'], { stdout: () => undefined, stderr: () => undefined, cwd: repoRoot, env: {} });
    expect(ok).toBe(0);
  });
});
