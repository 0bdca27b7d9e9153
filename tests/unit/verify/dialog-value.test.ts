// A dialog dumped without the page under it ("Rename note": a field, CANCEL / OK), closed by its
// OK: the page it was opened from, a step before, did not show the new name, and the page
// after does. Hand-made screens in the shape of such dumps (a note app's page, the dialog's
// window alone, the page again). What really happened is strong; Cancel's page, a name the
// page already showed, and a step with no page before it stay weak. The same for a
// confirmation ("Delete the selected note?") whose page comes back without the note, and for
// an editor's Save whose list comes back with the note, or whose activity the device's
// activity stack shows finished (one activity, no more).
import { describe, expect, it } from 'vitest';
import { perceive } from '../../../src/perception/perceive.js';
import { dialogOnly, PageTrail } from '../../../src/verify/page-trail.js';
import { verifyUnitStep } from '../../../src/verify/verify-unit-step.js';
import { hierarchy, node, screen } from './screens.js';

const app = 'com.example.notes';
const at = { packageName: app, activity: '.MainActivity' };

/** The note page, titled with the note's name. */
function page(title: string): string {
  return hierarchy(node({ class: 'android.widget.FrameLayout', package: app, bounds: '[0,0][1080,2400]' },
    node({ text: title, 'resource-id': `${app}:id/title`, package: app, bounds: '[40,80][800,180]' })
    + node({ 'content-desc': 'More options', class: 'android.widget.ImageView', clickable: true, package: app, bounds: '[960,80][1060,180]' })
    + node({ class: 'android.widget.EditText', text: 'Milk, eggs', 'resource-id': `${app}:id/text`, package: app, bounds: '[40,220][1040,2300]' })));
}

/** The dialog's window alone, its field holding `value` (with `hint` as its placeholder). */
function renameDialog(value: string, hint = ''): string {
  return hierarchy(node({ class: 'android.widget.FrameLayout', package: app, bounds: '[60,900][1020,1500]' },
    node({ text: 'Rename note', package: app, bounds: '[100,940][980,1020]' })
    + node({ class: 'android.widget.EditText', text: value, hint, 'resource-id': `${app}:id/name`, focusable: true, focused: true, clickable: true, package: app, bounds: '[100,1060][980,1180]' })
    + node({ class: 'android.widget.Button', text: 'CANCEL', 'resource-id': 'android:id/button2', clickable: true, package: app, bounds: '[560,1380][760,1470]' })
    + node({ class: 'android.widget.Button', text: 'OK', 'resource-id': 'android:id/button1', clickable: true, package: app, bounds: '[800,1380][980,1470]' })));
}

describe('a dialog whose value shows on the page it was opened from', () => {
  const opener = screen(page('Shopping'), at);
  const dialog = screen(renameDialog('Groceries'), at);
  const ok = perceive(dialog).units.find((unit) => unit.label === 'OK');
  const verdict = (after: string, openedFrom = opener): ReturnType<typeof verifyUnitStep> =>
    verifyUnitStep({ unit: ok!, args: {}, before: dialog, after: screen(after, at), openedFrom });

  it('ties the commit to the dialog: its page now shows the new name', () => {
    expect(ok?.type).toBe('commit');
    expect(verdict(page('Groceries'))).toMatchObject({ outcome: 'pass', strength: 'strong', tie: 'dialog-value-shown', reason: expect.stringContaining('now shows "Groceries", the value its dialog\'s field held') });
  });

  it('stays weak when the page is as it was (as Cancel leaves it), when the page showed the name already, and with no page before', () => {
    expect(verdict(page('Shopping'))).toMatchObject({ outcome: 'pass', strength: 'weak', tie: 'dismissed-page-not-in-dump' });
    expect(verdict(page('Groceries'), screen(page('Groceries'), at))).toMatchObject({ strength: 'weak' });
    expect(verifyUnitStep({ unit: ok!, args: {}, before: dialog, after: screen(page('Groceries'), at) })).toMatchObject({ strength: 'weak', tie: 'dismissed-page-not-in-dump' });
    // A field that holds its hint holds no value: the page titled "Name" is not its value shown (the page did
    // change, which ties the commit by itself: below).
    const hinted = screen(renameDialog('Name', 'Name'), at);
    const hintedOk = perceive(hinted).units.find((unit) => unit.label === 'OK');
    expect(verifyUnitStep({ unit: hintedOk!, args: {}, before: hinted, after: screen(page('Name'), at), openedFrom: opener })).toMatchObject({ tie: 'opened-from-changed' });
  });
});

/** The notes list: a row per note, under two tabs (Notes chosen unless `archive`). */
function list(notes: readonly string[], archive = false): string {
  return hierarchy(node({ class: 'android.widget.FrameLayout', package: app, bounds: '[0,0][1080,2400]' },
    node({ text: 'Notes', class: 'android.widget.TextView', clickable: true, selected: !archive, package: app, bounds: '[0,80][540,180]' })
    + node({ text: 'Archive', class: 'android.widget.TextView', clickable: true, selected: archive, package: app, bounds: '[540,80][1080,180]' })
    + node({ class: 'androidx.recyclerview.widget.RecyclerView', 'resource-id': `${app}:id/notes`, scrollable: true, package: app, bounds: '[0,200][1080,2300]' },
      notes.map((note, index) => node({ text: note, 'resource-id': `${app}:id/note_title`, clickable: true, package: app, bounds: `[40,${220 + index * 160}][1040,${360 + index * 160}]` })).join(''))));
}

/** A confirmation's window alone: its message names no note. */
function confirmDialog(): string {
  return hierarchy(node({ class: 'android.widget.FrameLayout', package: app, bounds: '[60,900][1020,1400]' },
    node({ text: 'Delete the selected note?', 'resource-id': 'android:id/message', package: app, bounds: '[100,940][980,1100]' })
    + node({ class: 'android.widget.Button', text: 'Cancel', 'resource-id': 'android:id/button2', clickable: true, package: app, bounds: '[560,1280][760,1370]' })
    + node({ class: 'android.widget.Button', text: 'Delete', 'resource-id': 'android:id/button1', clickable: true, package: app, bounds: '[800,1280][980,1370]' })));
}

describe('a confirmation whose page it was opened from is back, changed', () => {
  const opener = screen(list(['Shopping', 'Holiday', 'Books']), at);
  const dialog = screen(confirmDialog(), at);
  const remove = perceive(dialog).units.find((unit) => unit.label === 'Delete');
  const verdict = (after: string): ReturnType<typeof verifyUnitStep> => verifyUnitStep({ unit: remove!, args: {}, before: dialog, after: screen(after, at), openedFrom: opener });

  it('ties the commit to the change of that page: the list without the note', () => {
    expect(remove?.type).toBe('commit');
    expect(verdict(list(['Shopping', 'Books']))).toMatchObject({ outcome: 'pass', strength: 'strong', tie: 'opened-from-changed' });
  });

  it('stays weak on the page as it was (as Cancel leaves it), on another tab of the app, and on another page', () => {
    expect(verdict(list(['Shopping', 'Holiday', 'Books']))).toMatchObject({ outcome: 'pass', strength: 'weak', tie: 'dismissed-page-not-in-dump' });
    expect(verdict(list(['Shopping', 'Books'], true))).toMatchObject({ strength: 'weak' });
    expect(verdict(page('Holiday'))).toMatchObject({ strength: 'weak' });
    expect(verifyUnitStep({ unit: remove!, args: {}, before: dialog, after: screen(list(['Shopping', 'Books']), at) })).toMatchObject({ strength: 'weak' });
  });
});

/** A new note's editor, its title field holding `title` (its hint when empty), and its Save. */
function editor(title: string): string {
  return hierarchy(node({ class: 'android.widget.FrameLayout', package: app, bounds: '[0,0][1080,2400]' },
    node({ text: 'New note', package: app, bounds: '[40,80][700,180]' })
    + node({ 'content-desc': 'Save', 'resource-id': `${app}:id/save`, class: 'android.widget.ImageButton', clickable: true, package: app, bounds: '[940,80][1060,180]' })
    + node({ class: 'android.widget.EditText', text: title || 'Title', hint: 'Title', 'resource-id': `${app}:id/title_field`, clickable: true, focusable: true, package: app, bounds: '[40,220][1040,340]' })));
}

describe('an editor\'s commit that left for the page the run came from, back changed', () => {
  const lists = screen(list(['Shopping', 'Books']), at);
  const verdict = (title: string, after: string): ReturnType<typeof verifyUnitStep> => {
    const before = screen(editor(title), at);
    const save = perceive(before).units.find((unit) => unit.label === 'Save');
    expect(save?.type).toBe('commit');
    return verifyUnitStep({ unit: save!, args: {}, before, after: screen(after, at), cameFrom: lists });
  };

  it('ties Save to the list that now holds the note', () => {
    expect(verdict('Holiday', list(['Shopping', 'Books', 'Holiday']))).toMatchObject({ outcome: 'pass', strength: 'strong', tie: 'came-from-changed' });
  });

  it('stays weak on the list as it was (as Cancel or Back leave it), on another tab, and with no value typed', () => {
    expect(verdict('Holiday', list(['Shopping', 'Books']))).toMatchObject({ outcome: 'pass', strength: 'weak' });
    expect(verdict('Holiday', list(['Shopping', 'Books', 'Holiday'], true))).toMatchObject({ strength: 'weak' });
    expect(verdict('', list(['Shopping', 'Books', 'Holiday']))).toMatchObject({ strength: 'weak' });
  });
});

describe('an editor\'s commit that finished its activity, by the device\'s activity stack', () => {
  const main = `${app}/.MainActivity`;
  const editorActivity = `${app}/.EditorActivity`;
  const verdict = (title: string, stackBefore: readonly string[], stackAfter: readonly string[]): ReturnType<typeof verifyUnitStep> => {
    const before = screen(editor(title), { ...at, activityStack: stackBefore });
    const save = perceive(before).units.find((unit) => unit.label === 'Save');
    return verifyUnitStep({ unit: save!, args: {}, before, after: screen(list(['Shopping', 'Books']), { ...at, activityStack: stackAfter }) });
  };

  it('ties Save to the editor\'s activity finished, with no page on the trail', () => {
    expect(verdict('Holiday', [editorActivity, main], [main])).toMatchObject({ outcome: 'pass', strength: 'strong', tie: 'editor-finished', reason: expect.stringContaining(`finished ${editorActivity}`) });
  });

  it('stays weak when the stack stayed, when more than the editor\'s activity closed, and with no stack', () => {
    expect(verdict('Holiday', [editorActivity, main], [editorActivity, main])).toMatchObject({ outcome: 'pass', strength: 'weak' });
    expect(verdict('Holiday', [`${app}/.DetailsActivity`, editorActivity, main], [main])).toMatchObject({ strength: 'weak' });
    expect(verdict('Holiday', [], [])).toMatchObject({ strength: 'weak' });
  });

  it('ties a commit named to save with no field (colours chosen in dialogs), not another commit', () => {
    // A German device's Save is a commit by its id (`save`), named in the device's language.
    const customize = (label: string): string => hierarchy(node({ class: 'android.widget.FrameLayout', package: app, bounds: '[0,0][1080,2400]' },
      node({ text: 'Customize colors', package: app, bounds: '[160,80][700,180]' })
      + node({ 'content-desc': label, 'resource-id': `${app}:id/${label === 'Send' ? 'send' : 'save'}`, class: 'android.widget.ImageButton', clickable: true, package: app, bounds: '[940,80][1060,180]' })
      + node({ text: 'Theme', 'resource-id': `${app}:id/theme`, clickable: true, package: app, bounds: '[0,300][1080,460]' })));
    const commitOn = (label: string): ReturnType<typeof verifyUnitStep> => {
      const before = screen(customize(label), { ...at, activityStack: [editorActivity, main] });
      const unit = perceive(before).units.find((item) => item.label === label);
      expect(unit?.type).toBe('commit');
      return verifyUnitStep({ unit: unit!, args: {}, before, after: screen(list(['Shopping', 'Books']), { ...at, activityStack: [main] }) });
    };
    expect(commitOn('Save')).toMatchObject({ outcome: 'pass', strength: 'strong', tie: 'editor-finished' });
    expect(commitOn('Speichern')).toMatchObject({ strength: 'strong', tie: 'editor-finished' });
    expect(commitOn('Send')).toMatchObject({ outcome: 'pass', strength: 'weak' });
  });
});

describe('PageTrail', () => {
  it('gives a dialog dumped alone the last whole page before it, and a page nothing', () => {
    const [opener, dialog] = [screen(page('Shopping'), at), screen(renameDialog('Groceries'), at)];
    expect([dialogOnly(opener), dialogOnly(dialog)]).toEqual([false, true]);
    const trail = new PageTrail();
    expect(trail.note(dialog).openedFrom).toBeUndefined();
    expect(trail.note(opener).openedFrom).toBeUndefined();
    expect(trail.note(dialog).openedFrom).toBe(opener);
    // A menu's window, then the dialog: still the page under both.
    expect(trail.note(dialog).openedFrom).toBe(opener);
    trail.clear();
    expect(trail.note(dialog).openedFrom).toBeUndefined();
  });
});
