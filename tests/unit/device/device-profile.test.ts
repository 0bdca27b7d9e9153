import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadDeviceProfile, parseDeviceProfile } from '../../../src/device/device-profile.js';
import { DeviceProfileError } from '../../../src/device/device-profile-error.js';
import { scratchFolder } from '../../helpers/scratch-folder.js';

const profiles = scratchFolder('senseact-profile-');
let written = 0;

function writeProfile(text: string): string {
  const file = path.join(profiles, `${written++}-device.yaml`);
  writeFileSync(file, text);
  return file;
}

function loadError(text: string): DeviceProfileError {
  const file = writeProfile(text);
  try {
    loadDeviceProfile(file);
  } catch (error) {
    if (DeviceProfileError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected the profile to be rejected');
}

describe('device profiles', () => {
  it('loads every profile shipped in devices/', () => {
    expect(loadDeviceProfile('sim')).toMatchObject({ kind: 'sim', name: 'sim', sim: { faults: 'none' } });
    expect(loadDeviceProfile('sim-appium')).toMatchObject({ kind: 'appium', appium: { capabilities: { 'appium:automationName': 'SenseActSim' } } });
    expect(loadDeviceProfile('emulator')).toMatchObject({ kind: 'appium', appium: { capabilities: { 'appium:automationName': 'UiAutomator2', 'appium:udid': 'emulator-5554' } }, activityStack: true });
    const androidlab = loadDeviceProfile('androidlab');
    expect(androidlab).toMatchObject({ kind: 'appium', appium: { capabilities: { 'appium:avd': 'Pixel_7_Pro_API_33', 'appium:platformVersion': '13' } } });
  });

  it('names the file and the field of a bad value', () => {
    const error = loadError('kind: appium\nname: x\nappium:\n  url: not a url\n  capabilities:\n    platformName: Android\n    appium:automationName: UiAutomator2\nsettle:\n  intervalMs: -5\n  timeoutMs: 100\n');
    expect(error.file).toMatch(/device\.yaml$/);
    expect(error.message).toContain(error.file);
    expect(error.message).toContain('appium.url');
    expect(error.message).toContain('settle.intervalMs');
  });

  it('takes activityStack as a yes or no, and names it when it is not', () => {
    const caps = 'kind: appium\nname: x\nappium:\n  url: http://127.0.0.1:4723\n  capabilities:\n    platformName: Android\n    appium:automationName: UiAutomator2\n';
    expect(loadError(`${caps}activityStack: sometimes\n`).message).toContain('activityStack');
  });

  it('requires platformName and appium:automationName in the capabilities', () => {
    const error = loadError('kind: appium\nname: x\nappium:\n  url: http://127.0.0.1:4723\n  capabilities:\n    platformName: Android\n');
    expect(error.message).toContain('appium.capabilities');
    expect(error.message).toContain('appium:automationName');
  });

  it('rejects unknown fields and kinds', () => {
    expect(loadError('kind: sim\nname: x\nsim:\n  seed: 1\n  sede: 2\n').message).toMatch(/sim[\s\S]*sede/);
    expect(loadError('kind: phone\nname: x\n').message).toContain('kind');
  });

  it('reports YAML syntax errors with the file', () => {
    const error = loadError('kind: sim\nname: [unclosed\n');
    expect(error.message).toMatch(/is not valid YAML/);
  });

  it('says where it looked for a missing profile', () => {
    expect(() => loadDeviceProfile('no-such-profile')).toThrow(/No device profile 'no-such-profile'.*devices\/no-such-profile\.yaml/);
  });

  it('fills ${VAR} and ${VAR:-fallback} from the environment, typed when a value is one reference; the name is kept as written', () => {
    const file = writeProfile([
      'kind: appium', 'name: ${PROFILE_NAME:-phone}', 'appium:', '  url: http://${APPIUM_HOST}:${APPIUM_PORT:-4723}',
      '  capabilities:', '    platformName: Android', '    appium:automationName: UiAutomator2', '    appium:udid: ${ANDROID_SERIAL}',
      '    appium:noReset: ${NO_RESET}', '    senseact:note: "costs $${PRICE}"', 'density: ${DENSITY}', '',
    ].join('\n'));
    const profile = loadDeviceProfile(file, { env: { APPIUM_HOST: '10.0.0.7', ANDROID_SERIAL: 'R58M12345', NO_RESET: 'true', DENSITY: '420' } });
    // The name goes into every trace: no variable's value may reach it through the name.
    expect(profile).toMatchObject({ name: '${PROFILE_NAME:-phone}', appium: { url: 'http://10.0.0.7:4723', capabilities: { 'appium:udid': 'R58M12345', 'appium:noReset': true, 'senseact:note': 'costs ${PRICE}' } }, density: 420 });
    // Negative control: an unset variable without a fallback names the field and the variable.
    expect(() => loadDeviceProfile(file, { env: { APPIUM_HOST: 'h', NO_RESET: 'true', DENSITY: '420' } }))
      .toThrow(/names environment variables that are not set: appium\.capabilities\.appium:udid: \$\{ANDROID_SERIAL\} is not set\. Set them, or give a fallback/);
  });

  it('parses data that did not come from a file', () => {
    expect(parseDeviceProfile({ kind: 'sim', name: 'inline' }, '<inline>')).toEqual({ kind: 'sim', name: 'inline', sim: {} });
  });
});
