import { describe, expect, it } from 'vitest';
import { createDevice } from '../../../src/device/create-device.js';
import { DeviceError } from '../../../src/device/device-error.js';
import { loadDeviceProfile, parseDeviceProfile } from '../../../src/device/device-profile.js';
import { pngSize } from '../../../src/device/png-size.js';
import { SimDevice } from '../../../src/device/sim-device.js';
import { Simulator } from '../../../src/sim/simulator.js';
import { elementBounds, SourceDocument } from '../../../src/sim/appium-driver/source-document.js';

function boundsOf(xml: string, xpath: string): [number, number, number, number] | undefined {
  const element = new SourceDocument(xml).find('xpath', xpath)[0];
  return element ? elementBounds(element) : undefined;
}

describe('SimDevice (in-process simulator)', () => {
  it('is what createDevice makes of the sim profile', async () => {
    const device = await createDevice(loadDeviceProfile('sim'));
    expect(device).toBeInstanceOf(SimDevice);
    expect(device.info).toEqual({ name: 'sim', kind: 'sim', width: 1080, height: 2400, density: 420 });
    const observation = await device.observe();
    expect(observation).toMatchObject({ dialect: 'appium-uia2', packageName: 'com.google.android.apps.nexuslauncher', settled: true, polls: 2 });
  });

  it('reports simulator options it cannot start with as DeviceError, naming the profile', async () => {
    const error = await createDevice(parseDeviceProfile({ kind: 'sim', name: 'broken', sim: { faults: 'catastrophic' } }, '<test>')).catch((caught: unknown) => caught);
    expect(DeviceError.isInstance(error) && error.reason).toBe('session-not-created');
    expect((error as Error).message).toMatch(/The simulator of profile 'broken' did not start: .*catastrophic/);
  });

  it('launches, scrolls, taps and goes back', async () => {
    const device = new SimDevice(new Simulator({ seed: 1, faults: 'none' }));
    await device.act({ type: 'launch', packageName: 'com.android.settings' });
    const home = await device.observe();
    const list = boundsOf(home.xml, "//*[@scrollable='true']");
    const top = boundsOf(home.xml, "//*[@text='Battery']")?.[1] ?? 0;
    await device.act({ type: 'scroll', bounds: list ?? [0, 0, 1, 1], direction: 'down', percent: 0.3 });
    const scrolled = await device.observe();
    expect(boundsOf(scrolled.xml, "//*[@text='Battery']")?.[1]).toBeLessThan(top);
    await device.act({ type: 'scroll', bounds: list ?? [0, 0, 1, 1], direction: 'up', percent: 0.3 });
    expect(boundsOf((await device.observe()).xml, "//*[@text='Battery']")?.[1]).toBe(top);
    await device.act({ type: 'key', key: 'home' });
    expect((await device.observe()).packageName).toBe('com.google.android.apps.nexuslauncher');
    expect(device.callLog.map((call) => call.kind)).toEqual(['act:launch', 'observe', 'act:scroll', 'observe', 'act:scroll', 'observe', 'act:key', 'observe']);
    expect(device.callLog.every((call) => call.ok)).toBe(true);
  });

  it('settles on the virtual clock through a slow settle', async () => {
    const device = new SimDevice(new Simulator({ seed: 1, faults: { 'slow-settle': { rate: 1, observations: 3 } } }));
    await device.act({ type: 'launch', packageName: 'com.android.settings' });
    const observation = await device.observe();
    expect(observation.settled).toBe(true);
    expect(observation.polls).toBeGreaterThanOrEqual(4);
    expect(observation.xml).not.toContain('android.widget.ProgressBar');
  });

  it('turns simulator misuse into DeviceError(command-failed), and aborts', async () => {
    const device = new SimDevice(new Simulator({ seed: 1 }));
    const typed = await device.act({ type: 'type', text: 'hello' }).catch((caught: unknown) => caught);
    expect(DeviceError.isInstance(typed) && typed.reason).toBe('command-failed');
    expect((typed as Error).message).toMatch(/typeText/);
    const offScreen = await device.act({ type: 'tap', point: [5000, 10] }).catch((caught: unknown) => caught);
    expect(DeviceError.isInstance(offScreen) && offScreen.reason).toBe('command-failed');
    const controller = new AbortController();
    controller.abort();
    const aborted = await device.observe({ signal: controller.signal }).catch((caught: unknown) => caught);
    expect(DeviceError.isInstance(aborted) && aborted.reason).toBe('aborted');
    expect(device.callLog.map((call) => call.ok)).toEqual([false, false, false]);
  });

  it('takes a PNG screenshot', async () => {
    const device = new SimDevice(new Simulator({ seed: 1 }));
    const shot = await device.screenshot();
    expect(pngSize(shot.png)).toEqual({ width: shot.width, height: shot.height });
    expect(shot.width).toBeGreaterThan(0);
  });
});
