// `senseact verify-replay` on DroidBot output folders as DroidBot writes them (events/,
// states/, utg.js; no task file), with tests/fixtures/droidbot-output: notes/ is SYNTHETIC
// (ours), calendar/ acts on the one real DroidBot state of tests/fixtures/autodroid (MIT) and
// its after state is that state with the tapped day selected (SYNTHETIC).
import { cp, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, type CliRun } from '../helpers/run-cli.js';

const repoRoot = path.resolve(import.meta.dirname, '..', '..');
const fixture = path.join(repoRoot, 'tests/fixtures/droidbot-output');
const notes = path.join(fixture, 'notes');

let scratch: string;
beforeAll(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), 'senseact-droidbot-output-'));
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

async function run(...args: string[]): Promise<CliRun> {
  return runCli(repoRoot, args);
}

interface StepJson { id: string; category: string; note?: string; unitType?: string; unitLabel?: string; noVisibleEffect: boolean; verdict?: { outcome: string; strength?: string; tie?: string }; noOp?: { outcome: string }; wrongEffect?: { donor: string } }
interface ReportJson {
  format: string;
  screens: { read: number; withInvertedBounds: number; invertedViews: number };
  stepsWithActivityStack: number;
  unreadable: { file: string; problem: string }[];
  skipped: { id: string; reason: string }[];
  tasks: { perTask: { id: string; app: string; steps: number; passed: number; leftOut: number; verified: boolean }[] };
  perStep: StepJson[];
}

async function report(folder: string): Promise<ReportJson> {
  const { code, out, err } = await run('verify-replay', folder, '--json');
  expect(err).toBe('');
  expect(code).toBe(0);
  return JSON.parse(out) as ReportJson;
}

/** A copy of one run folder of the fixture, to damage. */
async function copy(run: string, name: string): Promise<string> {
  const target = path.join(scratch, name, run);
  await cp(path.join(fixture, run), target, { recursive: true });
  return target;
}

/** Rewrites one event file of a copied run. */
async function editEvent(run: string, tag: string, edit: (event: Record<string, unknown>) => void): Promise<void> {
  const file = path.join(run, 'events', `event_${tag}.json`);
  const event = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
  edit(event);
  await writeFile(file, JSON.stringify(event));
}

const short = (step: StepJson): string => path.relative(fixture, step.id);

describe('verify-replay reads a DroidBot output folder as DroidBot writes it', () => {
  it('makes a task of each run, a step of each event in order, and lists what it leaves out', async () => {
    const json = await report(fixture);
    expect(json.format).toBe('droidbot');
    expect(json.screens).toEqual({ read: 7, withInvertedBounds: 1, invertedViews: 1 });
    // The calendar's states record DroidBot's activity_stack; the synthetic notes run's do not.
    expect(json.stepsWithActivityStack).toBe(1);
    expect(json.unreadable).toEqual([{ file: path.join(notes, 'events/event_2024-01-01_100026.json'), problem: 'the file is empty' }]);
    expect(json.skipped.map((entry) => [path.relative(fixture, entry.id), entry.reason])).toEqual([
      ['notes/events/event_2024-01-01_094959.json', 'intent event (not a UI action: am start com.example.notes/com.example.notes.MainActivity)'],
      ['notes/events/event_2024-01-01_100040.json', 'kill_app event (stops the app; not a UI action)'],
    ]);
    expect(json.perStep.map((step) => [short(step), step.category, step.unitLabel ?? step.note, step.verdict?.outcome])).toEqual([
      ['calendar/events/event_2023-10-20_134317.json', 'replayed', '15', 'pass'],
      ['notes/events/event_2024-01-01_095001.json', 'replayed', 'Settings', 'pass'],
      ['notes/events/event_2024-01-01_095010.json', 'replayed', 'back', 'pass'],
      ['notes/events/event_2024-01-01_100005.json', 'replayed', 'New note', 'pass'],
      ['notes/events/event_2024-01-01_100015.json', 'replayed', 'New note', 'pass'],
      ['notes/events/event_2024-01-01_100025.json', 'replayed', 'Save', 'pass'],
      ['notes/events/event_2024-01-01_100031.json', 'not-replayed', 'scroll without an element (not replayed)', undefined],
      ['notes/events/event_2024-01-01_100032.json', 'not-replayed', 'tap without an element (not replayed)', undefined],
    ]);
    // The real state's tapped day became checked: tied to the acted control.
    expect(json.perStep[0]!.verdict).toMatchObject({ strength: 'strong', tie: 'own-state-changed' });
    // Back is the loop's nav-back: it returned to the page Settings was tapped on.
    expect(json.perStep[2]).toMatchObject({ actionKind: 'key', unitType: 'navigate', verdict: { strength: 'strong', tie: 'went-back' } });
    // Both negative controls ran: the no-op control fails every replayed step; a wrong effect was drawn from the same run.
    const replayed = json.perStep.filter((step) => step.category === 'replayed');
    expect(replayed.map((step) => step.noOp?.outcome)).toEqual(['fail', 'fail', 'fail', 'fail', 'fail', 'fail']);
    expect(replayed.filter((step) => step.wrongEffect).length).toBe(3);
    expect(json.tasks.perTask).toEqual([
      expect.objectContaining({ id: path.join(fixture, 'calendar'), app: 'com.simplemobiletools.calendar', steps: 1, passed: 1, leftOut: 0, verified: true }),
      expect.objectContaining({ id: notes, app: 'com.example.notes', steps: 9, passed: 5, leftOut: 4, verified: false }),
    ]);
    const { out } = await run('verify-replay', notes);
    expect(out).toMatch(/^verify-replay: .*notes \(droidbot\): 7 steps in 1 tasks/m);
    expect(out).toContain('unreadable files left out: 1\n');
  });

  it('negative controls: a text that never reached the field, and a tap that changed nothing, do not pass', async () => {
    const notesCopy = await copy('notes', 'not-typed');
    await editEvent(notesCopy, '2024-01-01_100015', (event) => {
      event.stop_state = 'sB';
    });
    const fill = (await report(notesCopy)).perStep.find((step) => step.id.endsWith('event_2024-01-01_100015.json'));
    expect(fill).toMatchObject({ category: 'replayed', verdict: { outcome: 'fail' } });

    const calendar = await copy('calendar', 'unchanged');
    await editEvent(calendar, '2023-10-20_134317', (event) => {
      event.stop_state = event.start_state;
    });
    const [tap] = (await report(calendar)).perStep;
    expect(tap).toMatchObject({ noVisibleEffect: true });
    expect(tap!.verdict?.outcome).not.toBe('pass');
  });

  it('Back from the page the app opened on, to the home screen, is tied to Back unless the app was started from another app', async () => {
    const launched = await copy('notes', 'launched');
    // A home screen and a browser page (SYNTHETIC) the intent starts the app from, and Back from the app's first page to the home screen.
    const screenOf = (tag: string, stateStr: string, packageName: string, activity: string, labels: readonly string[]): Record<string, unknown> => ({
      tag, state_str: stateStr, foreground_activity: `${packageName}/${activity}`, width: 1080, height: 2280, views: [
        { temp_id: 0, parent: -1, children: labels.map((_, index) => index + 1), bounds: [[0, 0], [1080, 2280]], class: 'android.widget.FrameLayout', package: packageName, resource_id: null, text: null, content_description: null, clickable: false, visible: true },
        ...labels.map((label, index) => ({ temp_id: index + 1, parent: 0, children: [], bounds: [[40 + index * 300, 400], [300 + index * 300, 640]], class: 'android.widget.TextView', package: packageName, resource_id: null, text: label, content_description: label, clickable: true, visible: true })),
      ] });
    await writeFile(path.join(launched, 'states', 'state_2024-01-01_094958.json'), JSON.stringify(screenOf('2024-01-01_094958', 'sHome', 'com.android.launcher3', '.Launcher', ['Notes', 'Clock', 'Maps'])));
    await writeFile(path.join(launched, 'states', 'state_2024-01-01_094957.json'), JSON.stringify(screenOf('2024-01-01_094957', 'sWeb', 'org.example.browser', '.Browser', ['example.org', 'News', 'Open in Notes'])));
    await editEvent(launched, '2024-01-01_094959', (event) => {
      event.start_state = 'sHome';
    });
    await editEvent(launched, '2024-01-01_095001', (event) => {
      event['event'] = { event_type: 'key', log_lines: null, name: 'BACK' };
      event.stop_state = 'sHome';
    });
    const back = async (): Promise<StepJson | undefined> => (await report(launched)).perStep.find((step) => step.id.endsWith('event_2024-01-01_095001.json'));
    expect(await back()).toMatchObject({ category: 'replayed', unitType: 'navigate', verdict: { outcome: 'pass', strength: 'strong', tie: 'went-back' } });
    // Negative control: started from a browser page, Back leads there; the home screen ties nothing.
    await editEvent(launched, '2024-01-01_094959', (event) => {
      event.start_state = 'sWeb';
    });
    expect(await back()).toMatchObject({ category: 'replayed', verdict: { outcome: 'pass', strength: 'weak' } });
    // With no start before it (the intent is another event), nothing is under the page the recording begins on: Back left the app.
    await editEvent(launched, '2024-01-01_094959', (event) => {
      event['event'] = { event_type: 'manual', log_lines: null };
    });
    expect(await back()).toMatchObject({ category: 'replayed', verdict: { outcome: 'pass', strength: 'strong', tie: 'left-for-home' } });
  });

  it('a field holding the typed text in quotes, as some DroidBot versions type it, passes; other texts do not', async () => {
    const quoted = await copy('notes', 'quoted');
    const typedAs = async (fieldText: string, typed = 'groceries'): Promise<StepJson | undefined> => {
      const file = path.join(quoted, 'states', 'state_2024-01-01_100020.json');
      const state = JSON.parse(await readFile(file, 'utf8')) as { views: { text: string | null; resource_id: string | null }[] };
      const field = state.views.find((view) => view.resource_id === 'com.example.notes:id/note_title_field');
      if (!field) throw new Error('no title field in the fixture state');
      field.text = fieldText;
      await writeFile(file, JSON.stringify(state));
      await editEvent(quoted, '2024-01-01_100015', (event) => {
        (event['event'] as { text: string }).text = typed;
      });
      return (await report(quoted)).perStep.find((step) => step.id.endsWith('event_2024-01-01_100015.json'));
    };
    const kept = await typedAs('"groceries"');
    expect(kept).toMatchObject({ category: 'replayed', verdict: { outcome: 'pass', strength: 'strong' } });
    expect((kept?.verdict as { reason?: string }).reason).toMatch(/holds "\\"groceries\\"".*\(as the recorder types it, with its quotes\)$/);
    // Negative controls: another text in quotes, and a text with a space (such versions type nothing for it).
    expect((await typedAs('"shopping"'))?.verdict?.outcome).toBe('fail');
    expect((await typedAs('"two words"', 'two words'))?.verdict?.outcome).toBe('fail');
  });

  it('a folder with nothing readable exits 2 and says what, where and what to do; one unreadable run among others is listed', async () => {
    const broken = path.join(scratch, 'broken', 'output');
    await mkdir(path.join(broken, 'events'), { recursive: true });
    await mkdir(path.join(broken, 'states'), { recursive: true });
    await writeFile(path.join(broken, 'events/event_2024-01-01_100000.json'), '');
    await cp(path.join(notes, 'states'), path.join(broken, 'states'), { recursive: true });
    const { code, out, err } = await run('verify-replay', path.dirname(broken));
    expect(code).toBe(2);
    expect(out).toBe('');
    expect(err).toContain(`${path.join(broken, 'events/event_2024-01-01_100000.json')}: nothing can be read: no readable events/event_*.json in this DroidBot output folder (the file is empty)`);
    expect(err).toContain('or DroidBot output folders (events/event_*.json, states/state_*.json)');

    await cp(notes, path.join(scratch, 'broken', 'notes'), { recursive: true });
    const json = await report(path.join(scratch, 'broken'));
    expect(json.tasks.perTask.map((task) => task.app)).toEqual(['com.example.notes']);
    expect(json.unreadable.map((entry) => entry.file)).toContain(path.join(broken, 'events/event_2024-01-01_100000.json'));

    const empty = path.join(scratch, 'empty');
    await mkdir(path.join(empty, 'logs'), { recursive: true });
    const none = await run('verify-replay', empty);
    expect(none.code).toBe(2);
    expect(none.err).toContain('nor DroidBot output folders (events/ and states/)');
  });
});

describe('verify-replay follows symbolic links', () => {
  it('reads runs linked into a corpus folder, and files linked into a run, as what they point to; a broken link is left out', async () => {
    const corpus = path.join(scratch, 'linked');
    await mkdir(corpus, { recursive: true });
    await symlink(notes, path.join(corpus, 'notes'));
    await symlink(path.join(scratch, 'no-such-run'), path.join(corpus, 'gone'));
    const direct = await report(notes);
    const linked = await report(corpus);
    expect(linked.tasks.perTask.map((task) => [task.app, task.steps, task.passed])).toEqual(direct.tasks.perTask.map((task) => [task.app, task.steps, task.passed]));
    // A run whose state files are links to the fixture's.
    const run = path.join(scratch, 'linked-files', 'notes');
    await mkdir(path.join(run, 'states'), { recursive: true });
    await cp(path.join(notes, 'events'), path.join(run, 'events'), { recursive: true });
    for (const name of await readdir(path.join(notes, 'states'))) await symlink(path.join(notes, 'states', name), path.join(run, 'states', name));
    const files = await report(run);
    expect(files.tasks.perTask.map((task) => [task.steps, task.passed])).toEqual(direct.tasks.perTask.map((task) => [task.steps, task.passed]));
  });
});

// SYNTHETIC runs written here: a settings page with two alike switches. DroidBot's state_str is
// the set of the views' signatures, so "Wi-Fi on, Bluetooth off" and "Wi-Fi off, Bluetooth on"
// are one state, and the file DroidBot kept for it may be one it saved before the tap.
describe('a switch whose after screen DroidBot saved before the tap', () => {
  const view = (id: number, parent: number, children: number[], bounds: [number, number, number, number], cls: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
    temp_id: id, parent, children, bounds: [[bounds[0], bounds[1]], [bounds[2], bounds[3]]], class: cls, package: 'com.example.settings',
    resource_id: null, text: null, content_description: null, clickable: false, long_clickable: false, checkable: false, checked: false,
    selected: false, enabled: true, focusable: false, focused: false, scrollable: false, editable: false, is_password: false, visible: true, ...extra,
  });
  const switchView = (id: number, parent: number, top: number, on: boolean): Record<string, unknown> =>
    view(id, parent, [], [880, top + 40, 1040, top + 120], 'android.widget.Switch', { resource_id: 'com.example.settings:id/switch_widget', text: on ? 'ON' : 'OFF', checkable: true, checked: on, clickable: true, focusable: true });
  const state = (tag: string, stateStr: string, wifi: boolean, bluetooth: boolean): Record<string, unknown> => ({
    tag, state_str: stateStr, foreground_activity: 'com.example.settings/.Settings', width: 1080, height: 2280,
    views: [
      view(0, -1, [1, 2, 5], [0, 0, 1080, 2280], 'android.widget.FrameLayout'),
      view(1, 0, [], [0, 0, 1080, 200], 'android.widget.TextView', { resource_id: 'com.example.settings:id/title', text: 'Connections' }),
      view(2, 0, [3, 4], [0, 200, 1080, 360], 'android.widget.LinearLayout', { clickable: true }),
      view(3, 2, [], [40, 240, 800, 320], 'android.widget.TextView', { resource_id: 'android:id/title', text: 'Wi-Fi' }),
      switchView(4, 2, 200, wifi),
      view(5, 0, [6, 7], [0, 360, 1080, 520], 'android.widget.LinearLayout', { clickable: true }),
      view(6, 5, [], [40, 400, 800, 480], 'android.widget.TextView', { resource_id: 'android:id/title', text: 'Bluetooth' }),
      switchView(7, 5, 360, bluetooth),
    ],
  });
  const tap = { tag: '2024-02-01_100005', start_state: 's0', stop_state: 's1', event_str: 'TouchEvent(state=s0, view=wifi)', event: { event_type: 'touch', view: { temp_id: 4, bounds: [[880, 240], [1040, 320]], class: 'android.widget.Switch', resource_id: 'com.example.settings:id/switch_widget', text: 'OFF', content_description: null } } };

  async function writeRun(name: string, afterTag: string, afterWifi: boolean): Promise<string> {
    const folder = path.join(scratch, 'switches', name);
    await mkdir(path.join(folder, 'states'), { recursive: true });
    await mkdir(path.join(folder, 'events'), { recursive: true });
    await writeFile(path.join(folder, 'states', 'state_2024-02-01_100000.json'), JSON.stringify(state('2024-02-01_100000', 's0', false, false)));
    await writeFile(path.join(folder, 'states', `state_${afterTag}.json`), JSON.stringify(state(afterTag, 's1', afterWifi, !afterWifi)));
    await writeFile(path.join(folder, 'events', `event_${tap.tag}.json`), JSON.stringify(tap));
    return folder;
  }

  it('is left out, saying why; with its after screen saved after the tap it is judged', async () => {
    // The file of s1 saved at 09:00, before the tap, shows Bluetooth on: judged on it, the Wi-Fi switch "did not flip".
    const earlier = await report(await writeRun('earlier', '2024-02-01_090000', false));
    const [left] = earlier.perStep;
    expect(left).toMatchObject({ category: 'not-replayed', unitType: 'toggle', note: expect.stringContaining('toggle whose after screen is another capture of its state') });
    expect(left?.verdict).toBeUndefined();
    // The same tap with the file of s1 saved after it (Wi-Fi on): a toggle that flipped.
    const later = await report(await writeRun('later', '2024-02-01_100010', true));
    expect(later.perStep[0]).toMatchObject({ category: 'replayed', unitType: 'toggle', verdict: { outcome: 'pass' } });
    // Saved after the tap but showing Wi-Fi still off: the switch did not flip, and the replay says so.
    const unflipped = await report(await writeRun('unflipped', '2024-02-01_100010', false));
    expect(unflipped.perStep[0]).toMatchObject({ category: 'replayed', verdict: { outcome: 'fail' } });
  });

  it('reads the tapped switch as the event recorded it when the before file was saved while it stood the other way', async () => {
    // s0's file was saved with Wi-Fi off and Bluetooth on; the tap came later, when Wi-Fi was on and Bluetooth off (the
    // same state to DroidBot), and its view says so. After it both are off: Wi-Fi flipped on -> off.
    async function run(name: string, tappedOn: boolean): Promise<ReportJson> {
      const folder = path.join(scratch, 'switches', name);
      await mkdir(path.join(folder, 'states'), { recursive: true });
      await mkdir(path.join(folder, 'events'), { recursive: true });
      await writeFile(path.join(folder, 'states', 'state_2024-02-01_090000.json'), JSON.stringify(state('2024-02-01_090000', 's0', false, true)));
      await writeFile(path.join(folder, 'states', 'state_2024-02-01_100010.json'), JSON.stringify(state('2024-02-01_100010', 's1', false, false)));
      const event = { ...tap, event: { ...tap.event, view: { ...tap.event.view, text: tappedOn ? 'ON' : 'OFF', checked: tappedOn } } };
      await writeFile(path.join(folder, 'events', `event_${tap.tag}.json`), JSON.stringify(event));
      return report(folder);
    }
    expect((await run('stale-before', true)).perStep[0]).toMatchObject({ category: 'replayed', unitType: 'toggle', verdict: { outcome: 'pass', reason: expect.stringContaining('on → off') } });
    // The event saw Wi-Fi off, as the file does, and it is still off: the switch did not flip.
    expect((await run('off-before', false)).perStep[0]).toMatchObject({ category: 'replayed', verdict: { outcome: 'fail' } });
  });
});

// SYNTHETIC runs written here: a list of eight numbered rows scrolled by a DroidBot `scroll`
// event (its view is the list, its direction the way content came into view).
describe('a DroidBot scroll with its view and direction', () => {
  const view = (id: number, parent: number, children: number[], bounds: [number, number, number, number], cls: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
    temp_id: id, parent, children, bounds: [[bounds[0], bounds[1]], [bounds[2], bounds[3]]], class: cls, package: 'com.example.list',
    resource_id: null, text: null, content_description: null, clickable: false, scrollable: false, enabled: true, visible: true, ...extra,
  });
  /** The list showing rows `first`..`first + 7`, each 200 px high, under a 200 px title. */
  const state = (tag: string, stateStr: string, first: number): Record<string, unknown> => {
    const rows = Array.from({ length: 8 }, (_, index) => view(index + 3, 2, [], [0, 220 + index * 200, 1080, 400 + index * 200], 'android.widget.TextView', { text: `Row ${first + index}`, clickable: true }));
    return {
      tag, state_str: stateStr, foreground_activity: 'com.example.list/.Main', width: 1080, height: 2000,
      views: [
        view(0, -1, [1, 2], [0, 0, 1080, 2000], 'android.widget.FrameLayout'),
        view(1, 0, [], [0, 0, 1080, 200], 'android.widget.TextView', { text: 'Numbers' }),
        view(2, 0, rows.map((_, index) => index + 3), [0, 200, 1080, 2000], 'androidx.recyclerview.widget.RecyclerView', { resource_id: 'com.example.list:id/rows', scrollable: true }),
        ...rows,
      ],
    };
  };

  async function writeRun(name: string, direction: unknown, afterFirst: number): Promise<string> {
    const folder = path.join(scratch, 'scrolls', name);
    await mkdir(path.join(folder, 'states'), { recursive: true });
    await mkdir(path.join(folder, 'events'), { recursive: true });
    await writeFile(path.join(folder, 'states', 'state_2024-03-01_100000.json'), JSON.stringify(state('2024-03-01_100000', 's0', 10)));
    await writeFile(path.join(folder, 'states', 'state_2024-03-01_100010.json'), JSON.stringify(state('2024-03-01_100010', 's1', afterFirst)));
    const list = { temp_id: 2, bounds: [[0, 200], [1080, 2000]], class: 'androidx.recyclerview.widget.RecyclerView', resource_id: 'com.example.list:id/rows', text: null, content_description: null };
    const scroll = { tag: '2024-03-01_100005', start_state: 's0', stop_state: 's1', event_str: 'ScrollEvent(view=rows)', event: { event_type: 'scroll', view: list, ...(direction === undefined ? {} : { direction }) } };
    await writeFile(path.join(folder, 'events', `event_${scroll.tag}.json`), JSON.stringify(scroll));
    return folder;
  }

  it('passes strongly when the rows moved the way it names, fails when they moved the other way, and is left out without a direction', async () => {
    // DOWN: rows 10-17 became 13-20, so rows 13-17 moved up 600 px within the list.
    const down = (await report(await writeRun('down', 'DOWN', 13))).perStep[0];
    expect(down).toMatchObject({ category: 'replayed', unitType: 'scroll', verdict: { outcome: 'pass', strength: 'strong', tie: 'content-moved' } });
    expect(down?.verdict).toMatchObject({ reason: expect.stringContaining('moved 600 px, showing what is further down') });
    // The same screens recorded as UP: the rows moved the other way.
    const up = (await report(await writeRun('up', 'UP', 13))).perStep[0];
    expect(up).toMatchObject({ category: 'replayed', verdict: { outcome: 'fail', code: 'wrong-direction' } });
    // DOWN to rows 30-37: nothing stayed in view to show which way the list went.
    const far = (await report(await writeRun('far', 'DOWN', 30))).perStep[0];
    expect(far).toMatchObject({ category: 'replayed', verdict: { outcome: 'pass', strength: 'weak', tie: 'content-replaced' } });
    // LEFT on a vertical list: no container under it scrolls that way.
    const across = (await report(await writeRun('across', 'LEFT', 13))).perStep[0];
    expect(across).toMatchObject({ category: 'unmapped', note: expect.stringContaining('no horizontal scroll container holds the swiped element') });
    const undirected = (await report(await writeRun('undirected', undefined, 13))).perStep[0];
    expect(undirected).toMatchObject({ category: 'not-replayed', note: 'swipe / scroll without a recorded direction (not replayed)' });
    // A direction that is no string leaves the event readable, its scroll left out.
    const odd = await report(await writeRun('odd', 5, 13));
    expect(odd.unreadable).toEqual([]);
    expect(odd.perStep[0]).toMatchObject({ category: 'not-replayed', note: 'swipe / scroll without a recorded direction (not replayed)' });
  });
});
