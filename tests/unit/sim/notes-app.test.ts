import { describe, expect, it } from 'vitest';
import { Simulator, type NotesState } from '../../../src/sim/index.js';
import { dumpNodes, exists, find, findAll, tapOn } from './sim-test-helpers.js';

const notes = 'com.simplemobiletools.notes.pro';
const state = (sim: Simulator): NotesState => sim.appState(notes) as NotesState;

describe('Notes app', () => {
  it('creates a text note and autosaves what is typed', () => {
    const sim = new Simulator({ startPackage: notes });
    tapOn(sim, { 'content-desc': 'Create a new note' });
    tapOn(sim, { hint: 'Title' });
    sim.typeText('Ideas');
    tapOn(sim, { text: 'OK' });
    expect(sim.currentActivity()).toBe('.activities.NoteActivity');
    tapOn(sim, { hint: 'Insert text here' });
    sim.typeText('buy a lamp');
    expect(state(sim).notes.find((n) => n.title === 'Ideas')).toMatchObject({ type: 'text', text: 'buy a lamp' });
  });

  it('creates a checklist, adds items and checks one', () => {
    const sim = new Simulator({ startPackage: notes });
    tapOn(sim, { 'content-desc': 'Create a new note' });
    tapOn(sim, { hint: 'Title' });
    sim.typeText('Trip');
    tapOn(sim, { text: 'Checklist' });
    tapOn(sim, { text: 'OK' });
    for (const item of ['Passport', 'Tickets']) {
      tapOn(sim, { 'content-desc': 'Add new checklist items' });
      tapOn(sim, { hint: 'Enter item' });
      sim.typeText(item);
      tapOn(sim, { text: 'OK' });
    }
    tapOn(sim, { text: 'Tickets' });
    const trip = state(sim).notes.find((n) => n.title === 'Trip');
    expect(trip?.items.map((i) => [i.text, i.checked])).toEqual([['Passport', false], ['Tickets', true]]);
    expect(findAll(sim, { class: 'android.widget.CheckBox', checked: 'true' })).toHaveLength(1);
  });

  it('deletes a note from the unlabelled toolbar icon after confirming', () => {
    const sim = new Simulator({ startPackage: notes });
    tapOn(sim, { text: 'Shopping' });
    const icon = find(sim, { 'resource-id': 'delete_note' });
    expect(icon.attrs['content-desc']).toBe('');
    expect(icon.attrs['NAF']).toBe('true');
    tapOn(sim, { 'resource-id': 'delete_note' });
    tapOn(sim, { text: 'Delete' });
    expect(state(sim).notes.map((n) => n.title)).toEqual(['General note', 'Diary']);
    expect(sim.currentActivity()).toBe('.activities.MainActivity');
    expect(exists(sim, { text: 'Shopping' })).toBe(false);
  });

  it('renames a note through More options and deletes another from the long-press bottom sheet', () => {
    const sim = new Simulator({ startPackage: notes });
    tapOn(sim, { text: 'Diary' });
    tapOn(sim, { 'content-desc': 'More options' });
    tapOn(sim, { text: 'Rename note' });
    tapOn(sim, { class: 'android.widget.EditText', text: 'Diary' });
    sim.clearText();
    sim.typeText('events');
    tapOn(sim, { text: 'OK' });
    expect(find(sim, { 'resource-id': 'note_title' }).attrs['text']).toBe('events');
    sim.pressKey('back');
    const general = find(sim, { text: 'General note' });
    sim.longPress(general.bounds[0] + 10, general.bounds[1] + 10);
    const nodes = dumpNodes(sim.pageSource('uiautomator-dump'));
    const sheetRoot = nodes.filter((n) => n.depth === 0 && n.attrs['package'] === notes)[0];
    expect(sheetRoot?.bounds[3]).toBe(2400 - 126); // a bottom sheet window sits on the navigation bar
    expect(sheetRoot?.bounds[1]).toBeGreaterThan(1200);
    tapOn(sim, { text: 'Delete note' });
    tapOn(sim, { text: 'Delete' });
    expect(state(sim).notes.map((n) => n.title)).toEqual(['events', 'Shopping']);
  });
});
