import { startAppiumServer, type AppiumServerHandle } from '../../../src/device/appium-server.js';

/**
 * Starts one Appium 3 server with the simulator driver on a free port of 127.0.0.1 (one
 * per test file, reused by its tests). Builds the driver into dist/ first when stale.
 */
export async function startSimAppium(): Promise<AppiumServerHandle> {
  return await startAppiumServer({ host: '127.0.0.1', port: 0, withSimDriver: true, logLevel: 'error' });
}

/** Capabilities for a simulator session through Appium. */
export function simCapabilities(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { platformName: 'Android', 'appium:automationName': 'SenseActSim', 'senseact:seed': 1, 'senseact:faults': 'none', ...extra };
}
