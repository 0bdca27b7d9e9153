// `senseact verify-replay` on DroidTask data as it is recorded, with the SYNTHETIC folder of
// tests/fixtures/droidtask-quirks (ours): a view with inverted bounds, a 0-byte event file,
// a record whose new_state_str names the stop state of a decoy event, two state files with the
// same state_str from two recordings, and a task whose only step no event performs.
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDroidTaskApp } from '../../src/tasks/droidtask/load-droidtask-app.js';
import { pairDroidTaskEvent, type DroidTaskEventEntry } from '../../src/tasks/droidtask/pair-droidtask-event.js';
import { runCli, type CliRun } from '../helpers/run-cli.js';

const repoRoot = path.resolve(import.meta.dirname, '..', '..');
const fixture = path.join(repoRoot, 'tests/fixtures/droidtask-quirks/user_tasks');
const app = path.join(fixture, 'notes');

let scratch: string;
beforeAll(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), 'senseact-droidtask-quirks-'));
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

async function run(...args: string[]): Promise<CliRun> {
  return runCli(repoRoot, args);
}

interface ReportJson {
  screens: { read: number; withInvertedBounds: number; invertedViews: number };
  unreadable: { file: string; problem: string }[];
  skipped: { id: string; reason: string }[];
  tasks: { total: number; verified: number; leftOutSteps: number; perTask: { id: string; steps: number; passed: number; leftOut: number; verified: boolean }[] };
  perStep: { id: string; category: string; unitLabel?: string; verdict?: { outcome: string } }[];
}

async function report(folder: string): Promise<ReportJson> {
  const { code, out, err } = await run('verify-replay', folder, '--json');
  expect(err).toBe('');
  expect(code).toBe(0);
  return JSON.parse(out) as ReportJson;
}

/** A copy of the fixture's app folder to damage. */
async function copy(name: string): Promise<string> {
  const target = path.join(scratch, name, 'notes');
  await cp(app, target, { recursive: true });
  return target;
}

describe('verify-replay reads DroidTask as recorded', () => {
  it('keeps a view with inverted bounds and counts it, lists the empty event file, and replays every other step', async () => {
    const json = await report(fixture);
    expect(json.screens).toEqual({ read: 6, withInvertedBounds: 1, invertedViews: 1 });
    expect(json.unreadable).toEqual([{ file: path.join(app, 'events/event_2024-01-01_100026.json'), problem: 'the file is empty' }]);
    expect(json.perStep.map((step) => [step.id.slice(app.length + 1), step.category, step.verdict?.outcome])).toEqual([
      ['task1.yaml#0', 'replayed', 'pass'],
      ['task1.yaml#1', 'replayed', 'pass'],
      ['task1.yaml#2', 'replayed', 'pass'],
    ]);
    const { out } = await run('verify-replay', fixture);
    expect(out).toContain('with views whose bounds are inverted (scrolled partly off screen, kept with zero visible area): 1 (1 views)');
    expect(out).toContain('unreadable files left out: 1\n');
  });

  it('negative controls: a state that is no DroidBot state is left out with its steps; nothing readable at all exits 2', async () => {
    const damaged = await copy('damaged-state');
    const list = path.join(damaged, 'states/state_2024-01-01_100000.json');
    await writeFile(list, JSON.stringify({ tag: '2024-01-01_100000', state_str: 'sA', views: [{ temp_id: 0, parent: -1, children: [], bounds: [[0, 0.5], [10, 10]] }] }));
    const json = await report(path.dirname(damaged));
    expect(json.unreadable.map((entry) => entry.file)).toContain(list);
    expect(json.unreadable.find((entry) => entry.file === list)?.problem).toMatch(/views\[0\]\.bounds\[0\]\[1\]: invalid bounds/);
    expect(json.skipped).toContainEqual({ id: path.join(damaged, 'task1.yaml#0'), reason: 'no recorded screen for this step' });
    expect(json.tasks.perTask[0]).toMatchObject({ steps: 3, passed: 2, leftOut: 1, verified: false });

    const empty = await copy('nothing');
    await writeFile(path.join(empty, 'task1.yaml'), '');
    await writeFile(path.join(empty, 'task2.yaml'), 'records: [');
    const { code, err } = await run('verify-replay', path.dirname(empty));
    expect(code).toBe(2);
    expect(err).toMatch(/nothing can be read: the file is empty \(none of the 2 task files can be read\)/);
  });
});

describe('a record pairs with the event that starts on its state_str and stops on the next record\'s', () => {
  it('takes New note (stops on the next state), not the decoy Settings that new_state_str names, and the screens saved around it', async () => {
    const loaded = await loadDroidTaskApp(app);
    const [tap, fill, save] = loaded.episodes[0]!.steps;
    expect(path.basename(tap!.event!.file)).toBe('event_2024-01-01_100005.json');
    expect(tap!.event!.view?.text).toBe('New note');
    // Two files hold the editor's state_str (two recordings, two layouts): the one saved just before the event is the screen.
    expect(path.basename(fill!.screen!.file)).toBe('state_2024-01-01_100010.json');
    expect(path.basename(fill!.after!.file)).toBe('state_2024-01-01_100020.json');
    expect(fill!.groundTruth).toMatchObject({ kind: 'input', mapping: 'member-bounds' });
    expect(path.basename(save!.event!.file)).toBe('event_2024-01-01_100025.json');
    const json = await report(fixture);
    expect(json.perStep[0]).toMatchObject({ unitLabel: 'New note', verdict: { outcome: 'pass' } });
  });

  it('negative control: without the right event the step is left out, not paired with the decoy', async () => {
    const noEvent = await copy('no-event');
    await rm(path.join(noEvent, 'events/event_2024-01-01_100005.json'));
    const loaded = await loadDroidTaskApp(noEvent);
    expect(loaded.episodes[0]!.steps[0]!.event).toBeUndefined();
    const json = await report(path.dirname(noEvent));
    expect(json.skipped[0]).toEqual({ id: path.join(noEvent, 'task1.yaml#0'), reason: 'no acted element: none of the 1 events from sA leads to the next state or acts on an element labelled like the choice' });
    expect(json.tasks.perTask[0]).toMatchObject({ steps: 3, passed: 2, leftOut: 1, verified: false });
  });

  it('tells an icon by its description from a text with the same words', () => {
    const entry = (tag: string, view: { text: string | null; content_description: string | null }): DroidTaskEventEntry => ({
      file: `event_${tag}.json`,
      data: { tag, start_state: 's', stop_state: 't', event: { event_type: 'touch', view: { bounds: [[0, 0], [10, 10]], class: 'android.view.View', ...view } } },
    });
    const events = new Map([['s', [entry('1', { text: 'Create group', content_description: null }), entry('2', { text: null, content_description: 'Create group' })]]]);
    expect(pairDroidTaskEvent(events, ['s'], ['t'], "<button id=6 text='Create group'></button>").event?.data.tag).toBe('2');
    expect(pairDroidTaskEvent(events, ['s'], ['t'], '<button id=6>Create group</button>').event?.data.tag).toBe('1');
    expect(pairDroidTaskEvent(events, ['s'], ['t'], '<button id=6>Delete group</button>')).toEqual({ reason: '2 events from s to the next state act on 2 different elements' });
  });
});

describe('per task: verified only when every step was replayed and passed', () => {
  it('says how many steps each task left out', async () => {
    const json = await report(fixture);
    expect(json.tasks.perTask).toEqual([
      { id: "notes/add a note 'groceries'", app: 'notes', steps: 3, passed: 3, settled: 0, notPassed: 0, leftOut: 0, verified: true },
      { id: 'notes/open the help page', app: 'notes', steps: 1, passed: 0, settled: 0, notPassed: 0, leftOut: 1, verified: false },
    ]);
    expect(json.tasks).toMatchObject({ total: 2, verified: 1, leftOutSteps: 1 });
    const { out } = await run('verify-replay', fixture);
    expect(out).toContain("  verified     notes/add a note 'groceries': 3 steps, passed 3, not passed 0, settled 0, left out 0");
    expect(out).toContain('  not verified notes/open the help page: 1 steps, passed 0, not passed 0, settled 0, left out 1');
  });
});
