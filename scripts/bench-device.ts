// Per-call device latency on the simulator, through Appium and in-process.
//
//   npx tsx scripts/bench-device.ts [--steps 100]
//
// Starts an Appium 3 server with the SenseActSim driver on a free port, drives it with
// AppiumDevice (the WebdriverIO path real phones use) and prints median and p95 per call
// kind (observe, tap, type, scroll), the median of one step (observe + act), and how a
// step's time splits between the driver's command handlers (reported by the driver
// itself through `mobile: senseactStats`) and everything else (client, HTTP, Appium's
// routing). The same workload on the in-process SimDevice is printed for comparison.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { AppiumDevice } from '../src/device/appium-device.js';
import { startAppiumServer } from '../src/device/appium-server.js';
import type { CallRecord, RecordingDevice } from '../src/device/device.js';
import { loadDeviceProfile } from '../src/device/device-profile.js';
import { SimDevice } from '../src/device/sim-device.js';
import { Simulator } from '../src/sim/simulator.js';
import { quantile, type CommandStatsSnapshot } from '../src/sim/appium-driver/command-stats.js';
import { elementBounds, SourceDocument } from '../src/sim/appium-driver/source-document.js';

const { values } = parseArgs({ options: { steps: { type: 'string', default: '100' } } });
const steps = Number(values.steps);

type Kind = 'observe' | 'act:tap' | 'act:type' | 'act:scroll';

function centerOf(xml: string, xpath: string): [number, number] {
  const element = new SourceDocument(xml).find('xpath', xpath)[0];
  const bounds = element ? elementBounds(element) : undefined;
  if (!bounds) throw new Error(`bench: no node matches ${xpath}`);
  return [Math.floor((bounds[0] + bounds[2]) / 2), Math.floor((bounds[1] + bounds[3]) / 2)];
}

function boundsOf(xml: string, xpath: string): [number, number, number, number] {
  const element = new SourceDocument(xml).find('xpath', xpath)[0];
  const bounds = element ? elementBounds(element) : undefined;
  if (!bounds) throw new Error(`bench: no node matches ${xpath}`);
  return bounds;
}

/**
 * The workload: in Settings, observe + tap (on the page title, which has no effect),
 * observe + scroll down, observe + scroll up; in a Notes note, observe + type one
 * character. Returns the
 * per-step (observe + act) client latencies; the device's call log has the rest.
 */
async function workload(device: RecordingDevice, count: number): Promise<number[]> {
  const stepMs: number[] = [];
  const step = async (act: () => Promise<{ latencyMs: number }>): Promise<string> => {
    const observation = await device.observe();
    const acted = await act();
    stepMs.push(observation.latencyMs + acted.latencyMs);
    return observation.xml;
  };
  // With an activity, launch starts a fresh task: every run begins at the top of the list.
  await device.act({ type: 'launch', packageName: 'com.android.settings', activity: '.Settings' });
  const settings = await device.observe();
  const title = centerOf(settings.xml, "//*[@text='Settings']");
  const list = boundsOf(settings.xml, "//*[@scrollable='true']");
  for (let index = 0; index < count; index++) {
    // The tap lands on the page title while the list is at the top: it has no effect.
    await step(() => device.act({ type: 'tap', point: title }));
    await step(() => device.act({ type: 'scroll', bounds: list, direction: 'down' }));
    await step(() => device.act({ type: 'scroll', bounds: list, direction: 'up' }));
  }
  await device.act({ type: 'launch', packageName: 'com.simplemobiletools.notes.pro', activity: '.activities.MainActivity' });
  const notes = await device.observe();
  await device.act({ type: 'tap', point: centerOf(notes.xml, "//*[contains(@resource-id, 'note_item')]") });
  const editor = await device.observe();
  const field = centerOf(editor.xml, '//android.widget.EditText');
  await device.act({ type: 'clear', point: field });
  for (let index = 0; index < count; index++) {
    await step(() => device.act({ type: 'type', text: 'x' }));
    if (index % 20 === 19) await device.act({ type: 'clear' });
  }
  return stepMs;
}

function summarize(records: readonly CallRecord[], kind: Kind): { count: number; median: number; p95: number } {
  const sorted = records.filter((record) => record.kind === kind && record.ok).map((record) => record.latencyMs).sort((a, b) => a - b);
  return { count: sorted.length, median: quantile(sorted, 0.5), p95: quantile(sorted, 0.95) };
}

function printTable(title: string, records: readonly CallRecord[], stepMs: number[]): void {
  process.stdout.write(`\n${title}\n`);
  process.stdout.write(`  ${'call'.padEnd(12)}${'n'.padStart(6)}${'median ms'.padStart(12)}${'p95 ms'.padStart(10)}\n`);
  for (const kind of ['observe', 'act:tap', 'act:type', 'act:scroll'] as const) {
    const { count, median, p95 } = summarize(records, kind);
    process.stdout.write(`  ${kind.padEnd(12)}${String(count).padStart(6)}${median.toFixed(2).padStart(12)}${p95.toFixed(2).padStart(10)}\n`);
  }
  const sorted = [...stepMs].sort((a, b) => a - b);
  process.stdout.write(`  ${'step (observe + act)'.padEnd(24)} median ${quantile(sorted, 0.5).toFixed(2)} ms, p95 ${quantile(sorted, 0.95).toFixed(2)} ms (target: median ≤ 30 ms)\n`);
}

/** CPU time (user + system) of process `pid` in ms from /proc (Linux; assumes 100 ticks per second), or undefined. */
function processCpuMs(pid: number): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return undefined;
  }
}

async function driverStats(url: string, sessionId: string, reset: boolean): Promise<CommandStatsSnapshot> {
  const response = await fetch(`${url}/session/${sessionId}/execute/sync`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ script: 'mobile: senseactStats', args: [{ reset }] }),
  });
  const body = (await response.json()) as { value: CommandStatsSnapshot };
  return body.value;
}

const server = await startAppiumServer({ logLevel: 'error' });
try {
  const profile = loadDeviceProfile('sim-appium');
  if (profile.kind !== 'appium') throw new Error('devices/sim-appium.yaml must be an appium profile');
  const device = await AppiumDevice.connect({
    name: profile.name,
    url: server.url,
    capabilities: profile.appium.capabilities,
    ...(profile.settle === undefined ? {} : { settle: profile.settle }),
  });
  const sessionId = device.sessionId ?? '';
  // Warm-up (JIT, first-use caches), not measured.
  await workload(device, 5);
  await driverStats(server.url, sessionId, true);
  const firstRecord = device.callLog.length;
  const wallStart = performance.now();
  const clientCpuStart = process.cpuUsage();
  const serverCpuStart = processCpuMs(server.pid);
  const stepMs = await workload(device, steps);
  const wallMs = performance.now() - wallStart;
  const clientCpu = process.cpuUsage(clientCpuStart);
  const serverCpuEnd = processCpuMs(server.pid);
  const stats = await driverStats(server.url, sessionId, false);
  const records = device.callLog.slice(firstRecord);
  await device.close();

  // The floor any WebDriver command pays on this machine right now: one HTTP round trip to Appium.
  const roundTrips: number[] = [];
  for (let index = 0; index < 50; index++) {
    const start = performance.now();
    await (await fetch(`${server.url}/status`)).json();
    roundTrips.push(performance.now() - start);
  }
  roundTrips.sort((a, b) => a - b);

  process.stdout.write(`bench-device: ${steps} iterations per workload, Appium ${server.url}, profile sim-appium (settle intervalMs ${profile.settle?.intervalMs ?? 'default'})\n`);
  process.stdout.write(`  baseline: GET /status round trip median ${quantile(roundTrips, 0.5).toFixed(2)} ms, p95 ${quantile(roundTrips, 0.95).toFixed(2)} ms (machine load average ${(await import('node:os')).loadavg()[0]?.toFixed(1)})\n`);
  printTable('Through Appium 3 (WebdriverIO → Appium → SenseActSim driver):', records, stepMs);

  const clientMs = records.reduce((sum, record) => sum + record.latencyMs, 0);
  const statsWithoutSelf = Object.entries(stats.commands).filter(([name]) => name !== 'mobile: senseactStats');
  const driverMs = statsWithoutSelf.reduce((sum, [, stat]) => sum + stat.totalMs, 0);
  const requests = statsWithoutSelf.reduce((sum, [, stat]) => sum + stat.count, 0);
  process.stdout.write(`\n  Where the time goes (all measured calls, ${records.length} device calls, ${requests} WebDriver commands, wall ${wallMs.toFixed(0)} ms):\n`);
  process.stdout.write(`    client-observed total      ${clientMs.toFixed(1)} ms\n`);
  process.stdout.write(`    inside driver handlers     ${driverMs.toFixed(1)} ms (${((100 * driverMs) / clientMs).toFixed(1)}%)\n`);
  process.stdout.write(`    client + HTTP + Appium     ${(clientMs - driverMs).toFixed(1)} ms (${((100 * (clientMs - driverMs)) / clientMs).toFixed(1)}%), ${((clientMs - driverMs) / requests).toFixed(2)} ms per command\n`);
  const clientCpuMs = (clientCpu.user + clientCpu.system) / 1000;
  const serverCpuMs = serverCpuStart === undefined || serverCpuEnd === undefined ? undefined : serverCpuEnd - serverCpuStart;
  process.stdout.write(`    CPU time per step          client ${(clientCpuMs / stepMs.length).toFixed(2)} ms${serverCpuMs === undefined ? '' : ` + Appium server ${(serverCpuMs / stepMs.length).toFixed(2)} ms = ${((clientCpuMs + serverCpuMs) / stepMs.length).toFixed(2)} ms`} (what a step costs without other load; the workload also has a few unmeasured setup calls)\n`);
  process.stdout.write(`    driver handler medians:    ${statsWithoutSelf.map(([name, stat]) => `${name} ${stat.medianMs.toFixed(2)} ms ×${stat.count}`).join(', ')}\n`);

  const sim = new SimDevice(new Simulator({ seed: 1, faults: 'none' }), { name: 'sim' });
  await workload(sim, 5);
  const simFirst = sim.callLog.length;
  const simSteps = await workload(sim, steps);
  printTable('In-process (SimDevice, same workload):', sim.callLog.slice(simFirst), simSteps);
} finally {
  await server.stop();
}
