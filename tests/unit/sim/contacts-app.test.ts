import { describe, expect, it } from 'vitest';
import { Simulator, type ContactsState } from '../../../src/sim/index.js';
import { center, exists, find, findAll, tapOn, type DumpNode } from './sim-test-helpers.js';

const contacts = 'com.google.android.contacts';
const state = (sim: Simulator): ContactsState => sim.appState(contacts) as ContactsState;

function fill(sim: Simulator, hint: string, text: string): void {
  tapOn(sim, { hint, text: '' });
  sim.typeText(text);
}

describe('Contacts app', () => {
  it('creates John Smith with a mobile phone and a work email, then shows his page', () => {
    const sim = new Simulator({ startPackage: contacts });
    tapOn(sim, { 'content-desc': 'Create contact' });
    expect(sim.currentActivity()).toBe('com.android.contacts.activities.ContactEditorActivity');
    fill(sim, 'First name', 'John');
    expect(sim.isKeyboardShown()).toBe(true);
    fill(sim, 'Last name', 'Smith');
    fill(sim, 'Phone', '12345678');
    fill(sim, 'Email', '123456@gmail.com');
    // phone rows default to Mobile, email rows to Home: the Home spinner belongs to the email
    tapOn(sim, { class: 'android.widget.Spinner', 'content-desc': 'Home' });
    tapOn(sim, { text: 'Work', class: 'android.widget.CheckedTextView' });
    sim.hideKeyboard();
    tapOn(sim, { text: 'Save' });
    const john = state(sim).contacts.find((c) => c.firstName === 'John');
    expect(john).toMatchObject({ lastName: 'Smith', phones: [{ number: '12345678', type: 'Mobile' }], emails: [{ address: '123456@gmail.com', type: 'Work' }] });
    expect(sim.currentActivity()).toBe('com.android.contacts.quickcontact.QuickContactActivity');
    expect(find(sim, { 'resource-id': 'large_title' }).attrs['text']).toBe('John Smith');
  });

  it('searches the list, stars a contact and deletes one after confirming', () => {
    const sim = new Simulator({ startPackage: contacts });
    tapOn(sim, { hint: 'Search contacts' });
    sim.typeText('ab');
    expect(exists(sim, { text: 'ABC' })).toBe(true);
    expect(exists(sim, { text: 'Tom Baker' })).toBe(false);
    tapOn(sim, { text: 'ABC' });
    tapOn(sim, { 'content-desc': 'Add to favorites' });
    expect(state(sim).contacts.find((c) => c.firstName === 'ABC')?.starred).toBe(true);
    expect(exists(sim, { 'content-desc': 'Remove from favorites' })).toBe(true);
    tapOn(sim, { 'content-desc': 'More options' });
    tapOn(sim, { text: 'Delete' });
    expect(find(sim, { 'resource-id': 'android:id/message' }).attrs['text']).toBe('Delete this contact?');
    tapOn(sim, { text: 'Delete', class: 'android.widget.Button' });
    expect(state(sim).contacts.some((c) => c.firstName === 'ABC')).toBe(false);
    expect(sim.currentActivity()).toBe('com.android.contacts.activities.PeopleActivity');
  });

  it('edits an existing contact (adds a work phone) and asks before discarding changes', () => {
    const sim = new Simulator({ startPackage: contacts });
    tapOn(sim, { text: 'ABC' });
    tapOn(sim, { 'content-desc': 'Edit contact' });
    expect(find(sim, { 'resource-id': 'toolbar_title' }).attrs['text']).toBe('Edit contact');
    fill(sim, 'Phone', '00112233');
    sim.pressKey('back'); // hides the keyboard
    expect(sim.isKeyboardShown()).toBe(false);
    sim.pressKey('back'); // unsaved changes → dialog
    expect(exists(sim, { text: 'Discard changes?' })).toBe(true);
    tapOn(sim, { text: 'Cancel' });
    // the spinner beside the new number is the second Mobile spinner
    const spinners = findAll(sim, { class: 'android.widget.Spinner', 'content-desc': 'Mobile' });
    expect(spinners).toHaveLength(3); // existing phone, new phone, the next blank row
    sim.tap(...center(spinners[1] as DumpNode));
    tapOn(sim, { text: 'Work', class: 'android.widget.CheckedTextView' });
    tapOn(sim, { text: 'Save' });
    expect(state(sim).contacts.find((c) => c.firstName === 'ABC')?.phones).toEqual([
      { number: '(555) 010-2000', type: 'Mobile' },
      { number: '00112233', type: 'Work' },
    ]);
  });

  it('scrolls a focused field into view when the keyboard opens over it', () => {
    const sim = new Simulator({ startPackage: contacts });
    tapOn(sim, { 'content-desc': 'Create contact' });
    const labels = find(sim, { hint: 'Labels (comma separated)' });
    expect(labels.bounds[1]).toBeGreaterThan(1600); // below where the keyboard will open (y ≈ 1591)
    tapOn(sim, { hint: 'Labels (comma separated)' });
    expect(sim.isKeyboardShown()).toBe(true);
    const keyboardTop = findAll(sim, { package: 'com.google.android.inputmethod.latin' })[0]?.bounds[1] ?? 0;
    const focused = find(sim, { hint: 'Labels (comma separated)', focused: 'true' });
    expect(focused.bounds[3]).toBeLessThanOrEqual(keyboardTop);
    expect(focused.bounds[3] - focused.bounds[1]).toBe(labels.bounds[3] - labels.bounds[1]); // fully visible, not clipped
    sim.typeText('work');
    expect(find(sim, { text: 'work' }).attrs['focused']).toBe('true');
  });
});

