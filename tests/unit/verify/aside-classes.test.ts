// Kinds of steps seen on apps outside the team's corpus (described in words, rebuilt here as
// hand-made screens): what really happened passes, what did not does not.
import { describe, expect, it } from 'vitest';
import { perceive } from '../../../src/perception/perceive.js';
import { verifyUnitStep } from '../../../src/verify/verify-unit-step.js';
import type { UiTree } from '../../../src/ui/ui-tree.js';
import { hierarchy, node, screen } from './screens.js';

const app = 'com.example.videos';

/** A chip as many apps draw it: a checkable frame, its label in a text inside. */
function chip(text: string, left: number, checked: boolean): string {
  const bounds = `[${left},200][${left + 200},300]`;
  return node({ class: 'android.widget.FrameLayout', 'resource-id': `${app}:id/chip`, package: app, checkable: true, checked, clickable: true, bounds },
    node({ class: 'android.widget.TextView', text, 'resource-id': `${app}:id/chip_text`, package: app, bounds }));
}

function chipRow(...chips: [string, boolean][]): string {
  return hierarchy(node({ class: 'android.widget.FrameLayout', package: app, bounds: '[0,0][1080,2400]' },
    node({ class: 'android.widget.HorizontalScrollView', 'resource-id': `${app}:id/chips`, package: app, bounds: '[0,200][1080,300]' },
      node({ class: 'com.google.android.material.chip.ChipGroup', package: app, bounds: '[0,200][1080,300]' }, chips.map(([text, checked], index) => chip(text, index * 220, checked)).join(''))) +
    node({ text: 'Results', package: app, bounds: '[0,400][1080,500]' })));
}

describe('a filter chip that becomes checked and moves to the first place', () => {
  const before = screen(chipRow(['All', false], ['Music', false], ['Gaming', false]));
  const gaming = perceive(before).units.find((unit) => unit.label === 'Gaming');

  it('is found by its label, not by the place it left, and passes as flipped', () => {
    expect(gaming?.type).toBe('toggle');
    const after = screen(chipRow(['Gaming', true], ['All', false], ['Music', false]));
    expect(verifyUnitStep({ unit: gaming!, args: {}, before, after })).toMatchObject({ outcome: 'pass', strength: 'strong' });
  });

  it('fails when it moved but stayed unchecked, and when another chip became checked', () => {
    const moved = screen(chipRow(['Gaming', false], ['All', false], ['Music', false]));
    expect(verifyUnitStep({ unit: gaming!, args: {}, before, after: moved }).outcome).not.toBe('pass');
    const other = screen(chipRow(['Music', true], ['All', false], ['Gaming', false]));
    expect(verifyUnitStep({ unit: gaming!, args: {}, before, after: other }).outcome).not.toBe('pass');
  });
});

describe('a system confirmation opened by a settings switch', () => {
  const settings = 'com.android.settings';
  const row = (checked: boolean): string => node({ class: 'android.widget.LinearLayout', package: settings, clickable: true, bounds: '[0,400][1080,560]' },
    node({ text: 'Notes Helper', package: settings, bounds: '[40,420][800,480]' })
    + node({ class: 'android.widget.Switch', 'resource-id': 'android:id/switch_widget', package: settings, checkable: true, checked, bounds: '[900,440][1040,520]' }));
  const page = (extra = ''): string => hierarchy(node({ class: 'android.widget.FrameLayout', package: settings, bounds: '[0,0][1080,2400]' },
    node({ text: 'Notification access', package: settings, bounds: '[40,150][800,250]' }) + row(false) + extra));
  const dialog = (negative: string): string => hierarchy(node({ class: 'android.widget.FrameLayout', package: settings, bounds: '[100,900][980,1500]' },
    node({ text: 'Allow notification access for Notes Helper?', 'resource-id': 'android:id/alertTitle', package: settings, bounds: '[150,950][930,1100]' })
    + node({ text: negative, 'resource-id': 'android:id/button2', class: 'android.widget.Button', package: settings, clickable: true, bounds: '[500,1380][700,1460]' })
    + node({ text: 'ALLOW', 'resource-id': 'android:id/button1', class: 'android.widget.Button', package: settings, clickable: true, bounds: '[720,1380][930,1460]' })));
  const before = screen(page(), { packageName: settings });
  const unit = perceive(before).units.find((candidate) => candidate.type === 'toggle');

  it('passes as a raised prompt naming it when the dialog asks DENY or ALLOW', () => {
    expect(unit?.label).toContain('Notes Helper');
    const after = screen(dialog('DENY'), { packageName: settings });
    expect(verifyUnitStep({ unit: unit!, args: {}, before, after })).toMatchObject({ outcome: 'pass', code: 'raised-prompt', strength: 'strong' });
  });

  it('passes the same when the page is a window shorter than the screen and the dump holds the dialog window alone', () => {
    // As DroidBot dumped Settings' "Allow notification access for …": the app's window ends above the navigation
    // bar (so the page itself counts as a window smaller than the screen), and after the tap the dump holds the
    // dialog's window, matched to the page's window, so no surface seems to come.
    const bars = node({ class: 'android.widget.FrameLayout', package: 'com.android.systemui', bounds: '[0,0][1080,72]' })
      + node({ class: 'android.widget.FrameLayout', package: 'com.android.systemui', bounds: '[0,2160][1080,2400]' });
    const short = (content: string): string => hierarchy(content, bars);
    const pageWindow = node({ class: 'android.widget.FrameLayout', package: settings, bounds: '[0,72][1080,1776]' },
      node({ text: 'Notification access', package: settings, bounds: '[40,150][800,250]' }) + row(false));
    const dialogWindow = node({ class: 'android.widget.FrameLayout', package: settings, bounds: '[27,374][1053,1473]' },
      node({ class: 'android.widget.TextView', text: 'Allow notification access for Notes Helper', 'resource-id': `${settings}:id/alertTitle`, package: settings, bounds: '[147,476][933,598]' })
      + node({ class: 'android.widget.Button', text: 'DENY', 'resource-id': 'android:id/button2', package: settings, clickable: true, bounds: '[500,1290][720,1410]' })
      + node({ class: 'android.widget.Button', text: 'ALLOW', 'resource-id': 'android:id/button1', package: settings, clickable: true, bounds: '[740,1290][980,1410]' }));
    const shortBefore = screen(short(pageWindow), { packageName: settings });
    const switchUnit = perceive(shortBefore).units.find((candidate) => candidate.type === 'toggle');
    const after = screen(short(dialogWindow), { packageName: settings });
    expect(verifyUnitStep({ unit: switchUnit!, args: {}, before: shortBefore, after })).toMatchObject({ outcome: 'pass', code: 'raised-prompt', strength: 'strong' });
    // The same lone window without a way to decline is no confirmation: the switch is simply not on screen.
    const noDecline = screen(short(dialogWindow.replace('text="DENY"', 'text="MORE"')), { packageName: settings });
    expect(verifyUnitStep({ unit: switchUnit!, args: {}, before: shortBefore, after: noDecline })).toMatchObject({ outcome: 'inconclusive' });
  });

  it('is not a confirmation when the dialog offers no way to decline', () => {
    const after = screen(dialog('MORE'), { packageName: settings });
    expect(verifyUnitStep({ unit: unit!, args: {}, before, after }).code).not.toBe('raised-prompt');
  });
});

describe('a tap that lays out a row of image tiles anew', () => {
  // Tiles are ImageViews without text, description or state: the delta does not compare them.
  const gallery = 'com.example.gallery';
  const tiles = (count: number): string => Array.from({ length: count }, (_, index) =>
    node({ class: 'android.widget.ImageView', 'resource-id': `${gallery}:id/tile`, package: gallery, bounds: `[${index * 180},600][${index * 180 + 170},770]` })).join('');
  const page = (count: number): string => hierarchy(node({ class: 'android.widget.FrameLayout', package: gallery, bounds: '[0,0][1080,2400]' },
    node({ text: 'Album', package: gallery, bounds: '[40,150][800,250]' })
    + node({ class: 'android.widget.Button', text: 'More', 'resource-id': `${gallery}:id/more`, package: gallery, clickable: true, bounds: '[40,400][300,500]' })
    + node({ class: 'android.widget.LinearLayout', 'resource-id': `${gallery}:id/tiles`, package: gallery, bounds: '[0,600][1080,770]' }, tiles(count))));
  const before = screen(page(5), { packageName: gallery });
  const more = perceive(before).units.find((unit) => unit.label === 'More');

  it('is a change when 5 tiles become 6 with the same ids (the compared nodes all stayed)', () => {
    const after = screen(page(6), { packageName: gallery });
    expect(verifyUnitStep({ unit: more!, args: {}, before, after })).toMatchObject({ outcome: 'pass', strength: 'weak', tie: 'screen-changed' });
  });

  it('is no change when the same 5 tiles are drawn again', () => {
    const after = screen(page(5), { packageName: gallery });
    expect(verifyUnitStep({ unit: more!, args: {}, before, after })).toMatchObject({ outcome: 'fail', code: 'no-change' });
  });
});

describe('an "OK" gone with the box that held it, on a page without fields', () => {
  const game = 'com.example.game';
  const tiles = Array.from({ length: 8 }, (_, index) => node({ text: String(2 ** (index + 1)), package: game, bounds: `[${40 + index * 120},500][${150 + index * 120},600]` })).join('');
  const page = (box: string): string => hierarchy(node({ class: 'android.widget.FrameLayout', package: game, bounds: '[0,0][1080,2400]' },
    node({ text: 'Score 128', package: game, bounds: '[40,150][800,250]' })
    + node({ class: 'android.widget.Button', text: 'New game', package: game, clickable: true, bounds: '[40,300][400,400]' })
    + tiles + box));
  const box = node({ class: 'android.view.View', package: game, bounds: '[100,900][980,1500]' },
    node({ class: 'android.view.View', text: 'Start again? Your score will be lost.', package: game, bounds: '[150,950][930,1100]' })
    + node({ class: 'android.view.View', text: 'Cancel', package: game, clickable: true, bounds: '[400,1380][600,1460]' })
    + node({ class: 'android.view.View', text: 'OK', package: game, clickable: true, bounds: '[700,1380][900,1460]' }));
  const before = screen(page(box));
  const ok = perceive(before).units.find((unit) => unit.label === 'OK');

  it('passes weak: "Cancel" would leave the same page, so the box closing ties nothing to "OK"', () => {
    expect(ok?.type).toBe('commit');
    expect(verifyUnitStep({ unit: ok!, args: {}, before, after: screen(page('')) })).toMatchObject({ outcome: 'pass', strength: 'weak', reason: expect.stringContaining('as a cancel would leave it') });
  });
});

describe('a card whose texts name a field', () => {
  const tasks = 'com.example.tasks';
  const frame = (content: string): string => hierarchy(node({ class: 'android.widget.FrameLayout', package: tasks, bounds: '[0,0][1080,2400]' }, content));
  const list = node({ text: 'Tasks', package: tasks, bounds: '[40,100][800,200]' })
    + node({ class: 'android.widget.LinearLayout', 'resource-id': `${tasks}:id/task_row`, package: tasks, clickable: true, bounds: '[0,300][1080,450]' },
      node({ text: 'Water the plants', package: tasks, bounds: '[20,320][700,380]' })
      + node({ text: 'Add a task', package: tasks, bounds: '[20,390][700,440]' }))
    + node({ class: 'android.widget.TextView', text: 'Feed the cat', package: tasks, clickable: true, bounds: '[0,500][1080,600]' });
  // Whatever opened the quick-add field (its own button, the "+" of the toolbar), not the row.
  const quickAdd = node({ class: 'android.widget.EditText', text: 'Add a task', package: tasks, focusable: true, focused: true, bounds: '[40,2000][1040,2100]' });
  const before = screen(frame(list));
  const row = perceive(before).units.find((unit) => unit.type === 'click' && unit.label.startsWith('Water the plants'));

  it('is not tied to the row when a field named by a text inside the row takes the focus', () => {
    expect(row).toBeDefined();
    expect(verifyUnitStep({ unit: row!, args: {}, before, after: screen(frame(list + quickAdd)) })).toMatchObject({ outcome: 'pass', strength: 'weak' });
  });

  it('ties a control to a field named like the control itself', () => {
    const toolbar = node({ text: 'Tasks', package: tasks, bounds: '[40,100][800,200]' })
      + node({ class: 'android.widget.ImageButton', 'content-desc': 'Search', package: tasks, clickable: true, bounds: '[960,100][1060,200]' })
      + node({ class: 'android.widget.TextView', text: 'Feed the cat', package: tasks, clickable: true, bounds: '[0,500][1080,600]' });
    const search = screen(frame(toolbar));
    const button = perceive(search).units.find((unit) => unit.label === 'Search');
    const opened = screen(frame(node({ text: 'Tasks', package: tasks, bounds: '[40,100][800,200]' })
      + node({ class: 'android.widget.EditText', text: 'Search tasks', package: tasks, focusable: true, focused: true, bounds: '[40,250][1000,350]' })
      + node({ class: 'android.widget.TextView', text: 'Feed the cat', package: tasks, clickable: true, bounds: '[0,500][1080,600]' })));
    expect(verifyUnitStep({ unit: button!, args: {}, before: search, after: opened })).toMatchObject({ outcome: 'pass', strength: 'strong', tie: 'named-field-focused' });
  });
});

describe('a setting\'s row that opens the list of its choices, the dump holding the list alone', () => {
  const notes = 'com.example.notes';
  const row = (top: number, name: string, value: string): string => node({ class: 'android.widget.RelativeLayout', package: notes, clickable: true, bounds: `[0,${top}][1080,${top + 190}]` },
    node({ text: name, package: notes, bounds: `[60,${top + 40}][600,${top + 95}]` }) + node({ text: value, package: notes, bounds: `[60,${top + 95}][1000,${top + 150}]` }));
  const settings = screen(hierarchy(node({ class: 'android.widget.FrameLayout', package: notes, bounds: '[0,0][1080,2280]' },
    node({ text: 'Settings', package: notes, bounds: '[160,220][380,300]' }) + row(800, 'Font size', 'Large') + row(990, 'Tab to open at app start', 'Last used one'))));
  const list = (options: string[], checked: string): UiTree => screen(hierarchy(node({ class: 'android.widget.FrameLayout', package: notes, bounds: '[28,850][1052,1450]' },
    node({ class: 'android.widget.RadioGroup', package: notes, bounds: '[72,895][1008,1423]' }, options.map((option, index) =>
      node({ class: 'android.widget.RadioButton', text: option, package: notes, checkable: true, checked: option === checked, clickable: true, bounds: `[72,${895 + index * 132}][1008,${1027 + index * 132}]` })).join('')))));
  const sizes = ['Small', 'Medium', 'Large', 'Extra large'];
  const units = perceive(settings).units;
  const fontSize = units.find((unit) => unit.label.startsWith('Font size'));
  const tab = units.find((unit) => unit.label.startsWith('Tab to open'));

  it('is strong when the value the row showed is the one chosen in the list', () => {
    expect(verifyUnitStep({ unit: fontSize!, args: {}, before: settings, after: list(sizes, 'Large') })).toMatchObject({ outcome: 'pass', strength: 'strong', tie: 'choices-show-its-value' });
  });

  it('is weak when another value is chosen, and for another row judged on this list', () => {
    expect(verifyUnitStep({ unit: fontSize!, args: {}, before: settings, after: list(sizes, 'Medium') })).toMatchObject({ outcome: 'pass', strength: 'weak' });
    expect(verifyUnitStep({ unit: tab!, args: {}, before: settings, after: list(sizes, 'Large') })).toMatchObject({ outcome: 'pass', strength: 'weak' });
    expect(verifyUnitStep({ unit: tab!, args: {}, before: settings, after: list(['Last used one', 'Contacts', 'Favorites'], 'Last used one') })).toMatchObject({ outcome: 'pass', strength: 'strong' });
  });
});
