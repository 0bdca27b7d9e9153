import { describe, expect, it } from 'vitest';
import { Simulator, type ClockState } from '../../../src/sim/index.js';
import { exists, find, tapOn } from './sim-test-helpers.js';
import { parseActivityStack } from '../../../src/ui/parse-activity-stack.js';

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

  it('tells the foreground task\'s activity stack, and prints it as dumpsys activity activities does', () => {
    const sim = new Simulator({ startPackage: clock });
    tapOn(sim, { 'content-desc': 'Clock', 'resource-id': 'tab_menu_clock' });
    tapOn(sim, { 'content-desc': 'Add city' });
    // The clock's classes live outside its package: the component names the class in full.
    expect(sim.activityStack()).toEqual([`${clock}/com.android.deskclock.worldclock.CitySelectionActivity`, `${clock}/com.android.deskclock.DeskClock`]);
    const dump = sim.dumpsysActivities();
    expect(parseActivityStack(dump)).toEqual(sim.activityStack());
    // The launcher's task is listed below the clock's, and is not part of its stack.
    expect(dump).toMatch(/\* Hist #0: ActivityRecord\{\w+ u0 com\.google\.android\.apps\.nexuslauncher\/\.NexusLauncherActivity t\d+\}/);
    const before = sim.now();
    sim.dumpsysActivities();
    expect(sim.now()).toBe(before);
    sim.pressKey('back');
    expect(sim.activityStack()).toEqual([`${clock}/com.android.deskclock.DeskClock`]);
    sim.pressKey('home');
    expect(sim.activityStack()).toEqual(['com.google.android.apps.nexuslauncher/.NexusLauncherActivity']);
    expect(parseActivityStack(sim.dumpsysActivities())).toEqual(sim.activityStack());
  });

  it('enters a 1 h 15 min timer on the keypad without starting it', () => {
    const sim = new Simulator({ startPackage: clock });
    tapOn(sim, { 'resource-id': 'tab_menu_timer' });
    for (const d of ['1', '1', '5', '0', '0']) tapOn(sim, { text: d, class: 'android.widget.Button' });
    expect(find(sim, { 'resource-id': 'timer_setup_time' }).attrs['text']).toBe('01h 15m 00s');
    expect(clockState(sim).timer).toEqual({ setupDigits: '11500', timers: [] });
  });

  it('changes clock settings through single-choice dialogs: style, silence after, home time zone', () => {
    const sim = new Simulator({ startPackage: clock });
    tapOn(sim, { 'content-desc': 'More options' });
    tapOn(sim, { text: 'Settings' });
    expect(sim.currentActivity()).toBe('com.android.deskclock.settings.SettingsActivity');
    tapOn(sim, { text: 'Style' });
    tapOn(sim, { text: 'Analog', class: 'android.widget.CheckedTextView' });
    tapOn(sim, { text: 'Silence after' });
    expect(find(sim, { text: '10 minutes', class: 'android.widget.CheckedTextView' }).attrs['checked']).toBe('true');
    tapOn(sim, { text: '5 minutes', class: 'android.widget.CheckedTextView' });
    tapOn(sim, { text: 'Home time zone' });
    // the zone list is longer than the dialog: scroll it until Tokyo shows
    const list = find(sim, { 'resource-id': 'android:id/select_dialog_listview' });
    expect(list.attrs['scrollable']).toBe('true');
    expect(exists(sim, { text: '(GMT+9:00) Tokyo' })).toBe(false);
    for (let i = 0; i < 10 && !exists(sim, { text: '(GMT+9:00) Tokyo' }); i++) sim.swipe(540, list.bounds[3] - 20, 540, list.bounds[1] + 20);
    tapOn(sim, { text: '(GMT+9:00) Tokyo' });
    expect(clockState(sim).settings).toMatchObject({ clockStyle: 'Analog', silenceAfter: '5 minutes', homeTimeZone: 'Tokyo' });
  });

  it('sets bedtime, wake-up and the sleep sound', () => {
    const sim = new Simulator({ startPackage: clock });
    tapOn(sim, { 'resource-id': 'tab_menu_bedtime' });
    tapOn(sim, { 'resource-id': 'bedtime_time' });
    tapOn(sim, { 'content-desc': "10 o'clock" });
    tapOn(sim, { text: 'PM' });
    tapOn(sim, { text: 'OK' });
    tapOn(sim, { 'content-desc': 'Wake-up' });
    tapOn(sim, { text: 'Sleep sounds' });
    tapOn(sim, { text: 'Deep space' });
    expect(clockState(sim).bedtime).toMatchObject({ bedtimeHour: 22, bedtimeMinute: 0, wakeEnabled: true, sleepSound: 'Deep space' });
  });

  it('accepts seed data written before bedtime.sleepSound and settings existed (defaults fill in)', () => {
    const { settings: _settings, ...older } = new Simulator().state().clock;
    const { sleepSound: _sound, ...bedtime } = older.bedtime;
    const sim = new Simulator({ initialState: { clock: { ...older, bedtime } } });
    expect(clockState(sim).settings.clockStyle).toBe('Digital');
    expect(clockState(sim).bedtime.sleepSound).toBe('None');
  });

  it('runs a started timer and the stopwatch on the virtual clock', () => {
    const sim = new Simulator({ startPackage: clock });
    tapOn(sim, { 'resource-id': 'tab_menu_timer' });
    tapOn(sim, { text: '1', class: 'android.widget.Button' });
    tapOn(sim, { text: '00', class: 'android.widget.Button' });
    tapOn(sim, { 'content-desc': 'Start' });
    expect(clockState(sim).timer.timers).toMatchObject([{ durationSeconds: 60, running: true }]);
    sim.advanceTime(30_000);
    const remaining = clockState(sim).timer.timers[0]?.remainingMs ?? 0;
    expect(remaining).toBeLessThanOrEqual(30_000);
    expect(remaining).toBeGreaterThan(25_000);
    expect(find(sim, { 'resource-id': 'timer_time_text' }).attrs['text']).toMatch(/^0:(2\d|30)$/);
    tapOn(sim, { 'resource-id': 'tab_menu_stopwatch' });
    tapOn(sim, { 'content-desc': 'Start' });
    sim.advanceTime(5_000);
    expect(find(sim, { 'resource-id': 'stopwatch_time_text' }).attrs['text']).toMatch(/^0:0[5-6]\.\d\d$/);
    tapOn(sim, { 'content-desc': 'Pause' });
    const paused = find(sim, { 'resource-id': 'stopwatch_time_text' }).attrs['text'];
    sim.advanceTime(5_000);
    expect(find(sim, { 'resource-id': 'stopwatch_time_text' }).attrs['text']).toBe(paused);
  });
});

