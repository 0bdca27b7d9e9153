// The benchmark executor on the simulator behind a real Appium 3 server (the WebdriverIO
// path real phones use): the task starts in its seeded state, the oracle plays it through
// the loop, and the task's state check reads the apps through the driver.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBenchExecutor } from '../../../src/bench/compose.js';
import type { AppiumServerHandle } from '../../../src/device/appium-server.js';
import { loadSuite } from '../../../src/tasks/load-task-file.js';
import { startSimAppium } from '../device/sim-appium-server.js';

const repoRoot = path.resolve(import.meta.dirname, '..', '..', '..');
const suite = await loadSuite('sim', { tasksRoot: path.join(repoRoot, 'tasks') });
let server: AppiumServerHandle;
let root: string;

beforeAll(async () => {
  server = await startSimAppium();
  root = await mkdtemp(path.join(tmpdir(), 'senseact-bench-appium-'));
}, 120_000);
afterAll(async () => {
  await server?.stop();
  await rm(root, { recursive: true, force: true });
});

describe('bench executor through Appium', () => {
  it('runs a seeded task on the simulator driver and checks its app state there', async () => {
    const profile = path.join(root, 'sim-appium-test.yaml');
    await writeFile(profile, [
      'kind: appium', 'name: sim-appium-test', 'description: simulator driver on a test port',
      'appium:', `  url: ${server.url}`, '  capabilities:', '    platformName: Android', '    appium:automationName: SenseActSim',
      'settle:', '  intervalMs: 0', '  timeoutMs: 3000',
    ].join('\n'));
    // A task whose start state is seeded data: its check fails unless the driver got it.
    const task = suite.tasks.find((candidate) => candidate.id === 'notes-delete-diary')!;
    expect(task.start.state ?? task.start.launch).toBeDefined();
    const controller = new AbortController();
    const handle = await createBenchExecutor({ suite: 'sim', device: profile, faults: undefined, policy: 'oracle', outDir: root, cwd: repoRoot, env: {}, signal: controller.signal });
    try {
      const result = await handle.executor({ task, mode: 'senseact', repeat: 0, outDir: root, traceDir: path.join(root, 'traces', task.id, 'senseact-r0'), signal: controller.signal });
      expect(result.error).toBeNull();
      expect(result.success, result.reason).toBe(true);
      expect(result.reason).not.toContain('inconclusive');
    } finally {
      await handle.close();
    }
  });
});
