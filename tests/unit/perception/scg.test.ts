import { describe, expect, it } from 'vitest';
import type { UnitId } from '../../../src/perception/control-unit.js';
import { perceive, type Perception } from '../../../src/perception/perceive.js';
import { addEdges, checkCommitment, frontier } from '../../../src/perception/scg.js';
import { parseHierarchy } from '../../../src/ui/parse-hierarchy.js';
import { fakeDump, fakeScreen } from '../ui/dump-builder.js';

/** A sign-up form: two labelled fields, a switch row, and Save; plus an unrelated Help link outside the form. */
function form(): Perception {
  return perceive(parseHierarchy(fakeScreen(
    { class: 'android.widget.LinearLayout', bounds: [0, 0, 1080, 200], children: [
      { class: 'android.widget.ImageButton', clickable: true, desc: 'Navigate up', bounds: [0, 0, 150, 200] },
      { text: 'Sign up', bounds: [200, 0, 800, 200] },
    ] },
    { class: 'android.widget.LinearLayout', bounds: [0, 200, 1080, 2000], children: [
      { text: 'Name', bounds: [40, 220, 400, 280] },
      { class: 'android.widget.EditText', clickable: true, bounds: [40, 290, 1040, 390] },
      { text: 'Email', bounds: [40, 420, 400, 480] },
      { class: 'android.widget.EditText', clickable: true, bounds: [40, 490, 1040, 590] },
      { clickable: true, bounds: [0, 620, 1080, 760], children: [
        { text: 'Newsletter', bounds: [40, 640, 700, 740] },
        { class: 'android.widget.Switch', checkable: true, bounds: [900, 640, 1040, 740] },
      ] },
      { class: 'android.widget.Button', clickable: true, text: 'Save', bounds: [40, 800, 1040, 900] },
    ] },
  )));
}

function unitId(perception: Perception, label: string): UnitId {
  const unit = perception.units.find((candidate) => candidate.label === label);
  if (!unit) throw new Error(`no unit "${label}" in\n${perception.view}`);
  return unit.id;
}

function formIds(perception: Perception): [UnitId, UnitId, UnitId, UnitId] {
  return [unitId(perception, 'Name'), unitId(perception, 'Email'), unitId(perception, 'Newsletter'), unitId(perception, 'Save')];
}

describe('SCG edges', () => {
  it('puts every fill/toggle of a form before its commit, and nothing else', () => {
    const perception = form();
    const [name, email, newsletter, save] = formIds(perception);
    expect(perception.scg.edges).toEqual([[name, save], [email, save], [newsletter, save]]);
    expect(perception.scg.expected.toggle).toBe('checked-flipped');
  });

  it('links a Save in the toolbar to the fields of the same window', () => {
    const perception = perceive(parseHierarchy(fakeScreen(
      { bounds: [0, 0, 1080, 200], children: [
        { class: 'android.widget.ImageButton', clickable: true, desc: 'Navigate up', bounds: [0, 0, 150, 200] },
        { class: 'android.widget.TextView', clickable: true, text: 'Save', id: 'com.example.app:id/action_save', bounds: [900, 0, 1080, 200] },
      ] },
      { bounds: [0, 200, 1080, 2400], children: [
        { text: 'Title', bounds: [40, 220, 400, 280] },
        { class: 'android.widget.EditText', clickable: true, bounds: [40, 290, 1040, 390] },
        { text: 'Body', bounds: [40, 420, 400, 480] },
        { class: 'android.widget.EditText', clickable: true, bounds: [40, 490, 1040, 590] },
      ] },
    )));
    const save = unitId(perception, 'Save');
    expect(perception.scg.edges).toEqual([[unitId(perception, 'Title'), save], [unitId(perception, 'Body'), save]]);
  });

  it('has no form edges for a list of switches with an "Add" button', () => {
    const perception = perceive(parseHierarchy(fakeScreen(
      { clickable: true, bounds: [0, 100, 1080, 300], children: [{ text: 'Alarm 7:00', bounds: [0, 100, 700, 300] }, { class: 'android.widget.Switch', checkable: true, bounds: [900, 150, 1040, 250] }] },
      { clickable: true, bounds: [0, 300, 1080, 500], children: [{ text: 'Alarm 8:00', bounds: [0, 300, 700, 500] }, { class: 'android.widget.Switch', checkable: true, bounds: [900, 350, 1040, 450] }] },
      { class: 'android.widget.Button', clickable: true, text: 'Add alarm', bounds: [400, 2000, 680, 2200] },
    )));
    expect(perception.units.some((unit) => unit.type === 'commit')).toBe(true);
    expect(perception.scg.edges).toEqual([]);
  });

  it('puts an open spinner before the options of its dropdown', () => {
    const perception = perceive(parseHierarchy(fakeDump(
      { bounds: [0, 0, 1080, 2400], children: [{ class: 'android.widget.Spinner', clickable: true, text: 'Red', bounds: [40, 400, 1040, 500] }] },
      { class: 'android.widget.FrameLayout', bounds: [40, 500, 1040, 800], children: [{ class: 'android.widget.ListView', scrollable: true, bounds: [40, 500, 1040, 800], children: [
        { class: 'android.widget.CheckedTextView', clickable: true, checkable: true, checked: true, text: 'Red', bounds: [40, 500, 1040, 600] },
        { class: 'android.widget.CheckedTextView', clickable: true, checkable: true, text: 'Green', bounds: [40, 600, 1040, 700] },
      ] }] },
    )));
    const spinner = perception.units.find((unit) => unit.members.some((member) => member.className === 'android.widget.Spinner'))!;
    const green = unitId(perception, 'Green');
    expect(spinner.type).toBe('select');
    expect(perception.scg.edges).toContainEqual([spinner.id, green]);
    expect(perception.blocks.find((block) => block.units.includes(green))!.surface).toBe(true);
  });
});

describe('frontier and admissibility', () => {
  it('frontier holds units whose predecessors are done', () => {
    const perception = form();
    const [name, email, newsletter, save] = formIds(perception);
    const ids = (done: UnitId[]) => frontier(perception.scg, new Set(done)).map((unit) => unit.id);
    expect(ids([])).not.toContain(save);
    expect(ids([])).toEqual(expect.arrayContaining([name, email, newsletter, 'nav-back']));
    // A form's fields are alternatives for its commit: one done is enough (optional fields).
    expect(ids([email])).toContain(save);
    expect(ids([name, email, newsletter])).toContain(save);
    expect(ids([name, email, newsletter])).not.toContain(name);
  });

  it('rejects a commit of an untouched form and returns the violated edge', () => {
    const perception = form();
    const [name, email, newsletter, save] = formIds(perception);
    const result = checkCommitment(perception.scg, [save], new Set());
    expect(result.admissible).toBe(false);
    if (result.admissible || result.kind !== 'edge') throw new Error('expected an edge violation');
    expect(result.violation.edge).toEqual([name, save]);
    expect(result.violation.position).toBe(0);
    expect(result.violation.reason).toContain('put the field(s) to change before it');
    expect(checkCommitment(perception.scg, [name, save], new Set())).toEqual({ admissible: true });
    expect(checkCommitment(perception.scg, [name, email, newsletter, save], new Set())).toEqual({ admissible: true });
    expect(checkCommitment(perception.scg, [save], new Set([name, email, newsletter]))).toEqual({ admissible: true });
    expect(checkCommitment(perception.scg, [save, name, email, newsletter], new Set()).admissible).toBe(false);
    expect(checkCommitment(perception.scg, ['nav-back' as UnitId], new Set())).toEqual({ admissible: true });
  });

  it('reports an id that is not on the screen', () => {
    const result = checkCommitment(form().scg, ['n0000' as UnitId], new Set());
    expect(result).toMatchObject({ admissible: false, kind: 'unknown-unit', unitId: 'n0000', position: 0 });
  });
});

describe('addEdges', () => {
  it('accepts edges that keep the graph acyclic and says why the others were rejected', () => {
    const perception = form();
    const [name, email, newsletter, save] = formIds(perception);
    const result = addEdges(perception.scg, [
      [name, email],
      [save, name],
      [email, name],
      [name, save],
      [newsletter, newsletter],
      ['n0000' as UnitId, save],
    ]);
    expect(result.accepted).toEqual([[name, email]]);
    expect(result.rejected.map((rejection) => rejection.reason)).toEqual(['cycle', 'cycle', 'duplicate', 'self-loop', 'unknown-unit']);
    expect(result.scg.edges).toContainEqual([name, email]);
    expect(perception.scg.edges).not.toContainEqual([name, email]);
    const after = checkCommitment(result.scg, [email, name], new Set());
    expect(after.admissible).toBe(false);
  });
});
