import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDevice } from '../../../src/device/create-device.js';
import type { RecordingDevice } from '../../../src/device/device.js';
import { loadDeviceProfile } from '../../../src/device/device-profile.js';
import { pngSize } from '../../../src/device/png-size.js';
import { elementBounds, SourceDocument } from '../../../src/sim/appium-driver/source-document.js';

/**
 * Against a real emulator or phone. Runs only when asked:
 *   SENSEACT_E2E_DEVICE=emulator npx vitest run tests/e2e
 * with the emulator booted and Appium running (`npx tsx scripts/start-appium.ts`);
 * SENSEACT_E2E_APPIUM_URL overrides the profile's server URL. Uses the stock Settings app.
 */
const profileName = process.env['SENSEACT_E2E_DEVICE'];
const appiumUrl = process.env['SENSEACT_E2E_APPIUM_URL'];

describe.skipIf(profileName === undefined)(`AppiumDevice on a real device (SENSEACT_E2E_DEVICE=${profileName ?? ''})`, () => {
  let device: RecordingDevice;

  beforeAll(async () => {
    device = await createDevice(loadDeviceProfile(profileName ?? ''), appiumUrl === undefined ? {} : { url: appiumUrl });
  }, 300_000);

  afterAll(async () => {
    await device?.close();
  });

  it('observes a settled UiAutomator2 hierarchy with package and activity', async () => {
    await device.act({ type: 'key', key: 'home' });
    const observation = await device.observe();
    expect(observation.xml).toMatch(/<hierarchy [^>]*rotation="\d" width="\d+" height="\d+"/);
    expect(observation.packageName).not.toBe('');
    expect(observation.settled).toBe(true);
  }, 60_000);

  it('launches Settings, scrolls its list, goes back home', async () => {
    await device.act({ type: 'launch', packageName: 'com.android.settings' });
    const home = await device.observe();
    expect(home.packageName).toBe('com.android.settings');
    const scrollable = new SourceDocument(home.xml).find('xpath', "//*[@scrollable='true']")[0];
    const bounds = scrollable ? elementBounds(scrollable) : undefined;
    expect(bounds).toBeDefined();
    await device.act({ type: 'scroll', bounds: bounds ?? [0, 0, 1, 1], direction: 'down' });
    const scrolled = await device.observe();
    expect(scrolled.xml).not.toBe(home.xml);
    await device.act({ type: 'key', key: 'back' });
    await device.act({ type: 'key', key: 'home' });
    expect((await device.observe()).packageName).not.toBe('com.android.settings');
  }, 120_000);

  it('takes a PNG screenshot of the screen size', async () => {
    const shot = await device.screenshot();
    expect(pngSize(shot.png)).toEqual({ width: shot.width, height: shot.height });
    expect(Math.max(shot.width, shot.height)).toBe(Math.max(device.info.width, device.info.height));
  }, 60_000);
});
