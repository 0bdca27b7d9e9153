import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { Simulator, SimulatorError, type ClockState, type SystemState } from '../../../src/sim/index.js';
import { SenseActError } from '../../../src/util/index.js';
import { dumpNodes, exists, find, findAll, tapOn } from './sim-test-helpers.js';

const launcher = 'com.google.android.apps.nexuslauncher';
const contacts = 'com.google.android.contacts';
const settings = 'com.android.settings';
const clock = 'com.google.android.deskclock';

function expectSimulatorError(fn: () => unknown, message: RegExp): void {
  try {
    fn();
  } catch (error) {
    expect(SimulatorError.isInstance(error)).toBe(true);
    expect(SenseActError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(message);
    return;
  }
  throw new Error('expected a SimulatorError');
}

describe('Simulator engine', () => {
  it('lists installed apps and rejects unknown packages, bad points and bad options with SimulatorError', () => {
    const sim = new Simulator({ apps: [clock] });
    expect(sim.installedApps().map((a) => a.packageName)).toEqual([launcher, clock]);
    expect(sim.screen).toEqual({ width: 1080, height: 2400, density: 420 });
    expectSimulatorError(() => sim.launchApp(contacts), /launchApp: package "com.google.android.contacts" is not installed/);
    expectSimulatorError(() => sim.tap(2000, 10), /tap: point \(2000, 10\) is off the 1080×2400 screen/);
    expectSimulatorError(() => sim.appState('com.example.nope'), /appState: package "com.example.nope"/);
    expectSimulatorError(() => sim.typeText('x'), /typeText: no text field is focused/);
    expectSimulatorError(() => sim.launchApp(clock, '.NoSuchActivity'), /Activity "\.NoSuchActivity" not found/);
    expectSimulatorError(() => new Simulator({ apps: ['com.example.nope'] }), /option apps: unknown package/);
    expectSimulatorError(() => new Simulator({ faults: 'chaos' as never }), /unknown profile "chaos"/);
    expectSimulatorError(() => new Simulator({ faults: { 'dropped-tap': { rate: 2 } } }), /not a valid FaultConfig/);
    expectSimulatorError(() => new Simulator({ initialState: { clock: { alarms: 'x' } as never } }), /initialState does not match SimSeedData/);
  });

  it('seeds app data from initialState and hands out deep copies', () => {
    const base = new Simulator().state().clock;
    const sim = new Simulator({ initialState: { clock: { ...base, alarms: [{ id: 'a', hour: 16, minute: 0, label: 'gym', enabled: true, days: ['mon'], vibrate: true, ringtone: 'Argon' }] } } });
    const copy = sim.appState(clock) as ClockState;
    copy.alarms = [];
    expect((sim.appState(clock) as ClockState).alarms).toHaveLength(1);
    sim.launchApp(clock);
    expect(exists(sim, { text: '4:00 PM' })).toBe(true);
    expect(Object.keys(sim.state()).sort()).toEqual(['clock', 'contacts', 'notes', 'settings', 'system']);
  });

  it('keeps a back stack per app: back pops activities, then goes home; home keeps the task; launchApp resumes it', () => {
    const sim = new Simulator({ startPackage: contacts });
    tapOn(sim, { text: 'Tom Baker' });
    expect(sim.currentActivity()).toBe('com.android.contacts.quickcontact.QuickContactActivity');
    sim.pressKey('home');
    expect(sim.currentPackage()).toBe(launcher);
    expect(sim.currentActivity()).toBe('.NexusLauncherActivity');
    sim.launchApp(contacts);
    expect(sim.currentActivity()).toBe('com.android.contacts.quickcontact.QuickContactActivity');
    sim.pressKey('back');
    expect(sim.currentActivity()).toBe('com.android.contacts.activities.PeopleActivity');
    sim.pressKey('back');
    expect(sim.currentPackage()).toBe(launcher);
    sim.launchApp(contacts);
    expect(sim.currentActivity()).toBe('com.android.contacts.activities.PeopleActivity');
    tapOn(sim, { text: 'Tom Baker' });
    sim.terminateApp(contacts);
    expect(sim.currentPackage()).toBe(launcher);
    sim.launchApp(contacts);
    expect(sim.currentActivity()).toBe('com.android.contacts.activities.PeopleActivity');
  });

  it('navigation bar buttons act like the keys', () => {
    const sim = new Simulator({ startPackage: settings });
    tapOn(sim, { text: 'Display' });
    tapOn(sim, { 'content-desc': 'Back', package: 'com.android.systemui' });
    expect(sim.currentActivity()).toBe('.Settings');
    tapOn(sim, { 'content-desc': 'Home', package: 'com.android.systemui' });
    expect(sim.currentPackage()).toBe(launcher);
  });

  it('shows the soft keyboard while a field is focused, shrinking the app window; keys type; back hides it', () => {
    const sim = new Simulator({ startPackage: contacts });
    const appRootBefore = dumpNodes(sim.pageSource('uiautomator-dump')).filter((n) => n.depth === 0 && n.attrs['package'] === contacts)[0];
    expect(sim.isKeyboardShown()).toBe(false);
    tapOn(sim, { hint: 'Search contacts' });
    expect(sim.isKeyboardShown()).toBe(true);
    const nodes = dumpNodes(sim.pageSource('uiautomator-dump'));
    const keyboardRoot = nodes.find((n) => n.depth === 0 && n.attrs['package'] === 'com.google.android.inputmethod.latin');
    const appRoot = nodes.filter((n) => n.depth === 0 && n.attrs['package'] === contacts)[0];
    expect(keyboardRoot).toBeDefined();
    expect(appRoot?.bounds[3]).toBe(keyboardRoot?.bounds[1]);
    expect(appRoot?.bounds[3]).toBeLessThan(appRootBefore?.bounds[3] ?? 0);
    expect(find(sim, { hint: 'Search contacts' }).attrs['focused']).toBe('true');
    tapOn(sim, { 'content-desc': 't', package: 'com.google.android.inputmethod.latin' });
    tapOn(sim, { 'content-desc': 'o', package: 'com.google.android.inputmethod.latin' });
    expect(find(sim, { 'resource-id': 'open_search_bar_text_view' }).attrs['text']).toBe('to');
    expect(exists(sim, { text: 'Tom Baker' })).toBe(true);
    expect(exists(sim, { text: 'ABC' })).toBe(false);
    sim.pressKey('back');
    expect(sim.isKeyboardShown()).toBe(false);
    expect(exists(sim, { package: 'com.google.android.inputmethod.latin' })).toBe(false);
    expect(sim.currentActivity()).toBe('com.android.contacts.activities.PeopleActivity');
    // enter submits the search field, which drops focus and the keyboard
    tapOn(sim, { 'resource-id': 'open_search_bar_text_view' });
    expect(sim.isKeyboardShown()).toBe(true);
    sim.pressKey('enter');
    expect(sim.isKeyboardShown()).toBe(false);
    expect(find(sim, { 'resource-id': 'open_search_bar_text_view' }).attrs['focused']).toBe('false');
    sim.hideKeyboard();
  });

  it('shows toasts as android.widget.Toast for about two seconds of virtual time', () => {
    const sim = new Simulator({ startPackage: clock });
    tapOn(sim, { 'content-desc': '9:00 AM alarm' });
    const toast = find(sim, { class: 'android.widget.Toast' });
    expect(toast.attrs['package']).toBe(clock);
    expect(exists(sim, { text: /^Alarm set for 24 hours/ })).toBe(true);
    sim.advanceTime(2500);
    expect(exists(sim, { class: 'android.widget.Toast' })).toBe(false);
  });

  it('asks for a runtime permission on launch when seeded "ask"; Allow records the grant', () => {
    const system: SystemState = { permissions: { [`${clock}/android.permission.POST_NOTIFICATIONS`]: 'ask' } };
    const sim = new Simulator({ initialState: { system } });
    sim.launchApp(clock);
    const allow = find(sim, { text: 'Allow' });
    expect(allow.attrs['package']).toBe('com.google.android.permissioncontroller');
    expect(exists(sim, { text: "Don't allow" })).toBe(true);
    expect(exists(sim, { text: 'Allow Clock to send you notifications?' })).toBe(true);
    // the dialog is modal: the app below does not react
    tapOn(sim, { 'content-desc': 'Add alarm' });
    expect(exists(sim, { text: 'Select time' })).toBe(false);
    tapOn(sim, { text: 'Allow' });
    expect(sim.state().system.permissions[`${clock}/android.permission.POST_NOTIFICATIONS`]).toBe('granted');
    expect(exists(sim, { package: 'com.google.android.permissioncontroller' })).toBe(false);
    sim.terminateApp(clock);
    sim.launchApp(clock);
    expect(exists(sim, { package: 'com.google.android.permissioncontroller' })).toBe(false);
  });

  it('exposes only on-screen children of scroll containers, with bounds clipped to the viewport, and scrolls by swipe', () => {
    const sim = new Simulator({ startPackage: settings });
    const visibleTitles = (): string[] => findAll(sim, { 'resource-id': 'android:id/title' }).map((n) => n.attrs['text'] ?? '');
    expect(visibleTitles()).toContain('Network & internet');
    expect(visibleTitles()).not.toContain('About phone');
    const scroller = find(sim, { 'resource-id': 'content_parent' });
    expect(scroller.attrs['scrollable']).toBe('true');
    const inside = (b: readonly number[]): boolean => (b[0] ?? 0) >= scroller.bounds[0] && (b[1] ?? 0) >= scroller.bounds[1] && (b[2] ?? 0) <= scroller.bounds[2] && (b[3] ?? 0) <= scroller.bounds[3];
    const descendants = dumpNodes(sim.pageSource('uiautomator-dump')).filter((n) => n.depth > 4 && n.attrs['package'] === settings);
    expect(descendants.every((n) => inside(n.bounds))).toBe(true);
    sim.swipe(540, 2000, 540, 500);
    sim.swipe(540, 2000, 540, 500);
    sim.swipe(540, 2000, 540, 500);
    expect(visibleTitles()).toContain('About phone');
    expect(visibleTitles()).not.toContain('Network & internet');
    // scrolling past the end stops at the end
    const before = sim.pageSource('uiautomator-dump');
    sim.swipe(540, 2000, 540, 500);
    expect(sim.pageSource('uiautomator-dump')).toBe(before);
    sim.swipe(540, 500, 540, 2000);
    sim.swipe(540, 500, 540, 2000);
    sim.swipe(540, 500, 540, 2000);
    expect(visibleTitles()).toContain('Network & internet');
  });

  it('reports currentActivity Appium-style and checked/selected/enabled states', () => {
    const sim = new Simulator({ startPackage: settings });
    expect(sim.currentActivity()).toBe('.Settings');
    expect(sim.currentActivityClass()).toBe('com.android.settings.Settings');
    tapOn(sim, { text: 'Network & internet' });
    tapOn(sim, { text: 'Airplane mode' });
    tapOn(sim, { text: 'Internet' });
    const mobileData = find(sim, { text: 'Mobile data' });
    const rows = dumpNodes(sim.pageSource('uiautomator-dump')).filter((n) => n.attrs['clickable'] === 'true' && n.bounds[1] <= mobileData.bounds[1] && n.bounds[3] >= mobileData.bounds[3] && n.attrs['package'] === settings);
    expect(rows.some((r) => r.attrs['enabled'] === 'false')).toBe(true);
    sim.launchApp(clock);
    expect(find(sim, { 'resource-id': 'tab_menu_alarm' }).attrs['selected']).toBe('true');
    expect(find(sim, { 'resource-id': 'tab_menu_clock' }).attrs['selected']).toBe('false');
  });

  it('is deterministic: same seed and actions give byte-identical XML, screenshots included', () => {
    const run = (seed: number): string[] => {
      const sim = new Simulator({ seed, faults: 'standard' });
      const out: string[] = [];
      const script: (() => void)[] = [
        () => sim.launchApp(contacts),
        () => sim.tap(540, 700),
        () => sim.pressKey('back'),
        () => sim.swipe(540, 1800, 540, 900),
        () => sim.launchApp(clock),
        () => sim.tap(540, 1930),
        () => sim.tap(540, 1200),
        () => sim.pressKey('back'),
        () => sim.launchApp(settings),
        () => sim.tap(540, 700),
      ];
      for (const step of script) {
        step();
        out.push(sim.pageSource('appium-uia2'), sim.pageSource('uiautomator-dump'));
      }
      out.push(Buffer.from(sim.screenshotPng()).toString('base64'), sim.screenshotSvg(), JSON.stringify(sim.faultLog()), JSON.stringify(sim.state()));
      return out;
    };
    expect(run(7)).toEqual(run(7));
    expect(run(7)).not.toEqual(run(8));
  });

  it("renders a PNG wireframe at the screen's size and an SVG with the screen text", () => {
    const sim = new Simulator({ startPackage: settings });
    const png = PNG.sync.read(Buffer.from(sim.screenshotPng()));
    expect([png.width, png.height]).toEqual([1080, 2400]);
    const distinct = new Set<number>();
    for (let i = 0; i < png.data.length; i += 4 * 97) distinct.add(png.data.readUInt32BE(i));
    expect(distinct.size).toBeGreaterThan(3);
    const svg = sim.screenshotSvg();
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg" width="1080" height="2400"')).toBe(true);
    expect(svg).toContain('>Network &amp; internet</text>');
    const other = new Simulator({ startPackage: clock });
    expect(Buffer.from(other.screenshotPng()).equals(Buffer.from(sim.screenshotPng()))).toBe(false);
    // a dialog dims what is below it
    const brightness = (png: Uint8Array): number => {
      const image = PNG.sync.read(Buffer.from(png));
      let sum = 0;
      for (let y = 180; y < 360; y++) for (let x = 0; x < 1080; x++) sum += image.data[(y * 1080 + x) * 4] ?? 0;
      return sum;
    };
    const before = brightness(other.screenshotPng());
    tapOn(other, { 'content-desc': 'Add alarm' });
    expect(brightness(other.screenshotPng())).toBeLessThan(before * 0.7);
    expect(other.screenshotSvg()).toContain('class="scrim"');
  });

  it('supports other screen sizes and densities', () => {
    const sim = new Simulator({ screen: { width: 720, height: 1280, density: 320 }, startPackage: clock });
    const xml = sim.pageSource('appium-uia2');
    expect(xml).toContain('width="720" height="1280"');
    const nodes = dumpNodes(sim.pageSource('uiautomator-dump'));
    expect(nodes.every((n) => n.bounds[2] <= 720 && n.bounds[3] <= 1280)).toBe(true);
    const png = PNG.sync.read(Buffer.from(sim.screenshotPng()));
    expect([png.width, png.height]).toEqual([720, 1280]);
    tapOn(sim, { 'content-desc': 'Add alarm' });
    expect(exists(sim, { text: 'Select time' })).toBe(true);
  });
});
