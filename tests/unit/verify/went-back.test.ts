// Back (the loop's nav-back, a recorder's BACK key) verified against the run's trail of
// pages: the page it came from is where Back leads. Hand-made screens of a notes app (a
// list, a note, a settings page, a dialog dumped alone) and a launcher. Back that led to the
// page the run came from is strong; Back that led elsewhere, a tap that led there, and Back
// with no page before it stay weak; a page that shows the word "Back" does not name the key.
// Home that left the app for the home screen is strong; so is Back that did the same from an
// app's page with no page under it on the trail, and from nowhere else. Back whose after screen
// carries the device's activity stack less the activity on top (DroidBot records the stack) is
// strong without the trail, onto a dialog dumped alone only when the activity finished was
// another app's; Back that kept or replaced the stack, Back from the app's own page onto a
// dialog, a tap that finished the activity, and screens without a stack stay weak.
import { describe, expect, it } from 'vitest';
import { perceive } from '../../../src/perception/perceive.js';
import { computeDelta } from '../../../src/verify/compute-delta.js';
import { PageTrail } from '../../../src/verify/page-trail.js';
import { verifyUnitStep } from '../../../src/verify/verify-unit-step.js';
import type { UiTree } from '../../../src/ui/ui-tree.js';
import { hierarchy, node, screen } from './screens.js';

const app = 'com.example.notes';
const at = { packageName: app, activity: '.MainActivity' };

/** A page titled `title` with `rows` rows of text. */
function page(title: string, rows: readonly string[]): UiTree {
  return screen(hierarchy(node({ class: 'android.widget.FrameLayout', package: app, bounds: '[0,0][1080,2400]' },
    node({ text: title, 'resource-id': `${app}:id/title`, package: app, bounds: '[40,80][800,180]' })
    + rows.map((row, index) => node({ text: row, 'resource-id': `${app}:id/row`, clickable: true, package: app, bounds: `[0,${300 + index * 200}][1080,${480 + index * 200}]` })).join(''))), at);
}

const list = page('Notes', ['Shopping', 'Holiday', 'Books']);
const note = page('Shopping', ['Milk', 'Eggs']);
const settings = page('Settings', ['Theme', 'Back up notes', 'About']);
const dialog = screen(hierarchy(node({ class: 'android.widget.FrameLayout', package: app, bounds: '[60,900][1020,1500]' },
  node({ text: 'Delete note?', package: app, bounds: '[100,940][980,1020]' })
  + node({ class: 'android.widget.Button', text: 'CANCEL', clickable: true, package: app, bounds: '[560,1380][760,1470]' }))), at);

function back(before: UiTree): ReturnType<typeof perceive>['units'][number] {
  const unit = perceive(before).units.find((item) => item.id === 'nav-back');
  if (!unit) throw new Error('no nav-back unit');
  return unit;
}

describe('PageTrail', () => {
  it('says which page the run came from, and drops the pages above a page it returns to', () => {
    const trail = new PageTrail();
    expect(trail.note(list)).toEqual({});
    expect(trail.note(note)).toEqual({ cameFrom: list });
    // A dialog dumped alone: the page under it is where it was opened from, and where Back leads.
    expect(trail.note(dialog)).toEqual({ openedFrom: note, cameFrom: note });
    expect(trail.note(settings)).toEqual({ cameFrom: note });
    // Back at the list: the note and the settings page are off the trail.
    expect(trail.note(page('Notes', ['Shopping', 'Holiday', 'Books']))).toEqual({});
    expect(trail.note(settings)).toEqual({ cameFrom: expect.objectContaining({ nodes: list.nodes.map((item) => expect.objectContaining({ text: item.text })) }) });
    trail.clear();
    expect(trail.note(dialog)).toEqual({});
  });

  it('takes a page re-drawn (not another page outright) for the page it was, not for a page the run came from', () => {
    const trail = new PageTrail();
    trail.note(list);
    trail.note(note);
    // A row more on the note: the same page, so Back from it still leads to the list.
    const grown = page('Shopping', ['Milk', 'Eggs', 'Bread', 'Butter']);
    expect(trail.note(grown)).toEqual({ cameFrom: list });
  });

  it('takes a page Back left off the trail, and keeps the page under a dialog Back closed', () => {
    const trail = new PageTrail();
    trail.note(note);
    trail.back();
    // The run began on the note; Back reached the list, which it did not come from.
    expect(trail.note(list)).toEqual({});
    expect(trail.note(note)).toEqual({ cameFrom: list });
    expect(trail.note(dialog)).toEqual({ openedFrom: note, cameFrom: note });
    trail.back();
    expect(trail.note(note)).toEqual({ cameFrom: list });
  });
});

describe('Back against the page the run came from', () => {
  const verdict = (before: UiTree, after: UiTree, cameFrom?: UiTree): ReturnType<typeof verifyUnitStep> =>
    verifyUnitStep({ unit: back(before), args: {}, before, after, ...(cameFrom ? { cameFrom } : {}) });

  it('is strong when it led to the page the run came from, or closed a dialog onto the page under it', () => {
    expect(verdict(note, page('Notes', ['Shopping', 'Holiday', 'Books']), list)).toMatchObject({ outcome: 'pass', strength: 'strong', tie: 'went-back', reason: expect.stringContaining('it returned to the page the run came from') });
    expect(verdict(dialog, note, note)).toMatchObject({ outcome: 'pass', strength: 'strong', tie: 'went-back' });
  });

  it('stays weak when it led elsewhere or no page came before; a tap that led there is not Back', () => {
    expect(verdict(note, settings, list)).toMatchObject({ outcome: 'pass', strength: 'weak', tie: 'screen-changed' });
    expect(verdict(note, list)).toMatchObject({ outcome: 'pass', strength: 'weak' });
    const row = perceive(note).units.find((unit) => unit.label === 'Milk');
    expect(verifyUnitStep({ unit: row!, args: {}, before: note, after: list, cameFrom: list })).not.toMatchObject({ tie: 'went-back' });
    // Nothing changed: Back failed, whatever the trail says.
    expect(verdict(note, note, list)).toMatchObject({ outcome: 'fail', code: 'no-change' });
  });

  it('is not named by a page that shows the word "Back"', () => {
    const backUp = page('Back up', ['Back', 'Restore']);
    expect(verdict(note, backUp)).toMatchObject({ outcome: 'pass', strength: 'weak', tie: 'screen-changed' });
  });
});

describe('Back against the device\'s activity stack', () => {
  const main = `${app}/.MainActivity`;
  const settingsActivity = `${app}/.SettingsActivity`;
  const withStack = (tree: UiTree, activityStack: readonly string[]): UiTree => ({ ...tree, activityStack });
  const onSettings = withStack(settings, [settingsActivity, main]);
  const verdict = (before: UiTree, after: UiTree): ReturnType<typeof verifyUnitStep> => verifyUnitStep({ unit: back(before), args: {}, before, after });

  it('is strong when the activity on top was finished and the one under it is on top, with no page on the trail', () => {
    expect(verdict(onSettings, withStack(list, [main]))).toMatchObject({ outcome: 'pass', strength: 'strong', tie: 'activity-finished', reason: expect.stringContaining(`it finished ${settingsActivity}`) });
    // Two finished at once (a flow of activities that closes as one) is the same evidence.
    expect(verdict(withStack(settings, ['a/.Third', settingsActivity, main]), withStack(list, [main]))).toMatchObject({ strength: 'strong', tie: 'activity-finished' });
    // Another app's activity (a file picker the dialog started) finished: the dialog that started it shows again.
    expect(verdict(withStack(settings, ['com.android.documentsui/.picker.PickActivity', main]), withStack(dialog, [main]))).toMatchObject({ strength: 'strong', tie: 'activity-finished' });
  });

  it('stays weak when the stack was kept or replaced, when a dialog dumped alone is on top, when no stack was recorded, and for a tap', () => {
    expect(verdict(onSettings, withStack(list, [settingsActivity, main]))).toMatchObject({ outcome: 'pass', strength: 'weak' });
    expect(verdict(onSettings, withStack(list, ['com.other/.Main']))).toMatchObject({ outcome: 'pass', strength: 'weak' });
    expect(verdict(withStack(settings, [settingsActivity]), withStack(list, []))).toMatchObject({ outcome: 'pass', strength: 'weak' });
    // After the app's own page, what Back shows is the activity under as it was left, not a dialog over it (another control's effect).
    expect(verdict(onSettings, withStack(dialog, [main]))).toMatchObject({ outcome: 'pass', strength: 'weak' });
    expect(verdict(settings, list)).toMatchObject({ outcome: 'pass', strength: 'weak' });
    const row = perceive(onSettings).units.find((unit) => unit.label === 'About');
    expect(verifyUnitStep({ unit: row!, args: {}, before: onSettings, after: withStack(list, [main]) })).toMatchObject({ outcome: 'pass', strength: 'weak' });
  });
});

describe('computeDelta on screens with nothing to compare', () => {
  it('reads two empty dumps as no change, and an empty dump that filled as a new page', () => {
    const empty = screen(hierarchy(), at);
    expect(computeDelta(empty, empty).label).toBe('no-change');
    expect(computeDelta(empty, list).label).toBe('new-page');
  });
});

describe('Home against the home screen', () => {
  const launcher = screen(hierarchy(node({ class: 'android.widget.FrameLayout', package: 'com.android.launcher3', bounds: '[0,0][1080,2400]' },
    node({ text: 'Notes', class: 'android.widget.TextView', clickable: true, package: 'com.android.launcher3', bounds: '[40,300][260,520]' })
    + node({ text: 'Clock', class: 'android.widget.TextView', clickable: true, package: 'com.android.launcher3', bounds: '[300,300][520,520]' }))), { packageName: 'com.android.launcher3', activity: '.Launcher' });
  const key = (before: UiTree, id: 'nav-home' | 'nav-back'): ReturnType<typeof perceive>['units'][number] => perceive(before).units.find((unit) => unit.id === id)!;

  it('is strong when it left the app for the home screen', () => {
    expect(verifyUnitStep({ unit: key(note, 'nav-home'), args: {}, before: note, after: launcher })).toMatchObject({ outcome: 'pass', strength: 'strong', tie: 'home-screen', reason: expect.stringContaining(`it left ${app} for the home screen (com.android.launcher3)`) });
    // Home from the home screen to another of its pages: nothing left.
    const otherHome = screen(hierarchy(node({ class: 'android.widget.FrameLayout', package: 'com.android.launcher3', bounds: '[0,0][1080,2400]' }, node({ text: 'Maps', clickable: true, package: 'com.android.launcher3', bounds: '[40,300][260,520]' }))), { packageName: 'com.android.launcher3', activity: '.Launcher' });
    expect(verifyUnitStep({ unit: key(launcher, 'nav-home'), args: {}, before: launcher, after: otherHome })).toMatchObject({ outcome: 'pass', strength: 'weak' });
  });

  it('ties Back that left for the home screen only from an app\'s page with no page under it on the trail', () => {
    // Nothing under the page: Back left the app, which it does on the app's last page only.
    expect(verifyUnitStep({ unit: key(note, 'nav-back'), args: {}, before: note, after: launcher })).toMatchObject({ outcome: 'pass', strength: 'strong', tie: 'left-for-home', reason: expect.stringContaining(`it left ${app} for the home screen (com.android.launcher3)`) });
    // A page under it on the trail (of the app, or the browser that opened it): Back leads there, not home.
    expect(verifyUnitStep({ unit: key(note, 'nav-back'), args: {}, before: note, after: launcher, cameFrom: list })).toMatchObject({ outcome: 'pass', strength: 'weak' });
    // Back on a dialog closes the dialog; it does not leave the app.
    expect(verifyUnitStep({ unit: key(dialog, 'nav-back'), args: {}, before: dialog, after: launcher })).toMatchObject({ outcome: 'pass', strength: 'weak' });
    // Nor on a permission dialog over the app: that is the system's, not the app's last page.
    const permission = screen(hierarchy(node({ class: 'android.widget.FrameLayout', package: 'com.google.android.permissioncontroller', bounds: '[0,0][1080,2400]' },
      node({ text: 'Allow Notes to access your location?', 'resource-id': 'com.android.permissioncontroller:id/permission_message', package: 'com.google.android.permissioncontroller', bounds: '[60,1200][1020,1300]' })
      + node({ class: 'android.widget.Button', text: 'Don’t allow', 'resource-id': 'com.android.permissioncontroller:id/permission_deny_button', clickable: true, package: 'com.google.android.permissioncontroller', bounds: '[60,1700][1020,1800]' }))),
    { packageName: 'com.google.android.permissioncontroller', activity: '.GrantPermissionsActivity' });
    expect(verifyUnitStep({ unit: key(permission, 'nav-back'), args: {}, before: permission, after: launcher })).toMatchObject({ outcome: 'pass', strength: 'weak' });
    // Another page of the app, or a dialog over the home screen, is not the home screen shown whole.
    expect(verifyUnitStep({ unit: key(note, 'nav-back'), args: {}, before: note, after: settings })).toMatchObject({ outcome: 'pass', strength: 'weak' });
    const launcherDialog = screen(hierarchy(node({ class: 'android.widget.FrameLayout', package: 'com.android.launcher3', bounds: '[60,900][1020,1500]' }, node({ text: 'Remove widget?', package: 'com.android.launcher3', bounds: '[100,940][980,1020]' }))), { packageName: 'com.android.launcher3', activity: '.Launcher' });
    expect(verifyUnitStep({ unit: key(note, 'nav-back'), args: {}, before: note, after: launcherDialog })).toMatchObject({ outcome: 'pass', strength: 'weak' });
  });
});
