import { describe, expect, it } from 'vitest';
import { Simulator, type ClockState } from '../../../src/sim/index.js';
import { exists, find, tapOn } from './sim-test-helpers.js';

const clock = 'com.google.android.deskclock';

function clockState(sim: Simulator): ClockState {
  return sim.appState(clock) as ClockState;
}

describe('Clock app', () => {
  it('starts from the launcher icon into the Alarm tab', () => {
    const sim = new Simulator();
    expect(sim.currentPackage()).toBe('com.google.android.apps.nexuslauncher');
    tapOn(sim, { text: 'Clock', class: 'android.widget.TextView' });
    expect(sim.currentPackage()).toBe(clock);
    expect(sim.currentActivity()).toBe('com.android.deskclock.DeskClock');
    expect(find(sim, { 'resource-id': 'action_bar_title' }).attrs['text']).toBe('Alarm');
  });

  it('adds a 3 PM alarm labelled "meeting" through the time picker dial and label dialog', () => {
    const sim = new Simulator({ startPackage: clock });
    tapOn(sim, { 'content-desc': 'Add alarm' });
    expect(find(sim, { 'resource-id': 'header_title' }).attrs['text']).toBe('Select time');
    tapOn(sim, { 'content-desc': "3 o'clock" });
    tapOn(sim, { 'content-desc': '0 minutes', class: 'android.widget.TextView' });
    tapOn(sim, { text: 'PM' });
    tapOn(sim, { text: 'OK' });
    const added = clockState(sim).alarms.find((a) => a.hour === 15 && a.minute === 0);
    expect(added).toMatchObject({ enabled: true, label: '', days: [] });
    expect(exists(sim, { class: 'android.widget.Toast' })).toBe(true);
    // the new alarm is expanded: set its label
    tapOn(sim, { 'resource-id': 'edit_label', hint: 'Add label' });
    tapOn(sim, { class: 'android.widget.EditText' });
    expect(sim.isKeyboardShown()).toBe(true);
    sim.typeText('meeting');
    tapOn(sim, { text: 'OK' });
    expect(clockState(sim).alarms.find((a) => a.id === added?.id)?.label).toBe('meeting');
  });

  it('sets a time in the picker text-input mode and toggles repeat days, vibrate and the switch', () => {
    const sim = new Simulator({ startPackage: clock });
    tapOn(sim, { 'content-desc': 'Add alarm' });
    tapOn(sim, { 'content-desc': /Switch to text input mode/ });
    expect(find(sim, { class: 'android.widget.EditText' }).attrs['text']).toBe('9');
    tapOn(sim, { class: 'android.widget.EditText', text: '9' });
    sim.clearText();
    sim.typeText('6');
    tapOn(sim, { class: 'android.widget.EditText', text: '00' });
    sim.clearText();
    sim.typeText('45');
    tapOn(sim, { text: 'AM' });
    tapOn(sim, { text: 'OK' });
    const alarm = clockState(sim).alarms.find((a) => a.hour === 6 && a.minute === 45);
    expect(alarm).toBeDefined();
    tapOn(sim, { 'content-desc': 'Monday' });
    tapOn(sim, { 'content-desc': 'Friday' });
    tapOn(sim, { text: 'Vibrate' });
    tapOn(sim, { 'content-desc': '6:45 AM alarm' });
    const after = clockState(sim).alarms.find((a) => a.id === alarm?.id);
    expect(after).toMatchObject({ days: ['mon', 'fri'], vibrate: false, enabled: false });
    expect(find(sim, { 'content-desc': 'Monday' }).attrs['checked']).toBe('true');
  });

  it('deletes an expanded alarm', () => {
    const sim = new Simulator({ startPackage: clock });
    tapOn(sim, { 'content-desc': 'Expand 9:00 AM alarm' });
    tapOn(sim, { text: 'Delete' });
    expect(clockState(sim).alarms.map((a) => a.hour)).toEqual([8]);
  });

  it('adds London from the searchable city list and removes it by long-press', () => {
    const sim = new Simulator({ startPackage: clock });
    tapOn(sim, { 'content-desc': 'Clock', 'resource-id': 'tab_menu_clock' });
    tapOn(sim, { 'content-desc': 'Add city' });
    expect(sim.currentActivity()).toBe('com.android.deskclock.worldclock.CitySelectionActivity');
    tapOn(sim, { hint: 'Search' });
    sim.typeText('lond');
    tapOn(sim, { text: 'London' });
    expect(clockState(sim).worldClocks.map((c) => c.city)).toEqual(['London']);
    expect(sim.currentActivity()).toBe('com.android.deskclock.DeskClock');
    const city = find(sim, { text: 'London' });
    sim.longPress(city.bounds[0] + 5, city.bounds[1] + 5);
    tapOn(sim, { text: 'Remove' });
    expect(clockState(sim).worldClocks).toEqual([]);
  });

  it('enters a 1 h 15 min timer on the keypad without starting it', () => {
    const sim = new Simulator({ startPackage: clock });
    tapOn(sim, { 'resource-id': 'tab_menu_timer' });
    for (const d of ['1', '1', '5', '0', '0']) tapOn(sim, { text: d, class: 'android.widget.Button' });
    expect(find(sim, { 'resource-id': 'timer_setup_time' }).attrs['text']).toBe('01h 15m 00s');
    expect(clockState(sim).timer).toEqual({ setupDigits: '11500', timers: [] });
  });
});
