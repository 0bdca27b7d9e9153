// A control that says it leaves the screen (a Cancel, a Close, the app bar's up button, a
// dialog's only button) verified against the run's trail of pages, as Back is. Hand-made
// screens of a notes app: a list, a note page with an app bar, an edit form with a Cancel
// button, a tip dialog dumped alone whose only control is "Got it". The control that led to
// the page the run came from is strong; the same control that led elsewhere, a control that
// does not say it leaves (a row, the start of a bar holding a search field, a button beside a
// box to tick), and a run with no page before stay weak.
import { describe, expect, it } from 'vitest';
import type { ControlUnit } from '../../../src/perception/control-unit.js';
import { perceive } from '../../../src/perception/perceive.js';
import { dismissalControl } from '../../../src/verify/dismissal-control.js';
import { verifyUnitStep } from '../../../src/verify/verify-unit-step.js';
import type { UiTree } from '../../../src/ui/ui-tree.js';
import { hierarchy, node, screen } from './screens.js';

const app = 'com.example.notes';
const at = { packageName: app, activity: '.MainActivity' };

function rows(texts: readonly string[]): string {
  return texts.map((row, index) => node({ text: row, 'resource-id': `${app}:id/row`, clickable: true, package: app, bounds: `[0,${300 + index * 200}][1080,${480 + index * 200}]` })).join('');
}

/** A page under an app bar: an icon at the bar's start described `up`, then `barContent` (a title, or a field). */
function barPage(up: string, barContent: string, body: readonly string[]): UiTree {
  return screen(hierarchy(node({ class: 'android.widget.FrameLayout', package: app, bounds: '[0,0][1080,2400]' },
    node({ class: 'android.view.ViewGroup', 'resource-id': `${app}:id/toolbar`, package: app, bounds: '[0,60][1080,220]' },
      node({ class: 'android.widget.ImageButton', 'content-desc': up, clickable: true, package: app, bounds: '[0,70][150,210]' }) + barContent)
    + rows(body))), at);
}

const title = (text: string): string => node({ class: 'android.widget.TextView', text, package: app, bounds: '[170,100][800,180]' });
const searchField = node({ class: 'android.widget.EditText', text: 'milk', editable: true, focused: true, clickable: true, package: app, bounds: '[170,90][1000,190]' });

const list = screen(hierarchy(node({ class: 'android.widget.FrameLayout', package: app, bounds: '[0,0][1080,2400]' },
  node({ text: 'Notes', package: app, bounds: '[40,80][800,180]' }) + rows(['Shopping', 'Holiday', 'Books']))), at);
const listAgain = screen(hierarchy(node({ class: 'android.widget.FrameLayout', package: app, bounds: '[0,0][1080,2400]' },
  node({ text: 'Notes', package: app, bounds: '[40,80][800,180]' }) + rows(['Shopping', 'Holiday', 'Books']))), at);
const settings = screen(hierarchy(node({ class: 'android.widget.FrameLayout', package: app, bounds: '[0,0][1080,2400]' },
  node({ text: 'Settings', package: app, bounds: '[40,80][800,180]' }) + rows(['Theme', 'Sync', 'About']))), at);
// "Nach oben" is the up button's description on a German device: no word of ours names it.
const note = barPage('Nach oben', title('Shopping'), ['Milk', 'Eggs', 'Bread']);
const searching = barPage('Collapse', searchField, ['Milk']);
const form = screen(hierarchy(node({ class: 'android.widget.FrameLayout', package: app, bounds: '[0,0][1080,2400]' },
  node({ text: 'New note', package: app, bounds: '[40,80][800,180]' })
  + node({ class: 'android.widget.EditText', text: 'Title', editable: true, clickable: true, package: app, bounds: '[40,300][1040,420]' })
  + node({ class: 'android.widget.Button', text: 'Cancel', clickable: true, package: app, bounds: '[40,2200][500,2320]' })
  + node({ class: 'android.widget.Button', text: 'Cancel order', clickable: true, package: app, bounds: '[580,2200][1040,2320]' }))), at);

/** A dialog dumped alone (its window only) with a "Got it" button, and `extra` beside it. */
function tip(extra = ''): UiTree {
  return screen(hierarchy(node({ class: 'android.widget.FrameLayout', package: app, bounds: '[60,900][1020,1500]' },
    node({ text: 'Swipe a note to archive it', package: app, bounds: '[100,940][980,1100]' })
    + extra
    + node({ class: 'android.widget.Button', text: 'Got it', clickable: true, package: app, bounds: '[700,1380][980,1470]' }))), at);
}

function unitOf(tree: UiTree, label: string): ControlUnit {
  const unit = perceive(tree).units.find((item) => item.label === label);
  if (!unit) throw new Error(`no unit labelled ${label}`);
  return unit;
}

const verdict = (before: UiTree, label: string, after: UiTree, cameFrom?: UiTree): ReturnType<typeof verifyUnitStep> =>
  verifyUnitStep({ unit: unitOf(before, label), args: {}, before, after, ...(cameFrom ? { cameFrom } : {}) });

describe('dismissalControl', () => {
  it('knows the up button by its place in the bar, and a Cancel by its name as a whole', () => {
    expect(dismissalControl(unitOf(note, 'Nach oben'), note)).toBe('up');
    expect(dismissalControl(unitOf(form, 'Cancel'), form)).toBe('named');
    expect(dismissalControl(unitOf(form, 'Cancel order'), form)).toBeUndefined();
    expect(dismissalControl(unitOf(note, 'Milk'), note)).toBeUndefined();
    // A search field fills the bar: the control at its start collapses the search, it does not leave the page.
    expect(dismissalControl(unitOf(searching, 'Collapse'), searching)).toBeUndefined();
  });

  it('knows the only control of a dialog dumped alone, and not one with a box to tick beside it', () => {
    expect(dismissalControl(unitOf(tip(), 'Got it'), tip())).toBe('only');
    const ticked = tip(node({ class: 'android.widget.CheckBox', text: "Don't show again", checkable: true, clickable: true, package: app, bounds: '[100,1200][980,1300]' }));
    expect(dismissalControl(unitOf(ticked, 'Got it'), ticked)).toBeUndefined();
  });
});

describe('A control that leaves the screen, against the page the run came from', () => {
  it('is strong when it led to the page the run came from', () => {
    expect(verdict(note, 'Nach oben', listAgain, list)).toMatchObject({ outcome: 'pass', strength: 'strong', tie: 'control-went-back', reason: expect.stringContaining("the app bar's up button returned to the page the run came from") });
    expect(verdict(form, 'Cancel', listAgain, list)).toMatchObject({ outcome: 'pass', strength: 'strong', tie: 'control-went-back', reason: expect.stringContaining('a control named to leave the screen returned to the page the run came from') });
    // The dialog was dumped alone: the page under it, the list, is where its only button leads.
    expect(verdict(tip(), 'Got it', listAgain, list)).toMatchObject({ outcome: 'pass', strength: 'strong', tie: 'control-went-back', reason: expect.stringContaining("the dialog's only control returned to the page the run came from") });
    expect(verdict(tip(), 'Got it', settings, list)).toMatchObject({ outcome: 'pass', strength: 'weak' });
  });

  it('stays weak when it led elsewhere, when no page came before, and for controls that do not say they leave', () => {
    expect(verdict(note, 'Nach oben', settings, list)).toMatchObject({ outcome: 'pass', strength: 'weak' });
    expect(verdict(note, 'Nach oben', listAgain)).toMatchObject({ outcome: 'pass', strength: 'weak' });
    expect(verdict(form, 'Cancel order', listAgain, list)).toMatchObject({ outcome: 'pass', strength: 'weak' });
    expect(verdict(note, 'Milk', listAgain, list)).toMatchObject({ outcome: 'pass', strength: 'weak' });
    expect(verdict(searching, 'Collapse', listAgain, list)).toMatchObject({ outcome: 'pass', strength: 'weak' });
  });
});
