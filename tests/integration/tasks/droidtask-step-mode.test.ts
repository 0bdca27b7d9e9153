// DroidTask offline step mode on real DroidBot data. The repository holds only ONE real
// DroidBot state (tests/fixtures/autodroid, a date-picker dialog of Simple Calendar), so
// this test builds a SYNTHETIC minimal user_tasks/calendar folder around it: the state
// file is real; the task YAML and the event files are written here in DroidTask's format.
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDroidTaskPredictor } from '../../../src/agent/baselines/droidtask-predictor.js';
import { ScriptedLanguageModel } from '../../../src/model/scripted-language-model.js';
import type { UnitId } from '../../../src/perception/control-unit.js';
import { DroidTaskLoadError } from '../../../src/tasks/droidtask/droidtask-load-error.js';
import { droidTaskChoiceElement, loadDroidTaskApp, type DroidTaskApp } from '../../../src/tasks/droidtask/load-droidtask-app.js';
import { mapDroidTaskTarget } from '../../../src/tasks/droidtask/map-droidtask-target.js';
import { computeDroidTaskMetrics, runDroidTaskStepMode, isDroidTaskStepCorrect, scoreDroidTaskEpisode, type DroidTaskPrediction } from '../../../src/tasks/droidtask/score-droidtask.js';

const repoRoot = path.resolve(import.meta.dirname, '..', '..', '..');
const stateFile = path.resolve(repoRoot, 'tests/fixtures/autodroid/state_2023-10-20_134316.json');

interface View {
  temp_id: number;
  text: string | null;
  class: string;
  resource_id: string | null;
  bounds: [[number, number], [number, number]];
}

function event(tag: string, view: View, start: string, stop: string): string {
  return JSON.stringify({ tag, event: { event_type: 'touch', log_lines: null, view, x: null, y: null }, start_state: start, stop_state: stop, event_str: `TouchEvent(${tag})` });
}

describe('DroidTask step mode (synthetic user_tasks around one real DroidBot state)', () => {
  let root: string;
  let app: DroidTaskApp;
  let stateStr: string;
  let views: View[];

  beforeAll(async () => {
    const state = JSON.parse(await readFile(stateFile, 'utf8')) as { state_str: string; tag: string; views: View[] };
    stateStr = state.state_str;
    views = state.views;
    const byText = (text: string, onScreen = true): View => {
      const found = views.find((view) => view.text === text && (!onScreen || view.bounds[0][0] >= 0));
      if (!found) throw new Error(`no view ${text}`);
      return found;
    };
    root = await mkdtemp(path.join(tmpdir(), 'senseact-droidtask-'));
    const appDir = path.join(root, 'user_tasks', 'calendar');
    await mkdir(path.join(appDir, 'states'), { recursive: true });
    await mkdir(path.join(appDir, 'events'), { recursive: true });
    await copyFile(stateFile, path.join(appDir, 'states', path.basename(stateFile)));
    // The picker after the tap on 25: the same views under another state_str (DroidTask's format: a
    // record's state_str is its event's start_state, the next record's is the event's stop_state).
    await writeFile(path.join(appDir, 'states', 'state_2023-10-20_134320.json'), JSON.stringify({ ...state, tag: '2023-10-20_134320', state_str: 'after-25' }));
    await writeFile(path.join(appDir, 'events', 'event_1.json'), event('1', byText('25'), stateStr, 'after-25'));
    await writeFile(path.join(appDir, 'events', 'event_2.json'), event('2', byText('OK'), 'after-25', stateStr));
    // A decoy that starts on the same screen but leads to the state the record's new_state_str names:
    // the loader must pick the event that stops on the next record's state.
    await writeFile(path.join(appDir, 'events', 'event_3.json'), event('3', byText('CANCEL'), 'after-25', 'elsewhere'));
    await writeFile(path.join(appDir, 'events', 'event_4.json'), event('4', byText('1', false), stateStr, 'missing-state'));
    const html = "<button id=0>25</button>\n<button id=1>OK</button>\n<button id=2>go back</button>";
    await writeFile(
      path.join(appDir, 'task1.yaml'),
      `records:
- Choice: 0
  Input: 'null'
  State: ${JSON.stringify(html)}
  new_state_str: merged-picker
  state_str:
  - unknown-state
  - ${stateStr}
- Choice: 1
  Input: 'null'
  State: ${JSON.stringify(html)}
  new_state_str: elsewhere
  state_str: after-25
- Choice: -1
  Input: 'null'
  State: ${JSON.stringify(html)}
  new_state_str: done
  state_str: ${stateStr}
step_num: 3
task_name: set the date to the 25th
`,
    );
    await writeFile(
      path.join(appDir, 'task2.yaml'),
      `records:
- Choice: 0
  Input: 'null'
  State: '<button id=0>1</button>'
  new_state_str: after-offscreen
  state_str: ${stateStr}
- Choice: 0
  Input: 'null'
  State: '<button id=0>x</button>'
  new_state_str: nowhere
  state_str: missing-state
- Choice: -1
  Input: 'null'
  State: ''
  state_str: ${stateStr}
task_name: a task whose steps cannot all be mapped
`,
    );
    await writeFile(
      path.join(appDir, 'task3.yaml'),
      `records:
- Choice: 2
  Input: 'null'
  State: ${JSON.stringify(html)}
  new_state_str: previous
  state_str: ${stateStr}
- Choice: -1
  Input: 'null'
  State: ${JSON.stringify(html)}
  state_str: ${stateStr}
task_name: leave the date picker
`,
    );
    app = await loadDroidTaskApp(appDir);
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('loads the tasks in order with their steps, states and events', () => {
    expect(app.app).toBe('calendar');
    expect(app.episodes.map((episode) => episode.taskName)).toEqual(['set the date to the 25th', 'a task whose steps cannot all be mapped', 'leave the date picker']);
    const [first] = app.episodes;
    expect(first?.steps).toHaveLength(3);
    expect(first?.steps[0]?.screen?.perception.tree.dialect).toBe('droidbot');
    expect(first?.steps[1]?.event?.file).toMatch(/event_2\.json$/);
  });

  it('maps each recorded element to the unit that holds it', () => {
    const [tap25, tapOk, finish] = app.episodes[0]?.steps ?? [];
    const perception = tap25?.screen?.perception;
    const unitWithLabel = (label: string): UnitId | undefined => perception?.units.find((unit) => unit.label === label)?.id;
    expect(tap25?.groundTruth).toMatchObject({ kind: 'tap', mapping: 'member-bounds', unitIds: [unitWithLabel('25')] });
    expect(tapOk?.groundTruth).toMatchObject({ kind: 'tap', mapping: 'member-bounds', unitIds: [unitWithLabel('OK')] });
    expect(unitWithLabel('25')).not.toBe(unitWithLabel('OK'));
    expect(finish?.groundTruth).toEqual({ kind: 'finish' });
  });

  it('keeps the chosen element and treats the "go back" pseudo element as pressing Back', () => {
    expect(app.episodes[0]?.steps[1]?.choiceHtml).toBe('<button id=1>OK</button>');
    const [back, finish] = app.episodes[2]?.steps ?? [];
    expect(back?.groundTruth).toEqual({ kind: 'back' });
    expect(isDroidTaskStepCorrect({ kind: 'back' }, { kind: 'back' })).toBe(true);
    expect(isDroidTaskStepCorrect({ kind: 'back' }, { kind: 'finish' })).toBe(false);
    expect(finish?.choiceHtml).toBeNull();
  });

  it('finds the chosen element in multi-line simplified HTML', () => {
    const state = "<input id=0>Search</input>\n<button id=1 text='Sort'></button>\n<button id=12>A<br>B</button>\n<button id=2>go back</button>";
    expect(droidTaskChoiceElement(state, 12)).toBe('<button id=12>A\nB</button>');
    expect(droidTaskChoiceElement(state, 1)).toBe("<button id=1 text='Sort'></button>");
    expect(droidTaskChoiceElement(state, 7)).toBeNull();
  });

  it('maps an element folded into a unit to the smallest unit containing its centre', () => {
    const perception = app.episodes[0]?.steps[0]?.screen?.perception;
    if (perception === undefined) throw new Error('no perception');
    const ok = perception.units.find((unit) => unit.label === 'OK');
    const inner = { bounds: [[800, 1700], [900, 1800]] as [[number, number], [number, number]], class: 'android.widget.TextView', text: null };
    expect(mapDroidTaskTarget(perception, inner)).toMatchObject({ mapping: 'contains', unitIds: [ok?.id] });
  });

  it('falls back to the element signature when the recorded bounds moved', () => {
    const perception = app.episodes[0]?.steps[0]?.screen?.perception;
    if (perception === undefined) throw new Error('no perception');
    const cancel = perception.units.find((unit) => unit.label === 'CANCEL');
    const moved = { bounds: [[10, 10], [20, 20]] as [[number, number], [number, number]], class: 'android.widget.Button', resource_id: 'android:id/button2', text: 'CANCEL' };
    expect(mapDroidTaskTarget(perception, moved)).toMatchObject({ mapping: 'member-signature', unitIds: [cancel?.id] });
  });

  it('says why a step cannot be mapped', () => {
    const [offscreen, missing] = app.episodes[1]?.steps ?? [];
    expect(offscreen?.groundTruth).toMatchObject({ kind: 'tap', mapping: 'unmapped', unitIds: [] });
    expect(missing?.groundTruth).toMatchObject({ kind: 'tap', mapping: 'no-state', unitIds: [] });
  });

  it('computes action accuracy and completion rate as DroidTask defines them', () => {
    const [first, second] = app.episodes;
    if (!first || !second) throw new Error('episodes missing');
    const id = (index: number): UnitId => {
      const truth = first.steps[index]?.groundTruth;
      if (truth?.kind !== 'tap' || truth.unitIds[0] === undefined) throw new Error('no unit');
      return truth.unitIds[0];
    };
    const perfect: DroidTaskPrediction[] = [{ kind: 'tap', unitId: id(0) }, { kind: 'tap', unitId: id(1) }, { kind: 'finish' }];
    const early: DroidTaskPrediction[] = [{ kind: 'tap', unitId: id(0) }, { kind: 'finish' }, { kind: 'finish' }];
    const perfectScore = scoreDroidTaskEpisode(first, perfect);
    expect(perfectScore).toMatchObject({ steps: 3, correctSteps: 3, finishCorrect: true });
    const earlyScore = scoreDroidTaskEpisode(first, early);
    expect(earlyScore.perStep).toEqual([true, false, true]);
    const secondScore = scoreDroidTaskEpisode(second, [undefined, undefined, { kind: 'tap', unitId: id(0) }]);
    expect(secondScore).toMatchObject({ correctSteps: 0, finishCorrect: false });

    const metrics = computeDroidTaskMetrics([perfectScore, secondScore]);
    expect(metrics.actionAccuracy).toEqual({ value: 3 / 6, numerator: 3, denominator: 6 });
    expect(metrics.completionRate).toEqual({ value: 1 / 2, numerator: 1, denominator: 2 });
    expect(metrics.finishAccuracy.numerator).toBe(1);
    expect(metrics.perApp['calendar']?.actionAccuracy.value).toBe(0.5);
    const missedFinish = scoreDroidTaskEpisode(first, [perfect[0], perfect[1], { kind: 'tap', unitId: id(1) }]);
    expect(computeDroidTaskMetrics([missedFinish]).completionExceptFinish).toEqual({ value: 1, numerator: 1, denominator: 1 });
  });

  it('runs step mode with a predictor over every step', async () => {
    const asked: string[] = [];
    const { scores, metrics } = await runDroidTaskStepMode(app.episodes, (episode, index) => {
      asked.push(`${episode.taskName}#${index}`);
      const truth = episode.steps[index]?.groundTruth;
      if (truth?.kind === 'finish' || truth?.kind === 'back') return Promise.resolve({ kind: truth.kind });
      const unitId = truth?.unitIds[0];
      return Promise.resolve(unitId === undefined ? undefined : { kind: 'tap', unitId });
    });
    expect(asked).toHaveLength(3 + 3 + 2);
    expect(scores.map((score) => score.correctSteps)).toEqual([3, 1, 2]);
    expect(metrics.actionAccuracy).toEqual({ value: 6 / 8, numerator: 6, denominator: 8 });
    expect(metrics.completionRate.numerator).toBe(2);
  });

  it('scores the SenseAct planner in step mode: its first committed unit is the prediction', async () => {
    const episode = app.episodes[0]!;
    const pick = (label: string) => (request: { messages: readonly { content: string }[] }): string => {
      const view = request.messages.map((message) => message.content).join('\n');
      const id = new RegExp(`\\[(n[0-9a-f]+)\\] [a-z-]+ "${label}"`).exec(view)?.[1];
      return JSON.stringify({ intent: `Tap ${label}`, expectation: '', commitment: [{ unit: id ?? 'missing' }] });
    };
    const careful = new ScriptedLanguageModel({
      replies: (request) => {
        const history = /Intent history:\n([\s\S]*?)\n\n/.exec(request.messages.at(-1)!.content)?.[1] ?? '';
        if (history.includes('(none yet)')) return pick('25')(request);
        if (!history.includes('>OK<')) return pick('OK')(request);
        return JSON.stringify({ intent: 'Done', finish: true });
      },
    });
    const good = await runDroidTaskStepMode([episode], createDroidTaskPredictor(careful));
    expect(good.metrics.actionAccuracy.value).toBe(1);
    expect(good.metrics.completionRate.value).toBe(1);
    // The screen reached the planner as the typed view of the real DroidBot state.
    expect(careful.calls[0]!.request.messages.at(-1)!.content).toContain('<screen>');

    const hasty = new ScriptedLanguageModel({ replies: () => JSON.stringify({ intent: 'Done', finish: true }) });
    const bad = await runDroidTaskStepMode([episode], createDroidTaskPredictor(hasty));
    expect(bad.metrics.actionAccuracy.value).toBeCloseTo(1 / 3);
    expect(bad.metrics.completionRate.value).toBe(0);
  });

  it('judges input steps by element and exact text', () => {
    const truth = { kind: 'input', text: 'Alice', unitIds: ['n1234' as UnitId], mapping: 'member-bounds', reason: '' } as const;
    expect(isDroidTaskStepCorrect(truth, { kind: 'input', unitId: 'n1234' as UnitId, text: 'Alice' })).toBe(true);
    expect(isDroidTaskStepCorrect(truth, { kind: 'input', unitId: 'n1234' as UnitId, text: 'alice' })).toBe(false);
    expect(isDroidTaskStepCorrect(truth, { kind: 'tap', unitId: 'n1234' as UnitId })).toBe(false);
  });

  it('rejects a folder without tasks and malformed task files, naming the file', async () => {
    await expect(loadDroidTaskApp(path.join(root, 'user_tasks'))).rejects.toThrow(/no task\*\.yaml files/);
    const bad = path.join(root, 'bad');
    await mkdir(bad);
    await writeFile(path.join(bad, 'task1.yaml'), 'records: []\ntask_name: x\n');
    const error = await loadDroidTaskApp(bad).catch((caught: unknown) => caught);
    expect(DroidTaskLoadError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain('task1.yaml: field records');
  });
});
