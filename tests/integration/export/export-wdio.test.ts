import { spawn } from 'node:child_process';
import { mkdirSync, symlinkSync } from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTask } from '../../../src/agent/run-task.js';
import { simulatorForTask } from '../../../src/bench/simulator-for-task.js';
import type { AppiumServerHandle } from '../../../src/device/appium-server.js';
import { SimDevice } from '../../../src/device/sim-device.js';
import { startSimAppium } from '../device/sim-appium-server.js';
import { exportSimRun } from '../../helpers/export-sim-run.js';
import type { WdioSpecJob, WdioSpecRun } from '../../helpers/run-wdio-spec.js';
import { simSuiteTask, temporaryRunRoot } from '../../helpers/sim-suite.js';

const repoRoot = path.resolve(import.meta.dirname, '..', '..', '..');
const runRoot = temporaryRunRoot('senseact-export-wdio-');
const tasks = ['clock-alarm-3pm', 'settings-wifi-off', 'clock-add-tokyo'] as const;

/** Runs exported specs with WebdriverIO standalone + Mocha + expect-webdriverio in a child process that has the tsx loader. */
function runSpecs(jobs: WdioSpecJob[], url: string): Promise<WdioSpecRun[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'tests', 'helpers', 'run-wdio-standalone-main.ts'), url, JSON.stringify(jobs)], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => { output += chunk.toString(); });
    child.stderr.on('data', (chunk: Buffer) => { output += chunk.toString(); });
    child.on('error', reject);
    child.on('close', (code) => {
      const last = output.trim().split('\n').at(-1) ?? '';
      if (code !== 0 || !last.startsWith('{')) reject(new Error(`the spec runner exited ${code}:\n${output.slice(-3000)}`));
      else resolve((JSON.parse(last) as { runs: WdioSpecRun[] }).runs);
    });
  });
}

describe('WebdriverIO specs exported from verified oracle runs, against the simulator\'s Appium server', () => {
  let server: AppiumServerHandle;
  const configs = new Map<string, string>();

  beforeAll(async () => {
    server = await startSimAppium();
    // The specs import @wdio/globals: their folder resolves packages from the repository's node_modules.
    const out = path.join(runRoot.dir(), 'specs');
    mkdirSync(out, { recursive: true });
    symlinkSync(path.join(repoRoot, 'node_modules'), path.join(runRoot.dir(), 'node_modules'), 'dir');
    for (const id of tasks) {
      const task = simSuiteTask(id);
      const device = new SimDevice(simulatorForTask(task, { repeat: 0 }));
      try {
        const result = await runTask({ task, mode: 'senseact', policy: 'oracle', device, probe: device, traceRoot: runRoot.dir(), suite: 'export', runId: 'senseact-r0' });
        expect(result.success).toBe(true);
        const files = exportSimRun(result.traceDir, task, 'wdio', out, id).result.files;
        configs.set(id, files.find((file) => file.name.endsWith('.wdio.conf.ts'))?.name ?? '');
      } finally {
        await device.close();
      }
    }
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
  });

  it('pass on the app they were recorded on, and fail when a label they use is renamed (negative control)', async () => {
    const relabelled = { 'senseact:faults': { relabel: { rate: 1 } } };
    const runs = await runSpecs([
      ...tasks.map((id) => ({ configFile: configs.get(id) ?? '' })),
      // Its OK button becomes "Confirm": the spec taps OK, so it must fail.
      { configFile: configs.get('clock-alarm-3pm') ?? '', capabilities: relabelled },
    ], server.url);
    expect(runs.map((run) => run.passed)).toEqual([true, true, true, false]);
  }, 120_000);
});
