import { describe, expect, it } from 'vitest';
import { AppiumDevice, defaultAppiumCapabilities, performAction } from '../../../src/device/appium-device.js';
import type { DeviceAction } from '../../../src/device/device-action.js';
import { DeviceError } from '../../../src/device/device-error.js';
import { FakeAppiumClient, FakeConnector, networkError, webdriverError, type RecordedCall } from './fake-appium-client.js';

const fastRetry = { maxAttempts: 4, baseDelayMs: 1, maxDelayMs: 2, budgetMs: 1_000 };

async function connect(connector: FakeConnector, settle = { intervalMs: 0, timeoutMs: 1_000 }): Promise<AppiumDevice> {
  return await AppiumDevice.connect({ name: 'fake', url: 'http://127.0.0.1:4723/', capabilities: { platformName: 'Android', 'appium:automationName': 'UiAutomator2' }, retry: fastRetry, settle, connector: connector.connect });
}

function methods(calls: readonly RecordedCall[]): string[] {
  return calls.map((call) => (call.method === 'executeScript' ? `${call.method} ${String(call.args[0])} ${JSON.stringify(call.args[1])}` : `${call.method}${call.args.length > 0 ? ` ${JSON.stringify(call.args)}` : ''}`));
}

describe('performAction: DeviceAction → UiAutomator2 commands', () => {
  const cases: Array<[DeviceAction, string[]]> = [
    [{ type: 'tap', point: [10, 20] }, ['executeScript mobile: clickGesture {"x":10,"y":20}']],
    [{ type: 'long-press', point: [10, 20], durationMs: 900 }, ['executeScript mobile: longClickGesture {"x":10,"y":20,"duration":900}']],
    [{ type: 'long-press', point: [10, 20] }, ['executeScript mobile: longClickGesture {"x":10,"y":20}']],
    [{ type: 'type', text: 'hi' }, ['executeScript mobile: type {"text":"hi"}']],
    [{ type: 'type', text: 'hi', point: [5, 6] }, ['executeScript mobile: clickGesture {"x":5,"y":6}', 'executeScript mobile: type {"text":"hi"}']],
    [{ type: 'clear' }, ['findElement ["xpath","//*[@focused=\'true\']"]', 'elementClear ["el-1"]']],
    [{ type: 'clear', point: [5, 6] }, ['executeScript mobile: clickGesture {"x":5,"y":6}', 'findElement ["xpath","//*[@focused=\'true\']"]', 'elementClear ["el-1"]']],
    [{ type: 'scroll', bounds: [0, 100, 1080, 2100], direction: 'down' }, ['executeScript mobile: scrollGesture {"left":0,"top":100,"width":1080,"height":2000,"direction":"down","percent":0.7}']],
    [{ type: 'scroll', bounds: [0, 100, 1080, 2100], direction: 'left', percent: 0.3 }, ['executeScript mobile: scrollGesture {"left":0,"top":100,"width":1080,"height":2000,"direction":"left","percent":0.3}']],
    [{ type: 'key', key: 'back' }, ['back']],
    [{ type: 'key', key: 'home' }, ['executeScript mobile: pressKey {"keycode":3}']],
    [{ type: 'key', key: 'enter' }, ['executeScript mobile: pressKey {"keycode":66}']],
    [{ type: 'launch', packageName: 'com.android.settings' }, ['executeScript mobile: activateApp {"appId":"com.android.settings"}']],
    [{ type: 'launch', packageName: 'com.android.settings', activity: '.Settings' }, ['executeScript mobile: startActivity {"intent":"com.android.settings/.Settings"}']],
  ];

  it.each(cases)('%j', async (action, expected) => {
    const calls: RecordedCall[] = [];
    await performAction(new FakeAppiumClient('s', calls), action);
    expect(methods(calls)).toEqual(expected);
  });

  it('types with W3C key actions when the driver has no mobile: type', async () => {
    const calls: RecordedCall[] = [];
    const client = new FakeAppiumClient('s', calls);
    client.failures = [webdriverError('unsupported operation', "Unsupported execute method 'mobile: type'")];
    await performAction(client, { type: 'type', text: 'hé' });
    expect(calls.map((call) => call.method)).toEqual(['executeScript', 'performActions']);
    expect(calls[1]?.args[0]).toEqual([{ type: 'key', id: 'keyboard', actions: [{ type: 'keyDown', value: 'h' }, { type: 'keyUp', value: 'h' }, { type: 'keyDown', value: 'é' }, { type: 'keyUp', value: 'é' }] }]);
  });

  it('does not hide other typing failures behind the fallback', async () => {
    const client = new FakeAppiumClient('s', []);
    client.failures = [webdriverError('invalid element state', 'no focused field')];
    await expect(performAction(client, { type: 'type', text: 'x' })).rejects.toThrow('no focused field');
  });

  it('maps a swipe onto one W3C touch pointer: move, down, timed move, up', async () => {
    const calls: RecordedCall[] = [];
    await performAction(new FakeAppiumClient('s', calls), { type: 'swipe', from: [100, 900], to: [100, 300], durationMs: 250 });
    expect(calls).toHaveLength(1);
    expect(calls[0]?.method).toBe('performActions');
    expect(calls[0]?.args[0]).toEqual([
      {
        type: 'pointer',
        id: 'finger1',
        parameters: { pointerType: 'touch' },
        actions: [
          { type: 'pointerMove', duration: 0, origin: 'viewport', x: 100, y: 900 },
          { type: 'pointerDown', button: 0 },
          { type: 'pointerMove', duration: 250, origin: 'viewport', x: 100, y: 300 },
          { type: 'pointerUp', button: 0 },
        ],
      },
    ]);
  });
});

describe('AppiumDevice with a fake server', () => {
  it('opens the session with the profile capabilities over the defaults, and reads the screen', async () => {
    const connector = new FakeConnector();
    const device = await AppiumDevice.connect({ name: 'fake', url: 'http://127.0.0.1:4723/', capabilities: { platformName: 'Android', 'appium:automationName': 'UiAutomator2', 'appium:waitForIdleTimeout': 0 }, connector: connector.connect });
    expect(connector.requests[0]?.url).toBe('http://127.0.0.1:4723');
    expect(connector.requests[0]?.capabilities).toEqual({ ...defaultAppiumCapabilities, platformName: 'Android', 'appium:automationName': 'UiAutomator2', 'appium:waitForIdleTimeout': 0 });
    expect(defaultAppiumCapabilities['appium:newCommandTimeout']).toBeGreaterThanOrEqual(300);
    expect(device.info).toEqual({ name: 'fake', kind: 'appium', width: 1080, height: 2400, density: 420 });
  });

  it('observes until two consecutive sources match', async () => {
    const connector = new FakeConnector();
    connector.setup = (client) => {
      client.sources = ['<a/>', '<b/>', '<c/>', '<c/>'];
    };
    const device = await connect(connector);
    const observation = await device.observe();
    expect(observation).toMatchObject({ xml: '<c/>', polls: 4, settled: true, packageName: 'com.example', activity: '.Main' });
  });

  it('asks package and activity once when the hierarchy was stable, again when it changed after them', async () => {
    const stable = new FakeConnector();
    const stableDevice = await connect(stable);
    await stableDevice.observe();
    expect(methods(stable.calls).filter((call) => call.includes('getCurrent'))).toHaveLength(2);

    const changing = new FakeConnector();
    changing.setup = (client) => {
      client.sources = ['<a/>', '<b/>', '<b/>'];
    };
    const changingDevice = await connect(changing);
    const observation = await changingDevice.observe();
    expect(observation.polls).toBe(3);
    const calls = methods(changing.calls);
    expect(calls.filter((call) => call.includes('getCurrent'))).toHaveLength(4);
    // The last package/activity answers come after the last pull.
    expect(calls.lastIndexOf('getPageSource')).toBeLessThan(calls.findLastIndex((call) => call.includes('getCurrentPackage')));
  });

  it('reads the foreground task\'s activity stack from dumpsys through mobile: shell', async () => {
    const connector = new FakeConnector();
    connector.setup = (client) => {
      client.scripts['mobile: shell'] = () => [
        'Display #0 (activities from top to bottom):',
        '  * Task{8c1f2e3 #24 type=standard A=10151:com.example U=0 visible=true mode=fullscreen translucent=false sz=2}',
        '    * Hist #1: ActivityRecord{77a0c9d u0 com.example/.Edit t24}',
        '    * Hist #0: ActivityRecord{2d81f01 u0 com.example/.Main t24}',
      ].join('\n');
    };
    const device = await connect(connector);
    expect((await device.observe()).activityStack).toEqual(['com.example/.Edit', 'com.example/.Main']);
    expect(methods(connector.calls).filter((call) => call.includes('mobile: shell'))).toEqual(['executeScript mobile: shell {"command":"dumpsys","args":["activity","activities"],"includeStderr":false}']);
    // Unchanged screen: the stack is reused with the package and activity, not asked again.
    expect((await device.observe()).activityStack).toEqual(['com.example/.Edit', 'com.example/.Main']);
    expect(methods(connector.calls).filter((call) => call.includes('mobile: shell'))).toHaveLength(1);
  });

  it('observes without the stack when the server refuses the shell, and does not ask again', async () => {
    const connector = new FakeConnector();
    connector.setup = (client) => {
      client.scripts['mobile: shell'] = () => {
        throw webdriverError('unknown error', "Potentially insecure feature 'adb_shell' has not been enabled. If you want to enable this feature and accept the security ramifications, please do so by following the documented instructions");
      };
    };
    const device = await connect(connector);
    const client = connector.clients[0] as FakeAppiumClient;
    const first = await device.observe();
    expect(first.activityStack).toBeUndefined();
    expect(first.packageName).toBe('com.example');
    client.sources = ['<changed/>'];
    expect((await device.observe()).activityStack).toBeUndefined();
    expect(methods(connector.calls).filter((call) => call.includes('mobile: shell'))).toHaveLength(1);
  });

  it('does not ask for the stack when the profile turned it off', async () => {
    const connector = new FakeConnector();
    connector.setup = (client) => {
      client.scripts['mobile: shell'] = () => '* Hist #0: ActivityRecord{2d81f01 u0 com.example/.Main t24}';
    };
    const device = await AppiumDevice.connect({ name: 'fake', url: 'http://127.0.0.1:4723/', capabilities: { platformName: 'Android', 'appium:automationName': 'UiAutomator2' }, retry: fastRetry, settle: { intervalMs: 0, timeoutMs: 1_000 }, connector: connector.connect, activityStack: false });
    expect((await device.observe()).activityStack).toBeUndefined();
    expect(methods(connector.calls).filter((call) => call.includes('mobile: shell'))).toEqual([]);
  });

  it('skips only that observation\'s stack when the shell fails otherwise', async () => {
    const connector = new FakeConnector();
    let failing = true;
    connector.setup = (client) => {
      client.scripts['mobile: shell'] = () => {
        if (failing) throw webdriverError('unknown error', 'dumpsys timed out');
        return '* Hist #0: ActivityRecord{2d81f01 u0 com.example/.Main t24}';
      };
    };
    const device = await connect(connector);
    const client = connector.clients[0] as FakeAppiumClient;
    expect((await device.observe()).activityStack).toBeUndefined();
    failing = false;
    client.sources = ['<changed/>'];
    expect((await device.observe()).activityStack).toEqual(['com.example/.Main']);
  });

  it('reuses package and activity when the hierarchy is unchanged since the last observation', async () => {
    const connector = new FakeConnector();
    const device = await connect(connector);
    const client = connector.clients[0] as FakeAppiumClient;
    await device.observe();
    client.packageName = 'com.other';
    const unchanged = await device.observe();
    expect(unchanged.packageName).toBe('com.example');
    expect(methods(connector.calls).filter((call) => call.includes('getCurrent'))).toHaveLength(2);

    client.sources = ['<changed/>'];
    const changed = await device.observe();
    expect(changed.packageName).toBe('com.other');
    expect(methods(connector.calls).filter((call) => call.includes('getCurrent'))).toHaveLength(4);
  });

  it('retries a refused connection with backoff and keeps the session', async () => {
    const connector = new FakeConnector();
    const device = await connect(connector);
    const client = connector.clients[0] as FakeAppiumClient;
    client.failures = [networkError('ECONNREFUSED'), networkError('ECONNREFUSED')];
    await device.act({ type: 'tap', point: [1, 2] });
    expect(methods(connector.calls).filter((call) => call.includes('clickGesture'))).toHaveLength(3);
    expect(connector.clients).toHaveLength(1);
  });

  it('does not repeat a tap whose connection was reset (it may have happened), but repeats an observe', async () => {
    const connector = new FakeConnector();
    const device = await connect(connector);
    const client = connector.clients[0] as FakeAppiumClient;
    client.failures = [networkError('ECONNRESET')];
    const error = await device.act({ type: 'tap', point: [1, 2] }).catch((caught: unknown) => caught);
    expect(DeviceError.isInstance(error) && error.reason).toBe('unreachable');
    expect(methods(connector.calls).filter((call) => call.includes('clickGesture'))).toHaveLength(1);

    client.failures = [networkError('ECONNRESET')];
    await device.observe();
    expect(device.callLog.at(-1)).toMatchObject({ kind: 'observe', ok: true });
  });

  it('does not retry a command error', async () => {
    const connector = new FakeConnector();
    const device = await connect(connector);
    (connector.clients[0] as FakeAppiumClient).failures = [webdriverError('no such element', 'An element could not be located')];
    const error = await device.act({ type: 'clear' }).catch((caught: unknown) => caught);
    expect(DeviceError.isInstance(error) && error.reason).toBe('command-failed');
    expect((error as Error).message).toContain("act:clear failed on device 'fake'");
    expect(methods(connector.calls).filter((call) => call.startsWith('findElement'))).toHaveLength(1);
  });

  it('re-creates a lost session with the same capabilities and retries the call once', async () => {
    const connector = new FakeConnector();
    const device = await connect(connector);
    (connector.clients[0] as FakeAppiumClient).failures = [webdriverError('invalid session id')];
    await device.act({ type: 'key', key: 'back' });
    expect(connector.clients).toHaveLength(2);
    expect(connector.requests[1]?.capabilities).toEqual(connector.requests[0]?.capabilities);
    expect(connector.calls.filter((call) => call.method === 'back').map((call) => call.session)).toEqual(['session-1', 'session-2']);
    expect(device.sessionRecoveries).toBe(1);
    expect(device.sessionId).toBe('session-2');
  });

  it('gives up when the re-created session is lost again', async () => {
    const connector = new FakeConnector();
    const device = await connect(connector);
    (connector.clients[0] as FakeAppiumClient).failures = [webdriverError('invalid session id')];
    connector.setup = (client) => {
      client.failures = [webdriverError('invalid session id')];
    };
    const error = await device.act({ type: 'key', key: 'back' }).catch((caught: unknown) => caught);
    expect(DeviceError.isInstance(error) && error.reason).toBe('session-lost');
    expect(connector.clients).toHaveLength(2);
  });

  it('keeps the credentials of a cloud URL out of its messages', async () => {
    const connector = new FakeConnector();
    connector.connectFailures = [webdriverError('session not created', 'Could not find a driver for automationName')];
    const error = await AppiumDevice.connect({ name: 'cloud', url: 'https://alice:s3cr3t-key@hub.example.com/wd/hub', capabilities: { platformName: 'Android', 'appium:automationName': 'UiAutomator2' }, retry: fastRetry, connector: connector.connect }).catch((caught: unknown) => caught);
    expect(connector.requests[0]?.url).toBe('https://alice:s3cr3t-key@hub.example.com/wd/hub');
    expect((error as Error).message).toContain('https://hub.example.com/wd/hub');
    expect((error as Error).message).not.toContain('s3cr3t-key');
  });

  describe('behind a grid (sessions routed to any matching device)', () => {
    const onNodes = (connector: FakeConnector, nodes: (string | undefined)[]): void => {
      connector.setup = (client) => {
        const node = nodes[connector.clients.length];
        if (node !== undefined) client.capabilities['senseact:node'] = node;
      };
    };
    const connectRouted = (connector: FakeConnector): Promise<AppiumDevice> =>
      AppiumDevice.connect({ name: 'grid', url: 'http://127.0.0.1:4444', capabilities: { platformName: 'Android', 'appium:automationName': 'SenseActSim' }, retry: fastRetry, settle: { intervalMs: 0, timeoutMs: 1_000 }, routed: true, connector: connector.connect });

    it('names the device that served the session', async () => {
      const connector = new FakeConnector();
      onNodes(connector, ['sim-2']);
      expect((await connectRouted(connector)).info.servedBy).toBe('sim-2');
      const direct = new FakeConnector();
      direct.setup = (client) => {
        client.capabilities['appium:udid'] = 'emulator-5556';
      };
      expect((await connect(direct)).info.servedBy).toBe('emulator-5556');
    });

    it('re-creates a lost session when the new one is on the same device', async () => {
      const connector = new FakeConnector();
      onNodes(connector, ['sim-1', 'sim-1']);
      const device = await connectRouted(connector);
      (connector.clients[0] as FakeAppiumClient).failures = [webdriverError('invalid session id')];
      await device.act({ type: 'key', key: 'back' });
      expect(connector.calls.filter((call) => call.method === 'back').map((call) => call.session)).toEqual(['session-1', 'session-2']);
      expect(device.sessionRecoveries).toBe(1);
    });

    it('refuses a re-created session on another device: deletes it and reports the loss without acting there', async () => {
      const connector = new FakeConnector();
      onNodes(connector, ['sim-1', 'sim-2']);
      const device = await connectRouted(connector);
      (connector.clients[0] as FakeAppiumClient).failures = [webdriverError('invalid session id')];
      const error = await device.act({ type: 'key', key: 'back' }).catch((caught: unknown) => caught);
      expect(DeviceError.isInstance(error) && error.reason).toBe('session-lost');
      expect((error as Error).message).toContain("opened on 'sim-2' instead of 'sim-1'");
      expect(connector.calls.filter((call) => call.method === 'back').map((call) => call.session)).toEqual(['session-1']);
      expect(connector.calls.filter((call) => call.session === 'session-2').map((call) => call.method)).toEqual(['deleteSession']);
      expect(device.sessionRecoveries).toBe(0);
    });

    it('refuses to re-create a session when the grid does not say which device it is', async () => {
      const connector = new FakeConnector();
      const device = await connectRouted(connector);
      (connector.clients[0] as FakeAppiumClient).failures = [webdriverError('invalid session id')];
      const error = await device.act({ type: 'key', key: 'back' }).catch((caught: unknown) => caught);
      expect(DeviceError.isInstance(error) && error.reason).toBe('session-lost');
      expect((error as Error).message).toContain('a device that does not say which it is');
    });
  });

  it('explains a refused session: driver missing or device offline', async () => {
    const connector = new FakeConnector();
    connector.connectFailures = [webdriverError('session not created', "Could not find a driver for automationName 'UiAutomator2'")];
    const error = await connect(connector).catch((caught: unknown) => caught);
    expect(DeviceError.isInstance(error) && error.reason).toBe('session-not-created');
    expect((error as Error).message).toMatch(/UiAutomator2 driver is installed.*appium driver install uiautomator2.*device is online \(`adb devices`\)/);
  });

  it('closes the session once and tolerates a session that is already gone', async () => {
    const connector = new FakeConnector();
    const device = await connect(connector);
    (connector.clients[0] as FakeAppiumClient).failures = [webdriverError('invalid session id')];
    await device.close();
    await device.close();
    expect(connector.calls.filter((call) => call.method === 'deleteSession')).toHaveLength(1);
    expect(device.callLog.at(-1)).toMatchObject({ kind: 'close', ok: false });
  });
});

describe('AppiumDevice as a probe on a real device', () => {
  it('runs a task\'s adb shell queries through mobile: shell, leaving out what cannot run', async () => {
    const connector = new FakeConnector();
    connector.setup = (client) => {
      client.scripts['mobile: shell'] = (args) => {
        if (args['command'] === 'settings get secure ui_night_mode') return '2\n';
        throw webdriverError('unsupported operation', 'shell failed: adb_shell is not allowed');
      };
    };
    const device = await connect(connector);
    const outputs = await device.adbOutputs(['adb shell settings get secure ui_night_mode', 'adb shell dumpsys nope', 'settings get secure ui_night_mode']);
    expect(outputs).toEqual({ 'adb shell settings get secure ui_night_mode': '2\n' });
    expect(methods(connector.calls).filter((call) => call.includes('mobile: shell'))).toEqual([
      'executeScript mobile: shell {"command":"settings get secure ui_night_mode","args":[],"includeStderr":false}',
      'executeScript mobile: shell {"command":"dumpsys nope","args":[],"includeStderr":false}',
    ]);
  });

  it('has no app state, ground truth or fault log there, and asks the server for none of them', async () => {
    const connector = new FakeConnector();
    const device = await connect(connector);
    const before = connector.calls.length;
    expect(device.simulatorDriver).toBe(false);
    expect(await device.appState()).toBeUndefined();
    expect(await device.groundTruth()).toBeUndefined();
    expect(await device.faultLog()).toEqual([]);
    expect(connector.calls.length).toBe(before);
  });
});
