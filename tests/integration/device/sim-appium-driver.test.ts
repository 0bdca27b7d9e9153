import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { remote } from 'webdriverio';
import type { AppiumServerHandle } from '../../../src/device/appium-server.js';
import { pngSize } from '../../../src/device/png-size.js';
import { simCapabilities, startSimAppium } from './sim-appium-server.js';

type Browser = Awaited<ReturnType<typeof remote>>;

/** WebdriverIO used the way its users drive UiAutomator2, against the simulator's driver. */
describe('SenseActSim driver through WebdriverIO', () => {
  let server: AppiumServerHandle;
  let browser: Browser | undefined;

  beforeAll(async () => {
    server = await startSimAppium();
  }, 120_000);

  afterEach(async () => {
    await browser?.deleteSession();
    browser = undefined;
  });

  afterAll(async () => {
    await server?.stop();
  });

  async function session(extra: Record<string, unknown> = {}): Promise<Browser> {
    browser = await remote({
      hostname: '127.0.0.1',
      port: server.port,
      path: '/',
      logLevel: 'silent',
      connectionRetryCount: 0,
      capabilities: simCapabilities(extra) as WebdriverIO.Capabilities,
    });
    return browser;
  }

  it('is a native Android session with the screen in its capabilities', async () => {
    const driver = await session();
    expect(driver.isAndroid).toBe(true);
    expect(driver.isMobile).toBe(true);
    expect(driver.capabilities).toMatchObject({ platformName: 'Android', deviceScreenSize: '1080x2400', deviceScreenDensity: 420 });
    expect(await driver.getWindowRect()).toEqual({ x: 0, y: 0, width: 1080, height: 2400 });
  });

  it('starts the app named by appium:appPackage/appActivity', async () => {
    const driver = await session({ 'appium:appPackage': 'com.android.settings', 'appium:appActivity': '.Settings' });
    expect(await driver.getCurrentPackage()).toBe('com.android.settings');
    expect(await driver.getCurrentActivity()).toBe('.Settings');
  });

  it('finds elements by accessibility id, id, xpath and class name, and reads them', async () => {
    const driver = await session();
    const clock = driver.$('~Clock');
    expect(await clock.isExisting()).toBe(true);
    expect(await clock.getText()).toBe('Clock');
    expect(await clock.isDisplayed()).toBe(true);
    expect(await clock.isEnabled()).toBe(true);
    expect(await clock.getAttribute('content-desc')).toBe('Clock');
    expect(await clock.getAttribute('class')).toBe('android.widget.TextView');
    const rect = await driver.getElementRect(await clock.elementId);
    expect(rect.width).toBeGreaterThan(0);

    const byXpath = await driver.$$('//*[@content-desc="Back" or @content-desc="Home"]');
    expect(byXpath.length).toBe(2);
    const byClass = await driver.$$('android.widget.FrameLayout');
    expect(byClass.length).toBeGreaterThan(0);
    expect(await driver.$('~No such thing').isExisting()).toBe(false);

    await clock.click();
    expect(await driver.getCurrentPackage()).toBe('com.google.android.deskclock');
    // A short id resolves under any package, as UiAutomator2 does; the full id works too.
    const anyId = await driver.$$('id=status_bar');
    expect(anyId.length).toBe(1);
    expect(await driver.$('id=com.android.systemui:id/status_bar').isExisting()).toBe(true);
  });

  it('sets and clears a field by element, and types with mobile: type', async () => {
    const driver = await session({ 'appium:appPackage': 'com.simplemobiletools.notes.pro' });
    await driver.$('id=note_item').click();
    const field = driver.$('android.widget.EditText');
    await field.setValue('Replaced text');
    expect(await field.getText()).toBe('Replaced text');
    await driver.execute('mobile: type', { text: ' and more' });
    expect(await field.getText()).toBe('Replaced text and more');
    // WebdriverIO's keys() sends W3C key actions.
    await driver.keys(['!', '?']);
    expect(await field.getText()).toBe('Replaced text and more!?');
    expect(await driver.execute('mobile: isKeyboardShown', {})).toBe(true);
    await driver.execute('mobile: hideKeyboard', {});
    expect(await driver.execute('mobile: isKeyboardShown', {})).toBe(false);
    await field.clearValue();
    expect(await field.getText()).toBe('');
    // The element id survives the edits: the node keeps its identity.
    expect(await field.isExisting()).toBe(true);
  });

  it('runs W3C pointer actions and mobile: gestures', async () => {
    const driver = await session({ 'appium:appPackage': 'com.android.settings' });
    const title = driver.$('//*[@text="Network & internet"]');
    const top = (await title.getLocation()).y;

    const scrolled = await driver.execute('mobile: scrollGesture', { left: 0, top: 600, width: 1080, height: 1600, direction: 'down', percent: 0.5 });
    expect(scrolled).toBe(true);
    const afterScroll = await driver.$('//*[@text="Network & internet"]');
    expect(!(await afterScroll.isExisting()) || (await afterScroll.getLocation()).y < top).toBe(true);

    // Finger down, moved down, up: the list comes back to the top.
    await driver.action('pointer', { parameters: { pointerType: 'touch' } }).move({ x: 540, y: 800 }).down().move({ x: 540, y: 2200, duration: 200 }).up().perform();
    expect((await driver.$('//*[@text="Network & internet"]').getLocation()).y).toBe(top);
    // At the top already: nothing more to scroll up.
    expect(await driver.execute('mobile: scrollGesture', { left: 0, top: 600, width: 1080, height: 1600, direction: 'up', percent: 0.5 })).toBe(false);

    await driver.execute('mobile: clickGesture', { elementId: await driver.$('//*[@text="Network & internet"]').elementId });
    expect(await driver.$('//*[@text="Search settings"]').isExisting()).toBe(false);
    await driver.back();
    expect(await driver.$('//*[@text="Search settings"]').isExisting()).toBe(true);

    await driver.execute('mobile: pressKey', { keycode: 3 });
    expect(await driver.getCurrentPackage()).toBe('com.google.android.apps.nexuslauncher');
    await driver.execute('mobile: longClickGesture', { elementId: await driver.$('~Clock').elementId });
    expect(await driver.$('//android.widget.Toast').isExisting()).toBe(true);
  });

  it('starts, activates and terminates apps', async () => {
    const driver = await session();
    await driver.execute('mobile: startActivity', { intent: 'com.android.settings/.Settings' });
    expect(await driver.getCurrentPackage()).toBe('com.android.settings');
    expect(await driver.execute('mobile: queryAppState', { appId: 'com.android.settings' })).toBe(4);
    await driver.execute('mobile: activateApp', { appId: 'com.simplemobiletools.notes.pro' });
    expect(await driver.getCurrentPackage()).toBe('com.simplemobiletools.notes.pro');
    await driver.execute('mobile: terminateApp', { appId: 'com.simplemobiletools.notes.pro' });
    expect(await driver.getCurrentPackage()).toBe('com.google.android.apps.nexuslauncher');
  });

  it('answers the legacy GET current_package / current_activity endpoints', async () => {
    const driver = await session({ 'appium:appPackage': 'com.android.settings' });
    const base = `${server.url}/session/${driver.sessionId}/appium/device`;
    expect(await (await fetch(`${base}/current_package`)).json()).toEqual({ value: 'com.android.settings' });
    expect(await (await fetch(`${base}/current_activity`)).json()).toEqual({ value: '.Settings' });
  });

  it('honours the implicit wait: pulls again until a delayed effect shows the element', async () => {
    // Every tap's effect shows only after two more observations.
    const driver = await session({ 'appium:appPackage': 'com.android.settings', 'senseact:faults': { 'delayed-effect': { rate: 1, observations: 2 } } });
    await driver.$('//*[@text="Network & internet"]').click();
    expect(await driver.$$('//*[@text="Internet"]')).toHaveLength(0);
    await driver.setTimeout({ implicit: 2_000 });
    expect(await driver.findElement('xpath', '//*[@text="Internet"]')).toHaveProperty(['element-6066-11e4-a52e-4f735466cecf']);
  });

  it('returns a PNG screenshot of the screen', async () => {
    const driver = await session();
    const png = new Uint8Array(Buffer.from(await driver.takeScreenshot(), 'base64'));
    const size = pngSize(png);
    expect(size.width).toBeGreaterThan(0);
    expect(size.height / size.width).toBeCloseTo(2400 / 1080, 1);
  });

  it('reports the time spent in its command handlers', async () => {
    const driver = await session();
    await driver.execute('mobile: senseactStats', { reset: true });
    await driver.getPageSource();
    await driver.getPageSource();
    const stats = (await driver.execute('mobile: senseactStats', {})) as unknown as { count: number; totalMs: number; commands: Record<string, { count: number; medianMs: number }> };
    expect(stats.commands['getPageSource']?.count).toBe(2);
    expect(stats.commands['getPageSource']?.medianMs).toBeGreaterThan(0);
    expect(stats.totalMs).toBeGreaterThan(0);
  });

  it('answers errors the way WebDriver clients expect', async () => {
    const driver = await session();
    await expect(driver.findElement('xpath', '//*[')).rejects.toThrow(/invalid|selector/i);
    await expect(driver.execute('mobile: noSuchMethod', {})).rejects.toThrow(/Unsupported execute method/);
    await expect(driver.execute('return 1', [])).rejects.toThrow(/only 'mobile:' methods/);
    await expect(driver.execute('mobile: clickGesture', { x: 5000, y: 10 })).rejects.toThrow(/off the 1080×2400 screen/);
    await expect(driver.execute('mobile: pressKey', { keycode: 24 })).rejects.toThrow(/key codes 3 \(HOME\), 4 \(BACK\) and 66 \(ENTER\)/);
  });

  it('refuses a session with bad senseact: capabilities, saying which', async () => {
    await expect(session({ 'senseact:faults': 'catastrophic' })).rejects.toThrow(/simulator did not start/);
  });
});
