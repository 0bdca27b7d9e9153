import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppiumDevice, type AppiumDeviceOptions } from '../../../src/device/appium-device.js';
import type { AppiumServerHandle } from '../../../src/device/appium-server.js';
import { freePort, startAppiumServer } from '../../../src/device/appium-server.js';
import { createDevice } from '../../../src/device/create-device.js';
import type { DeviceAction } from '../../../src/device/device-action.js';
import { DeviceError } from '../../../src/device/device-error.js';
import { parseDeviceProfile } from '../../../src/device/device-profile.js';
import { SimDevice } from '../../../src/device/sim-device.js';
import { elementBounds, SourceDocument } from '../../../src/sim/appium-driver/source-document.js';
import { Simulator } from '../../../src/sim/simulator.js';
import { simCapabilities, startSimAppium } from './sim-appium-server.js';

const fastRetry = { maxAttempts: 3, baseDelayMs: 20, maxDelayMs: 100, budgetMs: 2_000 };

/** Center of the first node `xpath` selects in `xml`; fails the test when there is none. */
function centerOf(xml: string, xpath: string): [number, number] {
  const element = new SourceDocument(xml).find('xpath', xpath)[0];
  if (!element) throw new Error(`No node matches ${xpath}`);
  const bounds = elementBounds(element);
  if (!bounds) throw new Error(`Node ${xpath} has no bounds`);
  return [Math.floor((bounds[0] + bounds[2]) / 2), Math.floor((bounds[1] + bounds[3]) / 2)];
}

function boundsOf(xml: string, xpath: string): [number, number, number, number] | undefined {
  const element = new SourceDocument(xml).find('xpath', xpath)[0];
  return element ? elementBounds(element) : undefined;
}

describe('AppiumDevice → Appium 3 → SenseActSim driver', () => {
  let server: AppiumServerHandle;
  const devices: AppiumDevice[] = [];

  beforeAll(async () => {
    server = await startSimAppium();
  }, 120_000);

  afterAll(async () => {
    for (const device of devices) await device.close();
    await server?.stop();
  });

  async function connect(extraCaps: Record<string, unknown> = {}, options: Partial<AppiumDeviceOptions> = {}): Promise<AppiumDevice> {
    const device = await AppiumDevice.connect({
      name: 'sim-appium',
      url: server.url,
      capabilities: simCapabilities(extraCaps),
      settle: { intervalMs: 0, timeoutMs: 3_000 },
      retry: fastRetry,
      callTimeoutMs: 15_000,
      ...options,
    });
    devices.push(device);
    return device;
  }

  it('connects and reports the screen the session has', async () => {
    const device = await connect({ 'senseact:screen': { width: 720, height: 1600, density: 320 } });
    expect(device.info).toEqual({ name: 'sim-appium', kind: 'appium', width: 720, height: 1600, density: 320 });
    expect(device.sessionId).toMatch(/[0-9a-f-]{36}/);
    expect(device.callLog[0]).toMatchObject({ kind: 'connect', ok: true });
  });

  it('observes the launcher: settled UiAutomator2 XML with package and activity', async () => {
    const device = await connect();
    const observation = await device.observe();
    expect(observation.dialect).toBe('appium-uia2');
    expect(observation.xml).toMatch(/^<\?xml[\s\S]*<hierarchy [^>]*width="1080" height="2400"/);
    expect(observation.packageName).toBe('com.google.android.apps.nexuslauncher');
    expect(observation.activity).toBe('.NexusLauncherActivity');
    expect(observation.settled).toBe(true);
    expect(observation.polls).toBe(2);
    expect(observation.latencyMs).toBeGreaterThan(0);
    expect(device.callLog.at(-1)).toMatchObject({ kind: 'observe', ok: true });
  });

  it('launches an app, scrolls and swipes its list, taps a row and goes back', async () => {
    const device = await connect();
    await device.act({ type: 'launch', packageName: 'com.android.settings' });
    const home = await device.observe();
    expect(home.packageName).toBe('com.android.settings');
    expect(home.activity).toBe('.Settings');

    const listBounds = boundsOf(home.xml, "//*[@scrollable='true']");
    expect(listBounds).toBeDefined();
    const titleXpath = "//*[@text='Network & internet']";
    const titleTop = boundsOf(home.xml, titleXpath)?.[1];
    await device.act({ type: 'scroll', bounds: listBounds ?? [0, 0, 1, 1], direction: 'down' });
    const scrolled = await device.observe();
    const scrolledTop = boundsOf(scrolled.xml, titleXpath)?.[1];
    expect(scrolledTop === undefined || (titleTop !== undefined && scrolledTop < titleTop)).toBe(true);

    // A finger moving down brings the top of the list back.
    await device.act({ type: 'swipe', from: [540, 800], to: [540, 2200], durationMs: 200 });
    const back = await device.observe();
    expect(boundsOf(back.xml, titleXpath)?.[1]).toBe(titleTop);

    await device.act({ type: 'tap', point: centerOf(back.xml, titleXpath) });
    const page = await device.observe();
    expect(page.xml).not.toBe(back.xml);
    expect(page.xml).not.toContain('Search settings');

    await device.act({ type: 'key', key: 'back' });
    expect((await device.observe()).xml).toContain('Search settings');
    await device.act({ type: 'key', key: 'home' });
    expect((await device.observe()).packageName).toBe('com.google.android.apps.nexuslauncher');
    expect(device.callLog.filter((call) => call.kind.startsWith('act:')).map((call) => call.kind)).toEqual([
      'act:launch', 'act:scroll', 'act:swipe', 'act:tap', 'act:key', 'act:key',
    ]);
  });

  it('types into a field, clears it, presses enter and long-presses', async () => {
    const device = await connect();
    await device.act({ type: 'launch', packageName: 'com.simplemobiletools.notes.pro' });
    const list = await device.observe();
    await device.act({ type: 'tap', point: centerOf(list.xml, "//*[contains(@resource-id, 'note_item')]") });
    const note = await device.observe();
    const field = centerOf(note.xml, "//android.widget.EditText");
    const before = new SourceDocument(note.xml).find('xpath', '//android.widget.EditText')[0]?.getAttribute('text') ?? '';

    await device.act({ type: 'type', text: ' Bring the card.', point: field });
    const typed = await device.observe();
    expect(new SourceDocument(typed.xml).find('xpath', '//android.widget.EditText')[0]?.getAttribute('text')).toBe(`${before} Bring the card.`);

    await device.act({ type: 'clear', point: field });
    const cleared = await device.observe();
    expect(new SourceDocument(cleared.xml).find('xpath', '//android.widget.EditText')[0]?.getAttribute('text')).toBe('');

    await device.act({ type: 'key', key: 'enter' });
    // The first back closes the soft keyboard, the second leaves the note.
    await device.act({ type: 'key', key: 'back' });
    expect((await device.observe()).activity).toBe('.activities.NoteActivity');
    await device.act({ type: 'key', key: 'back' });
    const listAgain = await device.observe();
    expect(listAgain.activity).toBe('.activities.MainActivity');
    await device.act({ type: 'long-press', point: centerOf(listAgain.xml, "//*[contains(@resource-id, 'note_item')]"), durationMs: 900 });
    const menu = await device.observe();
    expect(menu.xml).not.toBe(listAgain.xml);
  });

  it('sees exactly what the in-process simulator sees for the same seed and actions', async () => {
    const seed = 7;
    const faults = 'standard';
    const throughAppium = await connect({ 'senseact:seed': seed, 'senseact:faults': faults });
    const inProcess = await createDevice(parseDeviceProfile({ kind: 'sim', name: 'sim', sim: { seed, faults } }, '<test>'));
    if (!(inProcess instanceof SimDevice)) throw new Error('a sim profile gives a SimDevice');
    const actions: DeviceAction[] = [
      { type: 'launch', packageName: 'com.android.settings' },
      { type: 'scroll', bounds: [0, 574, 1080, 2274], direction: 'down' },
      { type: 'tap', point: [540, 1200] },
      { type: 'key', key: 'back' },
      { type: 'launch', packageName: 'com.simplemobiletools.notes.pro' },
      { type: 'tap', point: [540, 330] },
      { type: 'key', key: 'back' },
      { type: 'long-press', point: [540, 330], durationMs: 900 },
    ];
    const stacks: (readonly string[])[] = [];
    const step = async (action: DeviceAction): Promise<string> => {
      await Promise.all([throughAppium.act(action), inProcess.act(action)]);
      const [remote, local] = await Promise.all([throughAppium.observe(), inProcess.observe()]);
      // The activity stack comes through the driver's shell (dumpsys activity activities), read back as the device's.
      expect({ xml: remote.xml, packageName: remote.packageName, activity: remote.activity, activityStack: remote.activityStack, polls: remote.polls })
        .toEqual({ xml: local.xml, packageName: local.packageName, activity: local.activity, activityStack: local.activityStack, polls: local.polls });
      stacks.push(local.activityStack ?? []);
      return local.xml;
    };
    for (const action of actions) await step(action);
    // Typing and clearing a field: the driver must not tap more often than SimDevice does,
    // or the fault streams (one draw per tap and effect) drift apart.
    await step({ type: 'key', key: 'back' });
    const note = await step({ type: 'tap', point: centerOf(await step({ type: 'launch', packageName: 'com.simplemobiletools.notes.pro' }), "//*[contains(@resource-id, 'note_item')]") });
    const field = centerOf(note, '//android.widget.EditText');
    for (const action of [{ type: 'type', text: ' more', point: field }, { type: 'clear', point: field }, { type: 'type', text: 'again', point: field }, { type: 'clear', point: field }] as DeviceAction[]) await step(action);
    expect(stacks[0]).toEqual(['com.android.settings/.Settings']);
    expect(stacks.some((stack) => stack.length >= 2)).toBe(true);
    const [remoteLog, localLog] = await Promise.all([throughAppium.faultLog(), inProcess.faultLog()]);
    expect(remoteLog.length).toBeGreaterThan(0);
    expect(remoteLog).toEqual(localLog);
  });

  it('observes without the activity stack when the profile turns it off', async () => {
    const device = await createDevice(parseDeviceProfile({ kind: 'appium', name: 'no-stack', appium: { url: server.url, capabilities: simCapabilities() }, settle: { intervalMs: 0, timeoutMs: 3000 }, activityStack: false }, '<test>'));
    try {
      await device.act({ type: 'launch', packageName: 'com.android.settings' });
      const observation = await device.observe();
      expect(observation.activity).toBe('.Settings');
      expect(observation.activityStack).toBeUndefined();
    } finally {
      await device.close();
    }
  });

  it('observes without the activity stack on a server that does not allow the shell', async () => {
    const strict = await startAppiumServer({ host: '127.0.0.1', port: 0, withSimDriver: true, logLevel: 'error', allowInsecure: [] });
    try {
      const device = await connect({}, { url: strict.url });
      await device.act({ type: 'launch', packageName: 'com.android.settings' });
      const observation = await device.observe();
      expect(observation.activity).toBe('.Settings');
      expect(observation.activityStack).toBeUndefined();
      await device.close();
    } finally {
      await strict.stop();
    }
  }, 120_000);

  it('answers the probe as the in-process simulator does: app state, fault log, ground truth; no adb', async () => {
    const seed = 11;
    const caps = { 'senseact:seed': seed, 'senseact:faults': { 'icon-only': { rate: 1 } } };
    const throughAppium = await connect(caps);
    const inProcess = new SimDevice(new Simulator({ seed, faults: { 'icon-only': { rate: 1 } } }));
    const contacts = 'com.google.android.contacts';
    for (const device of [throughAppium, inProcess]) {
      await device.act({ type: 'launch', packageName: contacts });
      await device.observe();
    }
    const [remoteLog, localLog] = await Promise.all([throughAppium.faultLog(), inProcess.faultLog()]);
    expect(remoteLog.map((fault) => fault.kind)).toContain('icon-only');
    expect(remoteLog.find((fault) => fault.kind === 'icon-only')?.detail).toMatch(/lost its label$/);
    expect(remoteLog).toEqual(localLog);
    // The ground truth keeps the labels the icon-only fault strips from what the agent sees.
    const [remoteTruth, localTruth] = await Promise.all([throughAppium.groundTruth(), inProcess.groundTruth()]);
    const observed = (await throughAppium.observe()).xml;
    const labels = (tree: typeof remoteTruth) => (tree?.nodes ?? []).map((node) => node.contentDesc).filter(Boolean);
    expect(labels(remoteTruth)).toEqual(labels(localTruth));
    expect(labels(remoteTruth).some((label) => !observed.includes(`content-desc="${label}"`))).toBe(true);
    expect(remoteTruth?.packageName).toBe(contacts);
    const [remoteState, localState] = await Promise.all([throughAppium.appState(), inProcess.appState()]);
    expect(remoteState?.(contacts)).toEqual(localState(contacts));
    expect(remoteState?.('com.android.settings')).toEqual(localState('com.android.settings'));
    // A package the simulator does not have has no state (and no inherited property answers for it).
    expect(remoteState?.('com.example.absent')).toBeUndefined();
    expect(remoteState?.('constructor')).toBeUndefined();
    expect(await throughAppium.adbOutputs(['adb shell settings get secure ui_night_mode'])).toBeUndefined();
  });

  it('keeps pulling until a delayed effect has landed (settle)', async () => {
    // Every tap's effect shows only after two observations.
    const faults = { 'delayed-effect': { rate: 1, observations: 2 } };
    const settling = await connect({ 'senseact:faults': faults });
    const notSettling = await connect({ 'senseact:faults': faults }, { settle: { intervalMs: 0, timeoutMs: 0 } });
    const results = [];
    for (const device of [settling, notSettling]) {
      await device.act({ type: 'launch', packageName: 'com.android.settings' });
      const home = await device.observe();
      await device.act({ type: 'tap', point: centerOf(home.xml, "//*[@text='Network & internet']") });
      results.push(await device.observe());
    }
    const [settled, unsettled] = results;
    expect(settled?.settled).toBe(true);
    expect(settled?.polls).toBe(3);
    expect(settled?.xml).not.toContain('Search settings');
    // Without settling, the same pull still shows the old page: settling is what found the change.
    expect(unsettled?.polls).toBe(1);
    expect(unsettled?.xml).toContain('Search settings');
  });

  it('waits out a slow settle: the spinner moves until the hierarchy is stable', async () => {
    const device = await connect({ 'senseact:faults': { 'slow-settle': { rate: 1, observations: 3 } } });
    await device.act({ type: 'launch', packageName: 'com.android.settings' });
    const observation = await device.observe();
    expect(observation.settled).toBe(true);
    expect(observation.polls).toBeGreaterThanOrEqual(4);
    expect(observation.xml).not.toContain('android.widget.ProgressBar');
  });

  it('re-creates a session deleted server-side and retries the call once', async () => {
    const device = await connect();
    const first = device.sessionId;
    const response = await fetch(`${server.url}/session/${first}`, { method: 'DELETE' });
    expect(response.ok).toBe(true);
    const observation = await device.observe();
    expect(observation.packageName).toBe('com.google.android.apps.nexuslauncher');
    expect(device.sessionRecoveries).toBe(1);
    expect(device.sessionId).not.toBe(first);
    expect(device.callLog.at(-1)).toMatchObject({ kind: 'observe', ok: true });
  });

  it('rides out a server restart: retries the refused connection, then re-creates the session', async () => {
    const port = await freePort();
    let restartable = await startAppiumServer({ port, logLevel: 'error' });
    try {
      const device = await AppiumDevice.connect({
        name: 'restart',
        url: restartable.url,
        capabilities: simCapabilities(),
        settle: { intervalMs: 0, timeoutMs: 3_000 },
        // Starting Appium again takes seconds, and tens of seconds under load: the budget outlasts it.
        retry: { maxAttempts: 60, baseDelayMs: 50, maxDelayMs: 1_000, budgetMs: 60_000 },
        callTimeoutMs: 70_000,
      });
      devices.push(device);
      const before = device.sessionId;
      await restartable.stop();
      // While the server is down, the call keeps retrying; the new server comes up meanwhile.
      const observing = device.observe();
      restartable = await startAppiumServer({ port, logLevel: 'error' });
      const observation = await observing;
      expect(observation.packageName).toBe('com.google.android.apps.nexuslauncher');
      expect(device.sessionRecoveries).toBe(1);
      expect(device.sessionId).not.toBe(before);
    } finally {
      await restartable.stop();
    }
  }, 100_000);

  it('rejects an aborted call with DeviceError(aborted) and records it as failed', async () => {
    const device = await connect();
    const controller = new AbortController();
    controller.abort(new Error('user pressed stop'));
    const error = await device.observe({ signal: controller.signal }).catch((caught: unknown) => caught);
    expect(DeviceError.isInstance(error) && error.reason).toBe('aborted');
    expect(device.callLog.at(-1)).toMatchObject({ kind: 'observe', ok: false });
    // The device still works afterwards.
    expect((await device.observe()).settled).toBe(true);
  });

  it('fails a closed device with DeviceError(closed)', async () => {
    const device = await connect();
    await device.close();
    const error = await device.act({ type: 'key', key: 'back' }).catch((caught: unknown) => caught);
    expect(DeviceError.isInstance(error) && error.reason).toBe('closed');
  });

  describe('against servers that do not answer', () => {
    let silent: Server;
    let silentUrl: string;

    beforeAll(async () => {
      // Accepts connections and never answers: a hung Appium.
      silent = createServer(() => undefined);
      await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
      const address = silent.address();
      silentUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    });

    afterAll(async () => {
      silent.close();
    });

    const options = (url: string, callTimeoutMs: number): AppiumDeviceOptions => ({ name: 'hung', url, capabilities: simCapabilities(), retry: fastRetry, callTimeoutMs });

    it('times out with DeviceError(timeout) when the server hangs', async () => {
      const error = await AppiumDevice.connect(options(silentUrl, 300)).catch((caught: unknown) => caught);
      expect(DeviceError.isInstance(error) && error.reason).toBe('timeout');
      expect((error as Error).message).toContain('did not finish within 300 ms');
    });

    it('aborts a hanging call as soon as the signal fires', async () => {
      const controller = new AbortController();
      const pending = AppiumDevice.connect(options(silentUrl, 30_000), { signal: controller.signal }).catch((caught: unknown) => caught);
      setTimeout(() => controller.abort(), 50);
      const error = await pending;
      expect(DeviceError.isInstance(error) && error.reason).toBe('aborted');
    });

    it('says how to start Appium when nothing listens', async () => {
      const url = `http://127.0.0.1:${await freePort()}`;
      const error = await AppiumDevice.connect(options(url, 10_000)).catch((caught: unknown) => caught);
      expect(DeviceError.isInstance(error) && error.reason).toBe('unreachable');
      expect((error as Error).message).toContain(`Appium not reachable at ${url}`);
      expect((error as Error).message).toContain('npx senseact devices check');
    });
  });
});
