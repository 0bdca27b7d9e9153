// A benchmark on a real Selenium Grid 4 (hub + 2 relay nodes + 2 Appium servers with the
// simulator's driver, all started here from node_modules and stopped at the end): runs
// spread over both nodes and give what the in-process simulator gives for the same
// seeds; a node killed mid-run leaves infrastructure errors that --resume finishes on
// the node that is left. Needs Java 17+ (.ci/run installs it); skipped, saying so, without.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TaskRunResult } from '../../../src/agent/task-run-result.js';
import type { CliIo } from '../../../src/cli/cli-io.js';
import { main } from '../../../src/cli/main.js';
import { createBenchExecutor } from '../../../src/bench/compose.js';
import { runBenchmark } from '../../../src/bench/run-benchmark.js';
import { createDevice } from '../../../src/device/create-device.js';
import { DeviceError } from '../../../src/device/device-error.js';
import { parseDeviceProfile } from '../../../src/device/device-profile.js';
import { startLocalSimGrid, type LocalSimGrid } from '../../../src/device/local-sim-grid.js';
import { loadSuite } from '../../../src/tasks/load-task-file.js';
import type { Task } from '../../../src/tasks/task-schema.js';
import { javaTool, toolOrSkip } from '../../helpers/system-tool.js';

const repoRoot = path.resolve(import.meta.dirname, '..', '..', '..');
// Without Java this skips, saying so; .ci/run installs it and sets SENSEACT_REQUIRE_JAVA=1, which makes a skip a failure.
const java = toolOrSkip(javaTool, import.meta.filename, 'bench on a Selenium Grid');
// Short tasks of every app: the point is the grid, not the agent.
const taskIds = [
  'clock-alarm-4pm-off', 'clock-alarm-9am-weekends', 'clock-open-clock-page',
  'contacts-query-13', 'contacts-bob-favorite', 'contacts-find-alice',
  'notes-open-general', 'notes-query-shopping-done',
  'settings-query-apps-storage', 'settings-open', 'settings-query-airplane', 'settings-dark-theme',
];

/** What must not depend on where the simulator ran. */
function outcome(result: TaskRunResult): unknown {
  return { id: result.id, success: result.success, steps: result.steps, verification: result.verification, llmCalls: result.llmCalls, vlmCalls: result.vlmCalls, error: result.error };
}

if (java !== undefined) {
  describe('bench on a Selenium Grid of two simulator nodes', () => {
    let grid: LocalSimGrid;
    let root: string;
    let profile: string;
    let tasks: Task[];
    const sessionsCreated = new Map<string, number>();
    const sessionCommands = new Map<string, number>();

    beforeAll(async () => {
      root = await mkdtemp(path.join(tmpdir(), 'senseact-bench-grid-'));
      const suite = await loadSuite('sim', { tasksRoot: path.join(repoRoot, 'tasks') });
      tasks = taskIds.map((id) => {
        const task = suite.tasks.find((candidate) => candidate.id === id);
        if (task === undefined) throw new Error(`task ${id} is not in the sim suite any more: pick another short task`);
        return task;
      });
      grid = await startLocalSimGrid({
        nodes: 2,
        workDir: path.join(root, 'grid'),
        appiumLogLevel: 'info',
        // Count sessions as the Appium servers themselves log them.
        onOutput: (line) => {
          const server = /^\[(sim-\d+)\] .*Session created with session id/.exec(line)?.[1];
          if (server !== undefined) sessionsCreated.set(server, (sessionsCreated.get(server) ?? 0) + 1);
          // A command inside a session (not its deletion): the client holds that session.
          const commanded = /^\[(sim-\d+)\] .*--> (?:GET|POST) \/session\/[^/\s]+\/\S/.exec(line)?.[1];
          if (commanded !== undefined) sessionCommands.set(commanded, (sessionCommands.get(commanded) ?? 0) + 1);
        },
      });
      profile = path.join(root, 'sim-grid.yaml');
      await writeFile(profile, [
        'kind: appium', 'name: sim-grid-test', 'description: simulator nodes behind a Selenium Grid started by the test',
        'appium:', `  url: ${grid.url}`, '  grid: true', '  capabilities:', '    platformName: Android', '    appium:automationName: SenseActSim',
        'settle:', '  intervalMs: 0', '  timeoutMs: 3000',
        // Longer than the hub takes to mark a dead node DOWN (its health check runs every few seconds).
        'retry:', '  maxAttempts: 12', '  baseDelayMs: 200', '  maxDelayMs: 2000', '  budgetMs: 20000',
        'callTimeoutMs: 20000',
      ].join('\n'));
    }, 180_000);
    afterAll(async () => {
      await grid?.stop();
      await rm(root, { recursive: true, force: true });
    }, 60_000);

    async function bench(device: string, outDir: string, options: { resume?: boolean; onProgress?: (done: number) => void; concurrency?: number } = {}) {
      const controller = new AbortController();
      const handle = await createBenchExecutor({ suite: 'sim', device, faults: undefined, policy: 'oracle', outDir, cwd: repoRoot, env: {}, signal: controller.signal });
      try {
        return await runBenchmark({
          tasks, modes: ['senseact'], repeat: 1, concurrency: options.concurrency ?? 2, outDir, resume: options.resume ?? false, breakAfterInfrastructureErrors: 0,
          executor: handle.executor, policy: handle.policy, suite: 'sim', device,
          ...(options.onProgress ? { onProgress: (progress: { done: number }) => options.onProgress?.(progress.done) } : {}),
        });
      } finally {
        await handle.close();
      }
    }

    // The same tasks on the in-process simulator, once for both tests.
    let inProcessRun: ReturnType<typeof bench> | undefined;
    const inProcess = (): ReturnType<typeof bench> => (inProcessRun ??= bench('sim', path.join(root, 'in-process'), { concurrency: 1 }));

    it('spreads the runs over both nodes, with the results of the in-process simulator', async () => {
      const reference = await inProcess();
      const before = new Map(sessionsCreated);
      const onGrid = await bench(profile, path.join(root, 'grid-run'));
      expect(onGrid.complete).toBe(true);
      expect(onGrid.tasks.filter((result) => result.error !== null).map((result) => `${result.id}: ${result.error}`)).toEqual([]);
      // Both nodes served sessions: as the servers logged them, and as each run recorded.
      for (const node of ['sim-1', 'sim-2']) expect((sessionsCreated.get(node) ?? 0) - (before.get(node) ?? 0), node).toBeGreaterThan(0);
      expect(new Set(onGrid.tasks.map((result) => result.servedBy))).toEqual(new Set(['sim-1', 'sim-2']));
      expect(reference.tasks.every((result) => result.servedBy === undefined)).toBe(true);
      expect(onGrid.tasks.map(outcome)).toEqual(reference.tasks.map(outcome));
      expect(onGrid.tasks.filter((result) => result.success).length).toBeGreaterThanOrEqual(10);
    }, 240_000);

    it('senseact devices check lists the nodes and the slots that fit a profile', async () => {
      let stdout = '';
      const io: CliIo = { stdout: (text) => (stdout += text), stderr: (text) => (stdout += text), cwd: repoRoot, env: {} };
      expect(await main(['devices', 'check', 'sim-grid', '--url', grid.url], io)).toBe(0);
      expect(stdout).toContain(`ok   Selenium Grid reachable at ${grid.url}: Selenium Grid ready., 2 node(s)`);
      expect(stdout.match(/node http:\/\/127\.0\.0\.1:\d+: UP, 0\/1 slot\(s\) busy, fits this profile/g)).toHaveLength(2);
      expect(stdout).toContain('2 slot(s) on nodes that are up fit the profile');
      expect(stdout).toMatch(/device online: session created \(1080×2400, 420 dpi, on sim-[12]\)/);
      // A profile no node fits fails the check before any session is asked for.
      const unfit = path.join(root, 'unfit.yaml');
      await writeFile(unfit, ['kind: appium', 'name: unfit', 'appium:', `  url: ${grid.url}`, '  grid: true', '  capabilities:', '    platformName: Android', '    appium:automationName: SenseActSim', '    senseact:node: sim-9'].join('\n'));
      stdout = '';
      expect(await main(['devices', 'check', unfit], io)).toBe(1);
      expect(stdout).toContain("FAIL no node that is UP fits the profile's capabilities");
    }, 60_000);

    it('refuses at once a session no node can serve (instead of queueing it)', async () => {
      const started = Date.now();
      const error = await createDevice(parseDeviceProfile({ kind: 'appium', name: 'nobody', appium: { url: grid.url, grid: true, capabilities: { platformName: 'Android', 'appium:automationName': 'UiAutomator2' } }, callTimeoutMs: 20_000 }, 'test')).catch((caught: unknown) => caught);
      expect(DeviceError.isInstance(error) && error.reason).toBe('session-not-created');
      expect((error as Error).message).toContain('has no node whose stereotype accepts the capabilities');
      expect(Date.now() - started).toBeLessThan(15_000);
      // The hub compares an extension capability both sides name: asking for a node by name gets that node, or none.
      const named = (node: string) => parseDeviceProfile({ kind: 'appium', name: node, appium: { url: grid.url, grid: true, capabilities: { platformName: 'Android', 'appium:automationName': 'SenseActSim', 'senseact:node': node } }, callTimeoutMs: 20_000 }, 'test');
      const device = await createDevice(named('sim-2'));
      expect(device.info.servedBy).toBe('sim-2');
      await device.close();
      const missing = await createDevice(named('sim-9')).catch((caught: unknown) => caught);
      expect(DeviceError.isInstance(missing) && missing.reason).toBe('session-not-created');
    }, 30_000);

    it('turns a node killed mid-run into infrastructure errors that --resume finishes on the other node', async () => {
      const outDir = path.join(root, 'kill-run');
      const [victim, survivor] = grid.nodes as [LocalSimGrid['nodes'][number], LocalSimGrid['nodes'][number]];
      let killed = false;
      const created = (): number => sessionsCreated.get(victim.name) ?? 0;
      let doneSoFar = 0;
      let sessionsThen: number | undefined;
      // Kill the victim while a run is on it: once two runs are done, at the first command
      // its server logs in a session opened after that. Killing at the session's creation
      // raced the reply through the hub: the hub then saw a failed new-session request,
      // which the client retries on the other node, and no run was hit.
      let commandsThen: number | undefined;
      const watcher = setInterval(() => {
        if (killed || doneSoFar < 2) return;
        sessionsThen ??= created();
        if (created() === sessionsThen) return;
        commandsThen ??= sessionCommands.get(victim.name) ?? 0;
        if ((sessionCommands.get(victim.name) ?? 0) === commandsThen) return;
        killed = true;
        victim.relay.kill();
        process.kill(victim.appium.pid, 'SIGKILL');
      }, 20);
      let first;
      try {
        first = await bench(profile, outDir, { onProgress: (done) => { doneSoFar = done; } });
      } finally {
        clearInterval(watcher);
      }
      expect(killed).toBe(true);
      const errored = first.tasks.filter((result) => result.error !== null);
      expect(errored.length).toBeGreaterThan(0);
      expect(errored.every((result) => result.reason.startsWith('infrastructure error'))).toBe(true);
      // The run on the victim lost its session; later runs waited for the hub to stop choosing the dead node.
      expect(errored.some((result) => /session of device 'sim-grid-test' .* was lost/.test(result.error ?? ''))).toBe(true);
      expect(errored.length).toBeLessThan(tasks.length - 4);
      // No run silently moved to the other device halfway: every result that is not an error ran on one node.
      const finished = first.tasks.filter((result) => result.error === null);
      expect(finished.every((result) => result.servedBy === 'sim-1' || result.servedBy === 'sim-2')).toBe(true);

      const resumed = await bench(profile, outDir, { resume: true });
      expect(resumed.complete).toBe(true);
      expect(resumed.tasks.filter((result) => result.error !== null)).toEqual([]);
      const rerun = new Set(errored.map((result) => result.id));
      expect(resumed.tasks.filter((result) => rerun.has(result.id)).map((result) => result.servedBy)).toEqual(errored.map(() => survivor.name));
      expect(resumed.tasks.map(outcome)).toEqual((await inProcess()).tasks.map(outcome));
    }, 240_000);
  });
}
