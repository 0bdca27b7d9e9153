import { describe, expect, it } from 'vitest';
import { perceive, type Perception } from '../../../src/perception/perceive.js';
import { renderView, viewFocusWords } from '../../../src/perception/render-view.js';
import type { PerceptionOptions } from '../../../src/perception/perception-options.js';
import { parseHierarchy } from '../../../src/ui/parse-hierarchy.js';
import { fakeDump, fakeScreen, type FakeNode } from '../ui/dump-builder.js';

function run(options: PerceptionOptions, ...children: FakeNode[]): Perception {
  return perceive(parseHierarchy(fakeScreen(...children)), options);
}

const labels = (perception: Perception): string[] => perception.nodes.map((node) => node.label);
const screenUnits = (perception: Perception) => perception.units.filter((unit) => unit.tap !== null);

describe('level 1 (sparse)', () => {
  it('drops nodes with neither function nor text and splices their children into the kept parent', () => {
    const perception = run({ level: 1 }, {
      clickable: true, text: 'Row', bounds: [0, 100, 1080, 300],
      children: [{ class: 'android.widget.LinearLayout', bounds: [0, 100, 1080, 300], children: [{ text: 'Inner', bounds: [10, 110, 500, 200] }] }],
    });
    expect(labels(perception)).toEqual(['Row', 'Inner']);
    const [row, inner] = perception.nodes;
    expect(inner!.parent).toBe(row!.id);
    expect(row!.children).toEqual([inner!.id]);
  });

  it('drops zero-area, off-screen and hidden nodes', () => {
    const perception = run({ level: 1 },
      { clickable: true, text: 'Zero', bounds: [10, 10, 10, 50] },
      { clickable: true, text: 'Below the screen', bounds: [0, 2500, 1080, 2600] },
      { clickable: true, text: 'Hidden', bounds: [0, 0, 100, 100], extra: 'visible-to-user="false"' },
      { clickable: true, text: 'Visible', bounds: [0, 100, 100, 200] });
    expect(labels(perception)).toEqual(['Visible']);
  });

  it('removes the system bars unless asked not to, or unless SystemUI is the foreground', () => {
    const source = fakeDump(
      { package: 'com.android.systemui', bounds: [0, 0, 1080, 80], children: [{ package: 'com.android.systemui', desc: 'Battery 50%', bounds: [900, 0, 1000, 80] }] },
      { bounds: [0, 0, 1080, 2400], children: [{ clickable: true, text: 'App button', bounds: [0, 100, 500, 200] }] },
    );
    expect(labels(perceive(parseHierarchy(source)))).toEqual(['App button']);
    expect(labels(perceive(parseHierarchy(source), { removeSystemBar: false }))).toEqual(['Battery 50%', 'App button']);
    expect(labels(perceive(parseHierarchy(source, { packageName: 'com.android.systemui' })))).toContain('Battery 50%');
  });

  it('clips bounds to scrolling ancestors, and the tap point lands on the visible part', () => {
    const perception = run({ level: 1 }, {
      scrollable: true, class: 'androidx.recyclerview.widget.RecyclerView', bounds: [0, 200, 1080, 1000],
      children: [{ clickable: true, text: 'Half visible', bounds: [0, 900, 1080, 1300] }],
    });
    const unit = screenUnits(perception).find((candidate) => candidate.label === 'Half visible')!;
    expect(unit.bounds).toEqual([0, 900, 1080, 1000]);
    expect(unit.tap).toEqual([540, 950]);
  });
});

describe('level 2 (merge)', () => {
  const row: FakeNode = {
    clickable: true, bounds: [0, 100, 1080, 300], id: 'com.example.app:id/row',
    children: [
      { text: 'Wi-Fi', bounds: [40, 120, 700, 180] },
      { text: 'Connected', bounds: [40, 190, 700, 260] },
      { class: 'android.widget.Switch', checkable: true, checked: true, bounds: [900, 150, 1040, 250] },
    ],
  };

  it('folds text into the actionable parent as its description', () => {
    const perception = run({ mergeSwitch: false }, { clickable: true, bounds: [0, 100, 1080, 300], children: [{ text: 'Title', bounds: [0, 100, 500, 200] }, { text: 'Subtitle', bounds: [0, 200, 500, 300] }] });
    expect(perception.nodes).toHaveLength(1);
    expect(perception.nodes[0]).toMatchObject({ label: 'Title', description: 'Title · Subtitle' });
    expect(perception.view).toContain('click "Title" — "Subtitle"');
  });

  it('mergeSwitch makes a row and its switch one toggle unit; without it they stay apart', () => {
    const merged = screenUnits(run({}, row));
    expect(merged).toHaveLength(1);
    expect(merged[0]).toMatchObject({ type: 'toggle', label: 'Wi-Fi', state: { checked: true } });
    expect(merged[0]!.members.map((member) => member.className)).toContain('android.widget.Switch');
    expect(run({}, row).view).toContain('toggle "Wi-Fi" checked');
    const apart = screenUnits(run({ mergeSwitch: false }, row));
    expect(apart.map((unit) => unit.type)).toEqual(['click', 'toggle']);
  });

  it('does not merge a row with two checkboxes into one toggle', () => {
    const two: FakeNode = { ...row, children: [...row.children!, { class: 'android.widget.CheckBox', checkable: true, bounds: [800, 150, 880, 250] }] };
    expect(screenUnits(run({}, two)).filter((unit) => unit.type === 'toggle')).toHaveLength(2);
  });

  it('never folds across a scroll container', () => {
    const perception = run({}, { clickable: true, bounds: [0, 0, 1080, 2400], children: [{ scrollable: true, bounds: [0, 0, 1080, 2000], children: [{ text: 'Item', bounds: [0, 0, 1080, 100] }] }] });
    expect(labels(perception)).toContain('Item');
  });

  it('useBounds merges a child covering ≥ 80 % of its parent in both dimensions, comparing child with parent', () => {
    const outer = (child: readonly [number, number, number, number]): FakeNode => ({ clickable: true, desc: 'Card', bounds: [0, 0, 1000, 1000], children: [{ clickable: true, class: 'android.widget.Button', text: 'Inner', bounds: child }] });
    expect(screenUnits(run({}, outer([50, 50, 950, 950])))).toHaveLength(1);
    // 90 % wide but only 50 % tall: two units (a node compared with itself would always merge).
    expect(screenUnits(run({}, outer([50, 0, 950, 500])))).toHaveLength(2);
    expect(screenUnits(run({ useBounds: false }, outer([50, 50, 950, 950])))).toHaveLength(2);
  });
});

describe('units', () => {
  it('types fill (with the label in front of the field), commit, scroll, select, long-press, click', () => {
    const perception = run({},
      { text: 'Name', bounds: [40, 100, 400, 160] },
      { class: 'android.widget.EditText', clickable: true, bounds: [40, 170, 1040, 270], extra: 'hint="Your name"' },
      { class: 'android.widget.EditText', clickable: true, password: true, text: 'secret', bounds: [40, 300, 1040, 400], extra: 'hint="Password"' },
      { class: 'android.widget.Spinner', clickable: true, text: 'Red', bounds: [40, 420, 1040, 520] },
      { class: 'android.widget.RadioButton', clickable: true, checkable: true, text: 'Large', bounds: [40, 540, 1040, 640] },
      { longClickable: true, text: 'Hold me', bounds: [40, 660, 1040, 760] },
      { class: 'android.widget.Button', clickable: true, text: 'Save', bounds: [40, 780, 500, 880] },
      { class: 'android.widget.Button', clickable: true, text: 'Save this draft to your account now', bounds: [540, 780, 1040, 880] },
      { scrollable: true, class: 'android.widget.ScrollView', bounds: [0, 900, 1080, 2400], children: [{ clickable: true, text: 'Item', bounds: [0, 900, 1080, 1000] }] });
    const byLabel = new Map(screenUnits(perception).map((unit) => [unit.label, unit]));
    expect(byLabel.get('Name')).toMatchObject({ type: 'fill', state: { value: '', hint: 'Your name' } });
    expect(byLabel.get('Name')!.members.map((member) => member.text)).toContain('Name');
    expect(byLabel.get('Password')).toMatchObject({ type: 'fill', state: { value: 'secret', password: true } });
    expect(perception.view).toContain('fill "Password" value="•••" password');
    expect(perception.view).not.toContain('secret');
    expect(byLabel.get('Red')!.type).toBe('select');
    expect(byLabel.get('Large')!.type).toBe('select');
    expect(byLabel.get('Hold me')!.type).toBe('long-press');
    expect(byLabel.get('Save')!.type).toBe('commit');
    expect(byLabel.get('Save this draft to your account now')!.type).toBe('click');
    expect(screenUnits(perception).find((unit) => unit.type === 'scroll')).toBeDefined();
    expect(byLabel.get('Item')!.type).toBe('click');
  });

  it('types tabs and bottom-navigation items as select, with their selected state', () => {
    const perception = run({},
      { class: 'com.google.android.material.tabs.TabLayout', bounds: [0, 200, 1080, 300], children: [
        { class: 'android.widget.LinearLayout', clickable: true, selected: true, desc: 'Chats', bounds: [0, 200, 540, 300] },
        { class: 'android.widget.LinearLayout', clickable: true, desc: 'Calls', bounds: [540, 200, 1080, 300] },
      ] },
      { class: 'androidx.appcompat.app.ActionBar$Tab', clickable: true, desc: 'Cart', bounds: [0, 2200, 540, 2400] });
    expect(screenUnits(perception).map((unit) => [unit.label, unit.type, unit.state.selected])).toEqual([['Chats', 'select', true], ['Calls', 'select', false], ['Cart', 'select', false]]);
    expect(perception.view).toContain('select "Chats" selected');
  });

  it('adds the navigate and finish pseudo units with fixed ids and no tap', () => {
    const pseudo = run({}, { clickable: true, text: 'x', bounds: [0, 0, 10, 10] }).units.filter((unit) => unit.tap === null);
    expect(pseudo.map((unit) => [unit.id, unit.type, unit.navigation ?? null])).toEqual([
      ['nav-back', 'navigate', 'back'], ['nav-home', 'navigate', 'home'], ['nav-launch', 'navigate', 'launch'], ['finish', 'finish', null],
    ]);
    expect(pseudo.every((unit) => unit.primary === null && unit.members.length === 0)).toBe(true);
  });
});

describe('tap points', () => {
  it("moves a unit's tap point off a nested unit that would take the touch", () => {
    const perception = run({ useBounds: false }, { clickable: true, desc: 'Card', bounds: [0, 0, 1000, 1000], children: [
      { class: 'android.widget.Button', clickable: true, text: 'Play', bounds: [300, 300, 700, 700] },
    ] });
    const card = screenUnits(perception).find((unit) => unit.label === 'Card')!;
    const [x, y] = card.tap!;
    expect(x >= 300 && x < 700 && y >= 300 && y < 700).toBe(false);
    expect(x >= 0 && x < 1000 && y >= 0 && y < 1000).toBe(true);
  });

  it('marks app units under a dialog as covered, and gives scroll units an orientation', () => {
    const perception = perceive(parseHierarchy(fakeDump(
      { bounds: [0, 0, 1080, 2400], children: [
        { clickable: true, text: 'Behind', bounds: [0, 1000, 1080, 1200] },
        { clickable: true, text: 'Top', bounds: [0, 100, 1080, 300] },
        { class: 'android.widget.HorizontalScrollView', scrollable: true, bounds: [0, 1800, 1080, 2000], children: [{ clickable: true, text: 'Chip', bounds: [0, 1800, 300, 2000] }] },
        { class: 'androidx.recyclerview.widget.RecyclerView', scrollable: true, bounds: [0, 2000, 1080, 2400], children: [
          { clickable: true, text: 'A', bounds: [0, 2000, 1080, 2200] }, { clickable: true, text: 'B', bounds: [0, 2200, 1080, 2400] },
        ] },
      ] },
      { bounds: [100, 800, 980, 1600], id: 'android:id/parentPanel', children: [{ class: 'android.widget.Button', clickable: true, text: 'OK', bounds: [560, 1400, 940, 1550] }] },
    )));
    const byLabel = new Map(screenUnits(perception).map((unit) => [unit.label, unit]));
    expect(byLabel.get('Behind')!.occluded).toBe(true);
    expect(byLabel.get('Top')!.occluded).toBeUndefined();
    expect(byLabel.get('OK')!.occluded).toBeUndefined();
    expect(perception.view).toContain('click "Behind" covered');
    const scrolls = screenUnits(perception).filter((unit) => unit.type === 'scroll').map((unit) => unit.orientation);
    expect(scrolls).toEqual(['horizontal', 'vertical']);
  });
});

describe('view row budget', () => {
  // A dense list: 60 rows of 36 px, all on screen, with one row the task names near the end.
  const rows: FakeNode[] = Array.from({ length: 60 }, (_unused, index) => ({ clickable: true, text: index === 55 ? 'Bluetooth' : `Row ${index}`, bounds: [0, 100 + index * 36, 1080, 136 + index * 36] as const }));
  const list: FakeNode = { class: 'android.widget.ListView', scrollable: true, id: 'app:id/list', bounds: [0, 100, 1080, 2300], children: rows };

  it('shows every row of a screen within the budget, and nothing is hidden (negative control)', () => {
    const perception = run({ viewRows: 100 }, list);
    expect(perception.view).toContain('click "Row 59"');
    expect(perception.view).not.toContain('more row');
    expect(perception.plannerView.hiddenUnits).toEqual([]);
  });

  it('cuts a dense screen to the budget: the scroll container, the focus rows and the top of the list stay, the rest is counted', () => {
    const perception = run({ viewRows: 10, viewFocus: ['bluetooth'] }, list);
    const lines = perception.view.trimEnd().split('\n');
    const shown = lines.filter((line) => line.startsWith('[') || line.startsWith('text '));
    expect(shown).toHaveLength(10);
    expect(perception.view).toContain('scroll "list" vertical');
    expect(perception.view).toContain('click "Bluetooth"');
    expect(perception.view).toContain('click "Row 0"');
    expect(perception.view).not.toContain('click "Row 58"');
    expect(lines.at(-1)).toBe('… 51 more rows, scroll to bring them up');
    expect(perception.plannerView.hiddenUnits).toHaveLength(51);
    const hidden = new Set(perception.plannerView.hiddenUnits);
    expect(perception.units.filter((unit) => hidden.has(unit.id)).map((unit) => unit.label)).toContain('Row 58');
    // Without the focus word the task's row is one of the cut ones.
    expect(run({ viewRows: 10 }, list).view).not.toContain('click "Bluetooth"');
  });

  it('takes its focus words from a task: long words, no stop words, lower case', () => {
    expect(viewFocusWords('Turn off Bluetooth and open the Wi-Fi settings')).toEqual(['bluetooth', 'wi-fi', 'settings']);
  });
});

describe('blocks and view', () => {
  it('flags a dialog as a surface and lists it first', () => {
    const perception = perceive(parseHierarchy(fakeDump(
      { bounds: [0, 0, 1080, 2400], children: [{ clickable: true, text: 'Behind', bounds: [0, 100, 1080, 300] }] },
      { bounds: [100, 800, 980, 1600], id: 'android:id/parentPanel', children: [
        { text: 'Delete note?', bounds: [140, 840, 940, 940] },
        { class: 'android.widget.Button', clickable: true, text: 'Cancel', id: 'android:id/button2', bounds: [140, 1400, 500, 1550] },
        { class: 'android.widget.Button', clickable: true, text: 'Delete', id: 'android:id/button1', bounds: [560, 1400, 940, 1550] },
      ] },
    )));
    const surfaces = perception.blocks.filter((block) => block.surface);
    expect(surfaces).toHaveLength(1);
    expect(surfaces[0]!.label).toBe('Delete note?');
    const lines = perception.view.split('\n');
    expect(lines[1]).toBe('surface "Delete note?"');
    expect(perception.view).toContain('commit "Delete"');
    expect(perception.view.indexOf('Delete')).toBeLessThan(perception.view.indexOf('Behind'));
  });

  it('gives the view as data too, and renders the same text from it', () => {
    const perception = run({}, { text: 'Name', bounds: [40, 100, 400, 160] }, { class: 'android.widget.EditText', clickable: true, bounds: [40, 170, 1040, 270], extra: 'hint="Your name"' });
    const view = perception.plannerView;
    expect(view.app).toEqual({ package: 'com.example.app', activity: '', screen: [1080, 2400], empty: false });
    expect(view.blocks).toHaveLength(1);
    expect(view.blocks[0]!.items.map((item) => item.kind)).toEqual(['text', 'unit']);
    expect(view.blocks[0]!.items[1]).toMatchObject({ kind: 'unit', type: 'fill', label: 'Name', state: { hint: 'Your name', value: '' } });
    expect(view.always.map((unit) => unit.id)).toEqual(['nav-back', 'nav-home', 'nav-launch', 'finish']);
    expect(renderView(JSON.parse(JSON.stringify(view)) as typeof view)).toBe(perception.view);
  });

  it('starts with the app line and marks an empty hierarchy', () => {
    const empty = perceive(parseHierarchy('<hierarchy rotation="0"/>', { packageName: 'com.game', activity: '.Main' }));
    expect(empty.view.split('\n')[0]).toBe('app com.game activity .Main EMPTY (no usable nodes)');
    expect(empty.units.every((unit) => unit.tap === null)).toBe(true);
  });
});
