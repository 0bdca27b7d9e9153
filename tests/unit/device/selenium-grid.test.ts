import { describe, expect, it } from 'vitest';
import { hubToml, relayNodeToml, stereotypeAccepts } from '../../../src/device/selenium-grid.js';

describe('stereotypeAccepts (which grid nodes a profile can reach)', () => {
  const emulator = { platformName: 'Android', 'appium:automationName': 'UiAutomator2', 'appium:udid': 'emulator-5556', 'appium:systemPort': 8201 };
  const table: Array<[string, Record<string, unknown>, boolean]> = [
    ['the same platform in another case, no extension asked', { platformName: 'ANDROID' }, true],
    ['the same automation, any device', { platformName: 'Android', 'appium:automationName': 'UiAutomator2' }, true],
    ['that very device', { platformName: 'Android', 'appium:udid': 'emulator-5556' }, true],
    ['capabilities the stereotype does not name are not compared', { platformName: 'Android', 'senseact:seed': 3, 'appium:noReset': true }, true],
    ['another platform', { platformName: 'iOS' }, false],
    ['another automation', { platformName: 'Android', 'appium:automationName': 'SenseActSim' }, false],
    ['another device', { platformName: 'Android', 'appium:udid': 'emulator-5554' }, false],
  ];
  it.each(table)('%s', (_label, capabilities, expected) => {
    expect(stereotypeAccepts(emulator, capabilities)).toBe(expected);
  });
});

describe('generated Grid configs', () => {
  it('keep a hub and a relay node on loopback with the event bus, the relay target and the stereotype', () => {
    const hub = hubToml({ host: '127.0.0.1', port: 4444, publishPort: 4442, subscribePort: 4443, healthcheckIntervalSeconds: 2, sessionRequestTimeoutSeconds: 120 });
    expect(hub).toContain('host = "127.0.0.1"\nport = 4444');
    expect(hub).toContain('publish = "tcp://127.0.0.1:4442"\nsubscribe = "tcp://127.0.0.1:4443"');
    const node = relayNodeToml({ host: '127.0.0.1', port: 5555, hubUrl: 'http://127.0.0.1:4444', publishPort: 4442, subscribePort: 4443, relayUrl: 'http://127.0.0.1:4723', stereotype: { platformName: 'Android', 'appium:udid': 'emulator-"5554"\\x' }, maxSessions: 1, heartbeatPeriodSeconds: 2, registerCycleSeconds: 1 });
    expect(node).toContain('[relay]\nurl = "http://127.0.0.1:4723"\nstatus-endpoint = "/status"');
    // The stereotype is JSON inside a TOML string: quotes and backslashes escaped twice, and it reads back.
    const configs = /^configs = \[(.*)\]$/m.exec(node)?.[1] ?? '';
    const [slots, stereotype] = JSON.parse(`[${configs}]`) as [string, string];
    expect(slots).toBe('1');
    expect(JSON.parse(stereotype)).toEqual({ platformName: 'Android', 'appium:udid': 'emulator-"5554"\\x' });
  });
});
