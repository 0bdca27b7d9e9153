import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { Simulator, type SettingsState } from '../../../src/sim/index.js';
import { center, exists, find, tapOn } from './sim-test-helpers.js';

const settings = 'com.android.settings';
const state = (sim: Simulator): SettingsState => sim.appState(settings) as SettingsState;

describe('Settings app', () => {
  it('turns airplane mode on from Network & internet; the row toggles, the switch reflects it, Wi-Fi goes off', () => {
    const sim = new Simulator({ startPackage: settings });
    tapOn(sim, { text: 'Network & internet' });
    expect(sim.currentActivity()).toBe('.SubSettings');
    const sw = () => find(sim, { 'resource-id': 'android:id/switch_widget' });
    expect(sw().attrs['checked']).toBe('false');
    expect(sw().attrs['clickable']).toBe('false');
    tapOn(sim, { text: 'Airplane mode' });
    expect(state(sim).network).toMatchObject({ airplaneMode: true, wifi: false, bluetooth: false });
    expect(sw().attrs['checked']).toBe('true');
    expect(exists(sim, { 'content-desc': 'Airplane mode on.', package: 'com.android.systemui' })).toBe(true);
  });

  it('reaches Bluetooth through Connected devices → Connection preferences and renames the device', () => {
    const sim = new Simulator({ startPackage: settings });
    tapOn(sim, { text: 'Connected devices' });
    tapOn(sim, { text: 'Connection preferences' });
    tapOn(sim, { text: 'Bluetooth' });
    tapOn(sim, { text: 'Use Bluetooth' });
    expect(state(sim).network.bluetooth).toBe(false);
    tapOn(sim, { text: 'Device name' });
    tapOn(sim, { class: 'android.widget.EditText' });
    sim.clearText();
    sim.typeText('my AVD');
    tapOn(sim, { text: 'Rename' });
    expect(state(sim).about.deviceName).toBe('my AVD');
    sim.pressKey('back');
    sim.pressKey('back');
    sim.pressKey('back');
    expect(sim.currentActivity()).toBe('.Settings');
  });

  it('sets brightness to 0 by swiping the SeekBar and turns on dark theme (scrolling down first)', () => {
    const sim = new Simulator({ startPackage: settings });
    sim.swipe(540, 1800, 540, 800);
    tapOn(sim, { text: 'Display' });
    const bar = find(sim, { class: 'android.widget.SeekBar' });
    expect(bar.attrs['text']).toBe('60');
    const [, y] = center(bar);
    sim.swipe(center(bar)[0], y, bar.bounds[0], y);
    expect(state(sim).display.brightness).toBe(0);
    expect(find(sim, { class: 'android.widget.SeekBar' }).attrs['text']).toBe('0');
    // A point of the page's background, below the last row (900, 1200 on the 1080×2400 screen).
    const pixel = (): number => PNG.sync.read(Buffer.from(sim.screenshotPng())).data.readUInt32BE((1200 * 1080 + 900) * 4);
    const light = pixel();
    expect(light.toString(16)).toBe('fafafaff');
    tapOn(sim, { text: 'Dark theme' });
    expect(state(sim).display.darkTheme).toBe(true);
    // the screenshot follows the theme (only vision sees this)
    expect(pixel().toString(16)).toBe('18181cff');
  });

  it('shows Android version 13 under About phone and sets private DNS to a hostname', () => {
    const sim = new Simulator({ startPackage: settings });
    for (let i = 0; i < 3; i++) sim.swipe(540, 2000, 540, 600);
    tapOn(sim, { text: 'About phone' });
    expect(exists(sim, { text: 'Android version' })).toBe(true);
    expect(exists(sim, { text: '13' })).toBe(true);
    sim.pressKey('back');
    sim.launchApp(settings, '.SubSettings');
    // a fresh SubSettings without a page shows the homepage list
    expect(exists(sim, { text: 'Network & internet' })).toBe(true);
    tapOn(sim, { text: 'Network & internet' });
    tapOn(sim, { text: 'Private DNS' });
    tapOn(sim, { text: 'Private DNS provider hostname' });
    tapOn(sim, { hint: 'Enter hostname of DNS provider' });
    sim.typeText('dns.google');
    tapOn(sim, { text: 'Save' });
    expect(state(sim).network.privateDns).toBe('dns.google');
  });

  it('turns off one app\'s notifications and uninstalls another from Apps', () => {
    const sim = new Simulator({ startPackage: settings });
    tapOn(sim, { text: 'Apps' });
    tapOn(sim, { text: /^See all \d+ apps$/ });
    tapOn(sim, { text: 'Contacts' });
    tapOn(sim, { text: 'Notifications' });
    tapOn(sim, { text: 'All Contacts notifications' });
    expect(state(sim).apps.find((a) => a.label === 'Contacts')?.notifications).toBe(false);
    sim.pressKey('back');
    sim.pressKey('back');
    tapOn(sim, { text: 'Booking.com' });
    tapOn(sim, { text: 'Uninstall' });
    expect(state(sim).apps.some((a) => a.label === 'Booking.com')).toBe(false);
    expect(exists(sim, { text: 'Booking.com', class: 'android.widget.TextView', 'resource-id': 'android:id/title' })).toBe(false);
  });

  it('shows the battery percentage in the status bar once switched on', () => {
    const sim = new Simulator({ startPackage: settings });
    expect(exists(sim, { text: '100%', package: 'com.android.systemui' })).toBe(false);
    tapOn(sim, { text: 'Battery' });
    tapOn(sim, { text: 'Battery percentage' });
    expect(state(sim).battery.showPercentage).toBe(true);
    expect(exists(sim, { text: '100%', package: 'com.android.systemui' })).toBe(true);
  });
});

