import { describe, expect, it } from 'vitest';
import { relabelled } from '../../../src/sim/fault-injector.js';
import { Simulator, faultProfiles, resolveFaultConfig, type ContactsState } from '../../../src/sim/index.js';
import { exists, find, findAll, tapOn } from './sim-test-helpers.js';

const contacts = 'com.google.android.contacts';
const clock = 'com.google.android.deskclock';

describe('faults', () => {
  it('resolves profiles: none is empty, standard enables every kind at a moderate rate', () => {
    expect(resolveFaultConfig('none')).toEqual({});
    expect(resolveFaultConfig(undefined)).toEqual({});
    const standard = resolveFaultConfig('standard');
    expect(Object.keys(standard).sort()).toEqual(['delayed-effect', 'dropped-tap', 'icon-only', 'interstitial', 'shuffle', 'slow-settle']);
    for (const rule of Object.values(faultProfiles.standard)) expect(rule?.rate).toBeLessThanOrEqual(0.1);
  });

  it('dropped-tap: a scheduled tap does nothing and is logged with its step', () => {
    const sim = new Simulator({ startPackage: contacts, faults: { 'dropped-tap': { atSteps: [2] } } });
    const target = find(sim, { text: 'Tom Baker' }); // step 1
    sim.tap(target.bounds[0] + 5, target.bounds[1] + 5); // step 2: dropped
    expect(sim.currentActivity()).toBe('com.android.contacts.activities.PeopleActivity');
    expect(sim.faultLog()).toEqual([{ kind: 'dropped-tap', step: 2, detail: `tap (${target.bounds[0] + 5},${target.bounds[1] + 5}) dropped` }]);
    tapOn(sim, { text: 'Tom Baker' }); // not scheduled: works
    expect(sim.currentActivity()).toBe('com.android.contacts.quickcontact.QuickContactActivity');
  });

  it('delayed-effect: the change shows only after N observations (state included)', () => {
    const sim = new Simulator({ startPackage: clock, faults: { 'delayed-effect': { atSteps: [2], observations: 2 } } });
    const sw = find(sim, { 'content-desc': '9:00 AM alarm' }); // step 1
    sim.tap(sw.bounds[0] + 5, sw.bounds[1] + 5); // step 2: delayed
    const enabled = (): boolean | undefined => (sim.appState(clock) as { alarms: { hour: number; enabled: boolean }[] }).alarms.find((a) => a.hour === 9)?.enabled;
    expect(enabled()).toBe(false);
    expect(find(sim, { 'content-desc': '9:00 AM alarm' }).attrs['checked']).toBe('false'); // observation 2
    expect(find(sim, { 'content-desc': '9:00 AM alarm' }).attrs['checked']).toBe('true'); // observation 3 = 1 + 2
    expect(enabled()).toBe(true);
    expect(sim.faultLog().map((e) => e.kind)).toEqual(['delayed-effect']);
    expect(sim.faultLog()[0]?.detail).toMatch(/shows after 2 observations/);
  });

  it('interstitial: an unexpected "Rate this app"/"Update available" dialog over the app, dismissed by its button or back', () => {
    const sim = new Simulator({ startPackage: contacts, faults: { interstitial: { atSteps: [2, 9] } } });
    tapOn(sim, { text: 'Tom Baker' }); // steps 1-2
    const dismiss = findAll(sim, { text: /^(Not now|Later)$/ });
    expect(dismiss).toHaveLength(1);
    expect(dismiss[0]?.attrs['package']).toBe(contacts);
    expect(exists(sim, { text: /Enjoying Contacts\?|Update available/ })).toBe(true);
    tapOn(sim, { text: /^(Not now|Later)$/ });
    expect(exists(sim, { text: /^(Not now|Later)$/ })).toBe(false);
    expect(sim.currentActivity()).toBe('com.android.contacts.quickcontact.QuickContactActivity');
    tapOn(sim, { 'content-desc': 'Add to favorites' }); // steps 8-9: second interstitial
    expect(exists(sim, { text: /^(Not now|Later)$/ })).toBe(true);
    sim.pressKey('back');
    expect(exists(sim, { text: /^(Not now|Later)$/ })).toBe(false);
    expect(sim.currentActivity()).toBe('com.android.contacts.quickcontact.QuickContactActivity');
    expect(sim.faultLog().map((e) => [e.kind, e.step])).toEqual([['interstitial', 2], ['interstitial', 9]]);
  });

  it('icon-only: labelled icon targets lose their content-desc, the same ones every time, logged once each', () => {
    const sim = new Simulator({ startPackage: contacts, faults: { 'icon-only': { rate: 1 } } });
    const fab = find(sim, { 'resource-id': 'floating_action_button' });
    expect(fab.attrs['content-desc']).toBe('');
    expect(fab.attrs['NAF']).toBe('true');
    sim.pageSource('uiautomator-dump');
    const logged = sim.faultLog().filter((e) => e.kind === 'icon-only');
    expect(logged.map((e) => e.detail)).toContain('android.widget.ImageButton "Create contact" lost its label');
    expect(new Set(logged.map((e) => e.detail)).size).toBe(logged.length);
    // text rows are not icons: names stay
    expect(exists(sim, { text: 'Tom Baker' })).toBe(true);
    // system bars keep their labels
    expect(exists(sim, { 'content-desc': 'Back', package: 'com.android.systemui' })).toBe(true);
    tapOn(sim, { 'resource-id': 'floating_action_button' });
    expect(sim.currentActivity()).toBe('com.android.contacts.activities.ContactEditorActivity');
  });

  it('shuffle: a list shows in a seeded permutation; state order is untouched', () => {
    const names = (sim: Simulator): string[] => findAll(sim, { 'resource-id': 'cliv_name_textview' }).map((n) => n.attrs['text'] ?? '');
    const plain = names(new Simulator({ startPackage: contacts }));
    const shuffledSim = new Simulator({ startPackage: contacts, faults: { shuffle: { rate: 1 } } });
    const shuffled = names(shuffledSim);
    expect([...shuffled].sort()).toEqual([...plain].sort());
    expect(shuffled).not.toEqual(plain);
    expect(names(new Simulator({ startPackage: contacts, faults: { shuffle: { rate: 1 } } }))).toEqual(shuffled);
    expect(shuffledSim.faultLog().filter((e) => e.kind === 'shuffle')).toHaveLength(1);
    expect((shuffledSim.appState(contacts) as ContactsState).contacts.map((c) => c.id)).toEqual(['c1', 'c2', 'c3', 'c4', 'c5']);
  });

  it('relabel: a control whose label holds a renamed word shows it in other words, logged once; the ground truth keeps the old label; taps still work', () => {
    expect(relabelled('OK')).toBe('Confirm');
    expect(relabelled('Save changes')).toBe('Done changes');
    expect(relabelled('SEARCH')).toBe('FIND');
    expect(relabelled('Add alarm')).toBeUndefined();
    expect(relabelled('Booking')).toBeUndefined(); // whole words only
    const sim = new Simulator({ startPackage: clock, faults: { relabel: { rate: 1 } } });
    tapOn(sim, { 'content-desc': 'Add alarm' });
    expect(exists(sim, { text: 'OK' })).toBe(false);
    expect(find(sim, { 'resource-id': 'material_timepicker_ok_button' }).attrs['text']).toBe('Confirm');
    expect(sim.groundTruthSource()).toContain('text="OK"');
    // Not renamed: labels without a renamed word, and text that is not a control.
    expect(exists(sim, { text: 'Cancel' })).toBe(true);
    expect(exists(sim, { text: 'Select time' })).toBe(true);
    expect(sim.faultLog().filter((e) => e.kind === 'relabel').map((e) => e.detail)).toEqual(['android.widget.Button "OK" shown as "Confirm"']);
    tapOn(sim, { text: 'Confirm' });
    expect((sim.appState(clock) as { alarms: unknown[] }).alarms).toHaveLength(3);
    // Negative control: without the fault the button reads OK.
    const plain = new Simulator({ startPackage: clock });
    tapOn(plain, { 'content-desc': 'Add alarm' });
    expect(find(plain, { 'resource-id': 'material_timepicker_ok_button' }).attrs['text']).toBe('OK');
  });

  it('swap-labels: sibling text buttons show each other\'s labels (each the next one\'s); the ground truth and what a tap does stay put', () => {
    const sim = new Simulator({ startPackage: clock, faults: { 'swap-labels': { rate: 1 } } });
    tapOn(sim, { 'content-desc': 'Add alarm' });
    expect(find(sim, { 'resource-id': 'material_timepicker_ok_button' }).attrs['text']).toBe('Cancel');
    expect(find(sim, { 'resource-id': 'material_timepicker_cancel_button' }).attrs['text']).toBe('OK');
    expect(sim.groundTruthSource()).toMatch(/text="OK"[^>]*material_timepicker_ok_button|material_timepicker_ok_button[^>]*text="OK"/);
    expect(sim.faultLog().some((e) => e.kind === 'swap-labels' && e.detail === 'labels "Cancel", "OK" shown one place on')).toBe(true);
    // The button labelled OK is the Cancel button: tapping it adds no alarm.
    tapOn(sim, { text: 'OK' });
    expect((sim.appState(clock) as { alarms: unknown[] }).alarms).toHaveLength(2);
    // Negative control: a rate of 0 swaps nothing.
    const plain = new Simulator({ startPackage: clock, faults: { 'swap-labels': { rate: 0 } } });
    tapOn(plain, { 'content-desc': 'Add alarm' });
    expect(find(plain, { 'resource-id': 'material_timepicker_ok_button' }).attrs['text']).toBe('OK');
  });

  it('slow-settle: after an action the hierarchy keeps changing (a ProgressBar) for N observations, then is stable', () => {
    const sim = new Simulator({ startPackage: contacts, faults: { 'slow-settle': { atSteps: [2], observations: 3 } } });
    tapOn(sim, { text: 'Tom Baker' }); // steps 1-2
    expect(sim.isSettled()).toBe(false);
    const frames = [1, 2, 3, 4, 5].map(() => sim.pageSource('uiautomator-dump'));
    expect(frames.slice(0, 3).every((f) => f.includes('class="android.widget.ProgressBar"'))).toBe(true);
    expect(new Set(frames.slice(0, 3)).size).toBe(3);
    expect(frames[3]).toBe(frames[4]);
    expect(frames[3]).not.toContain('ProgressBar');
    expect(sim.isSettled()).toBe(true);
    expect(sim.faultLog()).toEqual([{ kind: 'slow-settle', step: 2, detail: 'hierarchy unstable for 3 observations' }]);
  });

  it('standard profile over a long random session: every fault is logged with a kind and a step, and the run replays exactly', () => {
    const session = (): { log: string; xml: string } => {
      const sim = new Simulator({ seed: 3, faults: 'standard' });
      const packages = sim.installedApps().map((a) => a.packageName);
      let xml = '';
      for (let i = 0; i < 120; i++) {
        if (i % 15 === 0) sim.launchApp(packages[(i / 15) % packages.length] as string);
        else if (i % 7 === 0) sim.pressKey('back');
        else if (i % 5 === 0) sim.swipe(540, 1600, 540, 900);
        else sim.tap((i * 137) % 1080, 200 + ((i * 311) % 2000));
        xml = sim.pageSource('uiautomator-dump');
      }
      return { log: JSON.stringify(sim.faultLog()), xml };
    };
    const a = session();
    expect(a).toEqual(session());
    const log = JSON.parse(a.log) as { kind: string; step: number }[];
    expect(log.length).toBeGreaterThan(3);
    expect(log.every((e) => Number.isInteger(e.step) && e.step > 0)).toBe(true);
  });
});
