// Starts Appium 3 from node_modules with the project-local Appium home (.appium/), so
// nothing is installed globally and no network is needed.
//
//   npx tsx scripts/start-appium.ts [--port 4723] [--host 127.0.0.1] [--sim] [--log-level info]
//
// --sim (what `npm run sim:appium` passes) builds dist/ when stale and links the
// simulator's driver (automationName SenseActSim) into .appium/. Without it, the server
// uses whatever drivers .appium/ holds (scripts/setup-emulator.sh installs UiAutomator2
// there). The server runs until Ctrl-C.
import { parseArgs } from 'node:util';
import { startAppiumServer } from '../src/device/appium-server.js';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '4723' },
    host: { type: 'string', default: '127.0.0.1' },
    sim: { type: 'boolean', default: false },
    'log-level': { type: 'string', default: 'info' },
  },
});

const server = await startAppiumServer({
  port: Number(values.port),
  host: values.host,
  withSimDriver: values.sim,
  logLevel: values['log-level'],
  onOutput: (line) => process.stdout.write(`${line}\n`),
});
process.stdout.write(`Appium listening at ${server.url} (APPIUM_HOME=${server.appiumHome}, pid ${server.pid})${values.sim ? '; simulator driver: appium:automationName SenseActSim' : ''}\n`);

const shutdown = (): void => {
  void server.stop().then(() => process.exit(0));
};
process.once('SIGINT', shutdown);
process.once('SIGTERM', shutdown);
