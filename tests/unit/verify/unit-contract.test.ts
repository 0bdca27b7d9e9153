import { describe, expect, it } from 'vitest';
import type { BlockId, ControlUnit, UnitId, UnitType } from '../../../src/perception/control-unit.js';
import type { NodeId, UiTree } from '../../../src/ui/ui-tree.js';
import { computeDelta } from '../../../src/verify/compute-delta.js';
import { parsePredicate } from '../../../src/verify/parse-predicate.js';
import { unitContract, verifyCommitment, type ContractArgs } from '../../../src/verify/unit-contract.js';
import type { VerifyOutcome } from '../../../src/verify/verify-outcome.js';
import { verifyUnitStep } from '../../../src/verify/verify-unit-step.js';
import { alertDialog, appendChild, hierarchy, node, nodeWhere, readDump, removeElement, screen, setAttribute } from './screens.js';

/** A control unit over nodes of `tree`, as perception would build it (members by index). */
function unitOf(tree: UiTree, type: UnitType, label: string, indices: number[], state: ControlUnit['state'] = { enabled: true }): ControlUnit {
  const members = indices.map((index) => {
    const member = tree.nodes[index]!;
    return { nodeId: `n${index}` as NodeId, node: index, bounds: member.bounds, className: member.className, resourceId: member.resourceId, text: member.text, contentDesc: member.contentDesc };
  });
  return {
    id: `u${indices[0] ?? 'x'}` as UnitId, type, label, primary: members[0]?.nodeId ?? null, members,
    bounds: members[0]?.bounds ?? [0, 0, 0, 0], tap: null, affordances: [], block: 'b0' as BlockId, state,
  } as ControlUnit;
}

function check(unit: ControlUnit, args: ContractArgs, before: UiTree, after: UiTree): VerifyOutcome {
  return unitContract(unit, args, before, after, computeDelta(before, after));
}

const settingsXml = readDump('settings');
const settings = screen(settingsXml);
const airplaneRow = (tree: UiTree): number => {
  const title = nodeWhere(tree, (candidate) => candidate.text === 'Airplane mode');
  let row = title.index;
  while (!tree.nodes[row]!.clickable) row = tree.nodes[row]!.parent;
  return row;
};

describe('toggle contract (real Settings screen)', () => {
  const unit = unitOf(settings, 'toggle', 'Airplane mode', [airplaneRow(settings)]);
  const flipped = screen(setAttribute(settingsXml, 'switchWidget', 'checked', 'true'));

  it('passes when the switch flipped, or equals the wanted state', () => {
    expect(check(unit, {}, settings, flipped).outcome).toBe('pass');
    expect(check(unit, { checked: true }, settings, flipped).outcome).toBe('pass');
  });

  it('fails when nothing flipped, or the state is not the wanted one', () => {
    const same = check(unit, {}, settings, screen(settingsXml));
    expect(same).toMatchObject({ outcome: 'fail', code: 'not-toggled' });
    expect(check(unit, { checked: false }, settings, flipped).outcome).toBe('fail');
  });

  it('is inconclusive when the switch is gone from the after screen', () => {
    const gone = screen(removeElement(settingsXml, 'text="Airplane mode"'));
    const withoutSwitch = screen(removeElement(settingsXml, 'switchWidget'));
    expect(check(unit, {}, settings, withoutSwitch).outcome).toBe('inconclusive');
    expect(['inconclusive', 'fail']).toContain(check(unit, {}, settings, gone).outcome);
  });
});

describe('fill contract (real time picker)', () => {
  const xml = readDump('timePicker');
  const before = screen(xml);
  const field = nodeWhere(before, (candidate) => candidate.editable);
  const unit = unitOf(before, 'fill', 'Hour', [field.index], { enabled: true, value: '01' });

  it('passes when the field holds the value (whitespace-normalised)', () => {
    expect(check(unit, { value: ' 07 ' }, before, screen(setAttribute(xml, 'class="android.widget.EditText"', 'text', '07'))).outcome).toBe('pass');
  });

  it('fails when the field holds something else', () => {
    expect(check(unit, { value: '07' }, before, screen(setAttribute(xml, 'class="android.widget.EditText"', 'text', '0107')))).toMatchObject({ outcome: 'fail', code: 'value-mismatch' });
  });

  it('fails when the field shows its hint instead of the value', () => {
    const hinted = hierarchy(node({ class: 'android.widget.FrameLayout', bounds: '[0,0][1000,1000]' }, node({ class: 'android.widget.EditText', text: 'Label', hint: 'Label', focusable: true, bounds: '[0,0][800,100]' })));
    const tree = screen(hinted);
    const hintUnit = unitOf(tree, 'fill', 'Label', [1]);
    expect(check(hintUnit, { value: 'Gym' }, tree, tree)).toMatchObject({ outcome: 'fail', code: 'shows-hint' });
  });

  it('accepts a formatted phone number with the same digits', () => {
    const make = (text: string): UiTree => screen(hierarchy(node({ class: 'android.widget.FrameLayout', bounds: '[0,0][1000,1000]' }, node({ class: 'android.widget.EditText', text, bounds: '[0,0][800,100]' }))));
    const empty = make('');
    expect(check(unitOf(empty, 'fill', 'Phone', [1]), { value: '5551234567' }, empty, make('(555) 123-4567')).outcome).toBe('pass');
  });

  it('is inconclusive when the value is the hint itself (typed text and hint look the same)', () => {
    const make = (text: string): UiTree => screen(hierarchy(node({ class: 'android.widget.FrameLayout', bounds: '[0,0][1000,1000]' }, node({ class: 'android.widget.EditText', text, hint: 'Name', bounds: '[0,0][800,100]' }))));
    const empty = make('');
    expect(check(unitOf(empty, 'fill', 'Name', [1]), { value: 'Name' }, empty, make('Name'))).toMatchObject({ outcome: 'inconclusive', code: 'value-is-hint' });
  });

  it('is inconclusive for a password field', () => {
    const make = (text: string): UiTree => screen(hierarchy(node({ class: 'android.widget.FrameLayout', bounds: '[0,0][1000,1000]' }, node({ class: 'android.widget.EditText', text, password: true, bounds: '[0,0][800,100]' }))));
    const empty = make('');
    expect(check(unitOf(empty, 'fill', 'Password', [1]), { value: 'secret' }, empty, make('••••••'))).toMatchObject({ outcome: 'inconclusive', code: 'password' });
  });
});

describe('select contract', () => {
  const make = (spinnerText: string, selected = false): UiTree => screen(hierarchy(node({ class: 'android.widget.FrameLayout', bounds: '[0,0][1000,1000]' },
    node({ class: 'android.widget.Spinner', clickable: true, bounds: '[0,0][800,100]' }, node({ text: spinnerText, 'resource-id': 'android:id/text1', bounds: '[10,10][700,90]' }))
    + node({ text: 'Weekly', clickable: true, selected, bounds: '[0,200][800,300]' }))));

  it('passes when the spinner shows the value, or the option is selected', () => {
    const before = make('Daily');
    expect(check(unitOf(before, 'select', 'Repeat', [1]), { value: 'weekly' }, before, make('Weekly')).outcome).toBe('pass');
    expect(check(unitOf(before, 'select', 'Weekly', [3]), { value: 'Weekly' }, before, make('Daily', true)).outcome).toBe('pass');
  });

  it('fails when the value is neither shown nor selected', () => {
    const before = make('Daily');
    expect(check(unitOf(before, 'select', 'Repeat', [1]), { value: 'Monthly' }, before, make('Daily')).outcome).toBe('fail');
  });

  it('is inconclusive while the picker is open but nothing is chosen yet', () => {
    const before = make('Daily');
    const opened = screen(appendChild(hierarchy(node({ class: 'android.widget.FrameLayout', bounds: '[0,0][1000,1000]' }, node({ class: 'android.widget.Spinner', clickable: true, bounds: '[0,0][800,100]' }, node({ text: 'Daily', bounds: '[10,10][700,90]' })))), 'bounds="[0,0][1000,1000]"', alertDialog));
    expect(check(unitOf(before, 'select', 'Repeat', [1]), { value: 'Monthly' }, before, opened)).toMatchObject({ outcome: 'inconclusive', code: 'picker-open' });
  });
});

describe('click, long-press, navigate, commit, finish contracts', () => {
  const clock = screen(readDump('clock'));
  const internetRow = settings.nodes.find((candidate) => candidate.text === 'Internet')!;
  const click = unitOf(settings, 'click', 'Internet', [internetRow.parent]);

  it('click passes on some change and fails on none', () => {
    expect(check(click, {}, settings, clock).outcome).toBe('pass');
    expect(check(click, {}, settings, settings)).toMatchObject({ outcome: 'fail', code: 'no-change' });
    expect(check(unitOf(settings, 'long-press', 'Internet', [internetRow.parent]), {}, settings, settings).outcome).toBe('fail');
  });

  it('click checks the page or expectation it was given instead', () => {
    expect(check(click, { package: 'com.android.settings' }, settings, clock)).toMatchObject({ outcome: 'fail', code: 'wrong-page' });
    expect(verifyUnitStep({ unit: click, args: {}, expectation: parsePredicate('package ~ "deskclock"'), before: settings, after: clock })).toMatchObject({ outcome: 'pass', strength: 'strong' });
    expect(check(click, { activity: 'Alarm' }, settings, clock).outcome).toBe('inconclusive');
  });

  it('long-press passes on some change', () => {
    expect(check(unitOf(settings, 'long-press', 'Internet', [internetRow.parent]), {}, settings, screen(setAttribute(settingsXml, 'switchWidget', 'checked', 'true'))).outcome).toBe('pass');
  });

  it('navigate is inconclusive when the screen does not report its package', () => {
    const back = { ...unitOf(settings, 'navigate', 'back', []), members: [] } as ControlUnit;
    const anonymous = { ...clock, packageName: '' };
    expect(check(back, { package: 'com.google.android.deskclock' }, settings, anonymous).outcome).toBe('inconclusive');
  });

  it('navigate passes on the asked package and fails elsewhere', () => {
    const back = { ...unitOf(settings, 'navigate', 'back', []), members: [] } as ControlUnit;
    expect(check(back, { package: 'com.google.android.deskclock' }, settings, clock).outcome).toBe('pass');
    expect(check(back, { package: 'com.android.chrome' }, settings, clock).outcome).toBe('fail');
    expect(check(back, {}, settings, settings).outcome).toBe('fail');
  });

  it('commit passes on a new page or a dismissed surface, fails on no change or a new error', () => {
    const withDialog = screen(appendChild(settingsXml, 'bounds="[0,0][1280,2856]"', alertDialog));
    const ok = nodeWhere(withDialog, (candidate) => candidate.text === 'OK');
    const commit = unitOf(withDialog, 'commit', 'OK', [ok.index]);
    expect(check(commit, {}, withDialog, settings).outcome).toBe('pass');
    expect(check(commit, {}, withDialog, withDialog).outcome).toBe('fail');
    const toast = appendChild(appendChild(settingsXml, 'bounds="[0,0][1280,2856]"', alertDialog), 'bounds="[0,0][1280,2856]"', node({ class: 'android.widget.Toast', text: 'Could not save', bounds: '[100,2600][1100,2700]' }));
    expect(check(commit, {}, withDialog, screen(toast))).toMatchObject({ outcome: 'fail', code: 'blocked' });
    const partly = screen(setAttribute(appendChild(settingsXml, 'bounds="[0,0][1280,2856]"', alertDialog), 'text="Turn on airplane mode?"', 'text', 'Saving…'));
    expect(check(commit, {}, withDialog, partly).outcome).toBe('inconclusive');
  });

  it('finish always passes (the task check decides)', () => {
    expect(check(unitOf(settings, 'finish', 'finish', []), {}, settings, settings).outcome).toBe('pass');
  });
});

describe('scroll contract (real Settings list)', () => {
  const recycler = nodeWhere(settings, (candidate) => candidate.scrollable);
  const unit = unitOf(settings, 'scroll', 'list', [recycler.index]);

  it('passes when the list content moved', () => {
    let xml = removeElement(settingsXml, 'text="Internet"');
    xml = appendChild(xml, 'resource-id="com.android.settings:id/recycler_view"', node({ text: 'Calls & SMS', package: 'com.android.settings', bounds: '[48,2600][1000,2700]' }));
    expect(check(unit, {}, settings, screen(xml)).outcome).toBe('pass');
  });

  it('is inconclusive when the container is gone but the page stayed', () => {
    const page = (listClass: string): UiTree => screen(hierarchy(node({ class: 'android.widget.FrameLayout', bounds: '[0,0][1000,2000]' },
      node({ text: 'Title', bounds: '[0,0][1000,100]' })
      + node({ class: listClass, scrollable: true, bounds: '[0,100][1000,1900]' }, node({ text: 'Row 1', bounds: '[0,100][1000,200]' }) + node({ text: 'Row 2', bounds: '[0,200][1000,300]' })))));
    const before = page('android.widget.ListView');
    const after = page('android.widget.GridView');
    const delta = computeDelta(before, after);
    expect(delta.label).toBe('partial-change');
    const list = unitOf(before, 'scroll', 'list', [nodeWhere(before, (candidate) => candidate.scrollable).index]);
    expect(unitContract(list, {}, before, after, delta).outcome).toBe('inconclusive');
  });

  it('with a direction, passes only when the rows still in view moved that way within the list', () => {
    // Rows first..first+7 of a list 200 px apart, none cut by the list's top or bottom edge.
    const page = (first: number): UiTree => screen(hierarchy(node({ class: 'android.widget.FrameLayout', bounds: '[0,0][1000,2000]' },
      node({ text: 'Numbers', bounds: '[0,0][1000,100]' })
      + node({ class: 'androidx.recyclerview.widget.RecyclerView', scrollable: true, bounds: '[0,100][1000,1900]' },
        Array.from({ length: 8 }, (_, index) => node({ text: `Row ${first + index}`, bounds: `[0,${120 + index * 200}][1000,${300 + index * 200}]` })).join('')))));
    const before = page(1);
    const list = unitOf(before, 'scroll', 'list', [nodeWhere(before, (candidate) => candidate.scrollable).index]);
    // Rows 3-8 moved up 400 px: what is further down came into view.
    expect(check(list, { direction: 'down' }, before, page(3))).toMatchObject({ outcome: 'pass', strength: 'strong', reason: expect.stringContaining('moved 400 px, showing what is further down') });
    expect(check(list, { direction: 'up' }, before, page(3))).toMatchObject({ outcome: 'fail', code: 'wrong-direction' });
    expect(check(list, { direction: 'up' }, page(3), before)).toMatchObject({ outcome: 'pass', strength: 'strong' });
    // Rows 20-27: no row stayed in view to tell the way.
    expect(check(list, { direction: 'down' }, before, page(20))).toMatchObject({ outcome: 'pass', strength: 'weak' });
    // Without a direction (a recording that names none), any move passes as before.
    expect(check(list, {}, before, page(3))).toMatchObject({ outcome: 'pass', strength: 'strong' });
  });

  it('measures a row the list cuts by its edge the list does not cut', () => {
    // Rows 1-12, 200 px apart, scrolled `offset` px down and clipped to the list's bounds as a dump clips them.
    const scrolled = (offset: number): UiTree => screen(hierarchy(node({ class: 'android.widget.FrameLayout', bounds: '[0,0][1000,2000]' },
      node({ text: 'Numbers', bounds: '[0,0][1000,100]' })
      + node({ class: 'androidx.recyclerview.widget.RecyclerView', scrollable: true, bounds: '[0,100][1000,1900]' },
        Array.from({ length: 12 }, (_, index) => [120 + index * 200 - offset, 300 + index * 200 - offset] as const)
          .map(([top, bottom], index) => ({ index, top: Math.max(top, 100), bottom: Math.min(bottom, 1900) }))
          .filter(({ top, bottom }) => bottom > top)
          .map(({ index, top, bottom }) => node({ text: `Row ${index + 1}`, bounds: `[0,${top}][1000,${bottom}]` })).join('')))));
    const before = scrolled(0);
    const list = unitOf(before, 'scroll', 'list', [nodeWhere(before, (candidate) => candidate.scrollable).index]);
    // Only row 8 is in view on both screens, its top cut by the list after: its bottom moved up 1500 px.
    expect(check(list, { direction: 'down' }, before, scrolled(1500))).toMatchObject({ outcome: 'pass', strength: 'strong', reason: expect.stringContaining('moved 1500 px') });
    expect(check(list, { direction: 'up' }, before, scrolled(1500))).toMatchObject({ outcome: 'fail', code: 'wrong-direction' });
  });

  it('tells rows apart by what else they show: a name the list repeats is another row, not a move the other way', () => {
    // Hours named after the seven planets in turn, each row with its own start time: rows first..first+6, 250 px apart.
    const planets = ['Saturn', 'Jupiter', 'Mars', 'Sun', 'Venus', 'Mercury', 'Moon'];
    const hours = (first: number): UiTree => screen(hierarchy(node({ class: 'android.widget.FrameLayout', bounds: '[0,0][1000,2000]' },
      node({ text: 'Planetary hours', bounds: '[0,0][1000,100]' })
      + node({ class: 'android.widget.ListView', scrollable: true, bounds: '[0,100][1000,1900]' },
        Array.from({ length: 7 }, (_, index) => {
          const hour = first + index;
          const top = 120 + index * 250;
          return node({ class: 'android.widget.LinearLayout', clickable: true, bounds: `[0,${top}][1000,${top + 240}]` },
            node({ text: planets[hour % 7]!, bounds: `[0,${top}][1000,${top + 120}]` }) + node({ text: `Starts at ${hour}:00`, bounds: `[0,${top + 120}][1000,${top + 240}]` }));
        }).join('')))));
    const before = hours(0);
    const list = unitOf(before, 'scroll', 'list', [nodeWhere(before, (candidate) => candidate.scrollable).index]);
    // Scrolled five rows down: hours 5 and 6 moved up 1250 px; Saturn to Venus now name hours 7 to 11, lower down.
    expect(check(list, { direction: 'down' }, before, hours(5))).toMatchObject({ outcome: 'pass', strength: 'strong', reason: expect.stringContaining('moved 1250 px') });
    expect(check(list, { direction: 'up' }, before, hours(5))).toMatchObject({ outcome: 'fail', code: 'wrong-direction' });
  });

  it('is inconclusive (pixel-only) when the container holds nothing to compare on either screen: a pager of photos', () => {
    const gallery = (title: string): UiTree => screen(hierarchy(node({ class: 'android.widget.FrameLayout', bounds: '[0,0][1000,2000]' },
      node({ text: title, bounds: '[0,0][1000,100]' })
      + node({ class: 'androidx.viewpager.widget.ViewPager', scrollable: true, bounds: '[0,100][1000,2000]' }, node({ class: 'android.widget.ImageView', bounds: '[0,100][1000,2000]' })))));
    const before = gallery('1 / 5');
    const pager = unitOf(before, 'scroll', 'photos', [nodeWhere(before, (candidate) => candidate.scrollable).index]);
    expect(check(pager, { direction: 'right' }, before, gallery('2 / 5'))).toMatchObject({ outcome: 'inconclusive', code: 'pixel-only' });
  });

  it('fails with end-of-list when nothing moved', () => {
    expect(check(unit, {}, settings, settings)).toMatchObject({ outcome: 'fail', code: 'end-of-list' });
  });
});

describe('verifyCommitment', () => {
  const pass: VerifyOutcome = { outcome: 'pass', reason: 'ok', evidence: [] };
  const fail: VerifyOutcome = { outcome: 'fail', reason: 'broken', evidence: [] };
  const unsure: VerifyOutcome = { outcome: 'inconclusive', reason: 'unsure', evidence: [] };

  it('any fail → fail, else any inconclusive → inconclusive, else pass', () => {
    expect(verifyCommitment([pass, unsure, fail]).outcome).toBe('fail');
    expect(verifyCommitment([pass, unsure]).outcome).toBe('inconclusive');
    expect(verifyCommitment([pass, pass], unsure).outcome).toBe('inconclusive');
    expect(verifyCommitment([pass], fail).reason).toContain('broken');
    expect(verifyCommitment([pass, pass], pass).outcome).toBe('pass');
  });
});

describe('fill contract on a slider (its text is its value)', () => {
  const volume = (value: string): UiTree => screen(hierarchy(node({ class: 'android.widget.FrameLayout', bounds: '[0,0][1080,2400]' },
    node({ class: 'android.widget.TextView', text: 'Ring volume', bounds: '[210,1000][1017,1060]' })
    + node({ class: 'android.widget.SeekBar', text: value, 'content-desc': 'Ring volume', 'resource-id': 'android:id/seekbar', focusable: true, bounds: '[210,1080][1017,1200]' }))));
  const before = volume('70');
  const unit = unitOf(before, 'fill', 'Ring volume', [2]);

  it('passes when the slider reads the percentage it was set to', () => {
    expect(check(unit, { value: '0' }, before, volume('0'))).toMatchObject({ outcome: 'pass', strength: 'strong' });
    expect(check(unit, { value: '50' }, before, volume('50'))).toMatchObject({ outcome: 'pass' });
  });

  it('negative controls: another number, no number, or the slider gone is never a pass', () => {
    // Another number may be another scale (0–15), so it is inconclusive, not a fail; never a pass.
    expect(check(unit, { value: '0' }, before, volume('70')).outcome).toBe('inconclusive');
    expect(check(unit, { value: '0' }, before, volume('3')).outcome).toBe('inconclusive');
    expect(check(unit, { value: '0' }, before, volume('')).outcome).toBe('inconclusive');
    const gone = screen(hierarchy(node({ class: 'android.widget.FrameLayout', bounds: '[0,0][1080,2400]' }, node({ class: 'android.widget.TextView', text: 'Display', bounds: '[0,0][500,100]' }))));
    expect(check(unit, { value: '0' }, before, gone).outcome).toBe('inconclusive');
  });
});

describe('a checklist row held to delete it (long press on a toggle unit)', () => {
  const row = (text: string, checked: boolean, top: number): string =>
    node({ class: 'android.widget.CheckBox', text, checkable: true, checked, clickable: true, 'long-clickable': true, 'resource-id': 'com.example.app:id/checklist_title', bounds: `[0,${top}][1080,${top + 120}]` });
  const list = (...rows: [string, boolean][]): UiTree => screen(hierarchy(node({ class: 'android.widget.FrameLayout', bounds: '[0,0][1080,2400]' },
    node({ class: 'android.widget.TextView', text: 'Shopping', bounds: '[0,0][1080,100]' }) + rows.map(([text, checked], index) => row(text, checked, 200 + index * 120)).join(''))));
  const before = list(['Milk', false], ['Eggs', true], ['Bread', false]);
  const bread = unitOf(before, 'toggle', 'Bread', [4]);
  const judge = (after: UiTree, expectation: string): VerifyOutcome =>
    verifyUnitStep({ unit: bread, args: { longPress: true }, expectation: parsePredicate(expectation), before, after, delta: computeDelta(before, after) });

  it('is judged by what changed and the step\'s expectation, not by a flip: the row gone passes', () => {
    expect(judge(list(['Milk', false], ['Eggs', true]), 'absent(text="Bread")').outcome).toBe('pass');
    // Without longPress the toggle contract looks for a flip of a row that is gone: never a pass here.
    expect(check(bread, {}, before, list(['Milk', false], ['Eggs', true])).outcome).not.toBe('pass');
  });

  it('negative controls: another row gone, or nothing changed, fails', () => {
    expect(judge(list(['Eggs', true], ['Bread', false]), 'absent(text="Bread")').outcome).toBe('fail');
    expect(judge(list(['Milk', false], ['Eggs', true], ['Bread', false]), 'absent(text="Bread")').outcome).toBe('fail');
  });
});
