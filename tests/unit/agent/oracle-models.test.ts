// The oracle policy answers from the messages a model gets and the screens the device
// returned through a read-only watch; it moves on only when a prompt says its plan passed.
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { plannerMessages, ranNote, ranUnitsShown, unitReference, unitsTookEffectNote, verifierMessages, type HistoryEntry } from '../../../src/agent/prompts/agent-prompts.js';
import { ranReferences } from '../../../src/agent/policies/oracle/oracle-guide.js';
import type { PlannerFeedback } from '../../../src/agent/loop/planner-feedback.js';
import { createOraclePolicy } from '../../../src/agent/policies/oracle/oracle-models.js';
import { planReplySchema, type PlanReply } from '../../../src/agent/planning/plan-reply.js';
import { simulatorForTask } from '../../../src/bench/simulator-for-task.js';
import type { Device } from '../../../src/device/device.js';
import { SimDevice } from '../../../src/device/sim-device.js';
import { perceive, type Perception } from '../../../src/perception/perceive.js';
import { loadSuite } from '../../../src/tasks/load-task-file.js';
import { parseHierarchy } from '../../../src/ui/parse-hierarchy.js';

const repoRoot = path.resolve(import.meta.dirname, '..', '..', '..');
const suite = await loadSuite('sim', { tasksRoot: path.join(repoRoot, 'tasks') });
const task = suite.tasks.find((candidate) => candidate.id === 'settings-dark-theme')!;

async function look(device: Device): Promise<Perception> {
  const observation = await device.observe();
  return perceive(parseHierarchy(observation.xml, { packageName: observation.packageName, activity: observation.activity }));
}

function setup() {
  const device = new SimDevice(simulatorForTask(task, { seed: 5 }));
  const policy = createOraclePolicy(task, { react: false, probe: device });
  return { device, policy, watched: policy.watch(device) };
}

async function plan(policy: ReturnType<typeof createOraclePolicy>, view: string, history: HistoryEntry[], feedback?: PlannerFeedback): Promise<PlanReply> {
  const reply = await policy.models.planner.generate({ role: 'planner', messages: plannerMessages({ instruction: task.instruction, allowedPackages: task.allowedPackages, view, history, certificates: [], ...(feedback ? { feedback } : {}) }) });
  return planReplySchema.parse(JSON.parse(reply.text));
}

/** Taps a settings row other than Display (Sound, Battery or Apps), as a wrong unit id would, and looks again. */
async function tapAnotherRow(start: Perception, watched: Device): Promise<{ other: Perception['units'][number]; elsewhere: Perception }> {
  const other = start.units.find((unit) => /^(Sound|Battery|Apps)/.test(unit.label) && unit.tap !== null)!;
  await watched.act({ type: 'tap', point: [other.tap![0], other.tap![1]] });
  return { other, elsewhere: await look(watched) };
}

describe('the oracle policy', () => {
  it('plans on the screen its prompt shows, and moves on only when the history says the plan passed', async () => {
    const { policy, watched } = setup();
    const start = await look(watched);
    const first = await plan(policy, start.view, []);
    const display = start.units.find((unit) => unit.label === 'Display');
    expect(first).toMatchObject({ intent: 'Open Display', commitment: [{ unit: display?.id }] });
    // Told the plan failed, the oracle commits the same step again.
    const again = await plan(policy, start.view, [{ intent: 'Open Display', outcome: 'fail', note: 'click "Display": nothing on screen changed' }]);
    expect(again.commitment).toEqual(first.commitment);
    // Told it passed (on the screen the tap led to), it moves to the next reference step.
    await watched.act({ type: 'tap', point: [display!.tap![0], display!.tap![1]] });
    const opened = await look(watched);
    const next = await plan(policy, opened.view, [{ intent: 'Open Display', outcome: 'fail', note: '' }, { intent: 'Open Display', outcome: 'pass', note: '' }]);
    expect(next.intent).toBe('Switch dark theme on');
    expect(next.commitment[0]).toMatchObject({ checked: true });
  });

  it('as verifier, judges the reference step the prompt\'s intent names (a skill replay asks about a step it never planned), else its current one', async () => {
    const { policy, watched } = setup();
    const start = await look(watched);
    const verdict = async (intent: string) => {
      const reply = await policy.models.verifier!.generate({ role: 'verifier', messages: verifierMessages({ intent, expectation: '', reason: 'a unit was inconclusive', view: start.view }) });
      return (JSON.parse(reply.text) as { verdict: string; reason: string });
    };
    // The second reference step names no expectation: pass, though the guide has planned nothing yet.
    expect(await verdict('Switch dark theme on')).toEqual({ verdict: 'pass', reason: 'oracle: the reference step names no expectation' });
    // The first one's expectation (Dark theme shown) does not hold on the start screen.
    expect((await verdict('Open Display')).verdict).toBe('fail');
    // An intent no reference step has: the current step decides, as before.
    expect((await verdict('Do something else')).verdict).toBe('fail');
  });

  it('answers the very same prompt the same way, as a deterministic model would (the samples of a vote)', async () => {
    // Two reference steps under one intent: a guide that settled the same history again would skip the second.
    const [open, dark] = task.solution ?? [];
    if (!open || !dark) throw new Error('settings-dark-theme lost its two reference steps');
    const twice = { ...task, solution: [open, { ...dark, intent: open.intent }] };
    const device = new SimDevice(simulatorForTask(twice, { seed: 5 }));
    const policy = createOraclePolicy(twice, { react: false, probe: device });
    const watched = policy.watch(device);
    const start = await look(watched);
    const first = await plan(policy, start.view, []);
    const display = start.units.find((unit) => unit.label === 'Display');
    await watched.act({ type: 'tap', point: [display!.tap![0], display!.tap![1]] });
    const opened = await look(watched);
    const history: HistoryEntry[] = [{ intent: first.intent, outcome: 'pass', note: '' }];
    const samples = [await plan(policy, opened.view, history), await plan(policy, opened.view, history), await plan(policy, opened.view, history)];
    expect(samples[0]).toMatchObject({ intent: open.intent, finish: false, commitment: [{ checked: true }] });
    expect(samples[1]).toEqual(samples[0]);
    expect(samples[2]).toEqual(samples[0]);
  });

  it('counts a plan whose units all took effect as done even though its expectation did not show', async () => {
    const { policy, watched } = setup();
    const start = await look(watched);
    await plan(policy, start.view, []);
    const next = await plan(policy, start.view, [{ intent: 'Open Display', outcome: 'fail', note: 'the units took effect; the expectation did not hold; exists(text="Dark theme"): no match' }]);
    expect(next.intent).toBe('Switch dark theme on');
  });

  it('reads which units the history says ran: another unit than the one it meant is no progress, and off a changed surface it goes back', async () => {
    const { policy, watched } = setup();
    const start = await look(watched);
    await plan(policy, start.view, []);
    // Its id named another unit (Sound, say): the note names what ran, and that unit took effect.
    const { other: sound, elsewhere } = await tapAnotherRow(start, watched);
    const ranSound: HistoryEntry = { intent: 'Open Display', outcome: 'fail', note: `${ranNote([sound])}; ${unitsTookEffectNote}; exists(text="Dark theme"): no match` };
    const changed: PlannerFeedback = { surface: { decision: 'STOP', reason: 'the surface changed: a new page' }, missingValues: [], noRepeat: [] };
    const back = await plan(policy, elsewhere.view, [ranSound], changed);
    expect(back.commitment).toEqual([{ unit: 'nav-back' }]);
    // A pass of the other unit is no progress either: back on the first screen, the step is planned again.
    const again = await plan(policy, start.view, [{ intent: 'Open Display', outcome: 'pass', note: ranNote([sound]) }]);
    expect(again.intent).toBe('Open Display');
    // Negative control: the note names the unit it meant, so the same words count as done.
    const display = start.units.find((unit) => unit.label === 'Display')!;
    const next = await plan(policy, start.view, [{ intent: 'Open Display', outcome: 'fail', note: `${ranNote([display])}; ${unitsTookEffectNote}; exists(text="Dark theme"): no match` }]);
    expect(next.intent).toBe('Switch dark theme on');
  });

  it('reads the ran part of a note back as the loop wrote it, labels with quotes and all, and nothing from a note without one', () => {
    const units = [{ type: 'click', label: 'Say "hi", then go' }, { type: 'fill', label: 'Name; first' }, { type: 'toggle', label: 'Wi-Fi' }, { type: 'commit', label: 'Save' }];
    const note = `${ranNote(units)}; stopped after 4 of 5 units`;
    expect(note).toBe('ran click "Say \\"hi\\", then go", fill "Name; first", toggle "Wi-Fi" +1 more; stopped after 4 of 5 units');
    expect(ranReferences(note)).toEqual(units.slice(0, ranUnitsShown).map(unitReference));
    expect(ranReferences('the units took effect; the expectation did not hold')).toBeUndefined();
    expect(ranReferences('')).toBeUndefined();
  });

  it('answers a prompt asked again after an invalid reply as it did the first time (the guide does not move twice)', async () => {
    const { policy, watched } = setup();
    const start = await look(watched);
    const messages = plannerMessages({ instruction: task.instruction, allowedPackages: task.allowedPackages, view: start.view, history: [], certificates: [] });
    const first = await policy.models.planner.generate({ role: 'planner', messages });
    const retried = await policy.models.planner.generate({ role: 'planner', messages: [...messages, { role: 'assistant', content: 'garbage' }, { role: 'user', content: 'Reply with valid JSON.' }] });
    expect(retried.text).toBe(first.text);
    // Negative control: the same prompt asked anew (no retry turns) is planned again.
    const display = start.units.find((unit) => unit.label === 'Display')!;
    await watched.act({ type: 'tap', point: [display.tap![0], display.tap![1]] });
    const opened = await look(watched);
    const next = await plan(policy, opened.view, [{ intent: 'Open Display', outcome: 'pass', note: '' }]);
    expect(next.intent).toBe('Switch dark theme on');
  });

  it('goes back when its failed plan changed the surface to one without the step\'s target', async () => {
    const { policy, watched } = setup();
    const start = await look(watched);
    await plan(policy, start.view, []);
    // Another unit was hit (say Sound): the screen lost Display, and the history says the plan failed.
    const { elsewhere } = await tapAnotherRow(start, watched);
    expect(elsewhere.units.some((unit) => unit.label === 'Display')).toBe(false);
    const failed: HistoryEntry = { intent: 'Open Display', outcome: 'fail', note: 'exists(text="Dark theme"): no match' };
    const back = await plan(policy, elsewhere.view, [failed], { surface: { decision: 'STOP', reason: 'the surface changed: a new page' }, missingValues: [], noRepeat: [] });
    expect(back.commitment).toEqual([{ unit: 'nav-back' }]);
    // Negative control: told the surface did not change (the target lost its label where it was), it does not go back.
    await plan(policy, start.view, []);
    const stayed = await plan(policy, elsewhere.view, [failed], { surface: { decision: 'CONTINUE', reason: 'the last action had no effect' }, missingValues: [], noRepeat: [] });
    expect(stayed.commitment).not.toEqual([{ unit: 'nav-back' }]);
    // Negative control: the same failure on the screen that still shows Display commits Display again.
    const again = await plan(policy, start.view, [{ intent: 'Open Display', outcome: 'fail', note: 'click "Display": nothing changed' }]);
    expect(again.intent).toBe('Open Display');
  });

  it('does not take a rejected plan as progress', async () => {
    const { policy, watched } = setup();
    const start = await look(watched);
    const first = await plan(policy, start.view, []);
    const reply = await policy.models.planner.generate({ role: 'planner', messages: plannerMessages({ instruction: task.instruction, allowedPackages: task.allowedPackages, view: start.view, history: [{ intent: 'Open Display', outcome: 'pass', note: '' }], certificates: [], rejection: 'unit "x" is not on this screen' }) });
    expect(planReplySchema.parse(JSON.parse(reply.text)).intent).toBe(first.intent);
  });

  it('refuses a prompt whose screen the device never returned (it sees nothing but the watch)', async () => {
    const { policy, device, watched } = setup();
    await look(watched);
    // Observed around the watch: the oracle never saw this screen.
    await device.act({ type: 'launch', packageName: 'com.google.android.contacts' });
    const unseen = await look(device);
    await expect(plan(policy, unseen.view, [])).rejects.toThrow(/none of the last 1 observations/);
  });

  it('watches without changing what the device returns', async () => {
    const { device, watched } = setup();
    const { latencyMs: _direct, ...direct } = await device.observe();
    const { latencyMs: _through, ...through } = await watched.observe();
    expect(through).toEqual(direct);
    expect(watched.info).toBe(device.info);
  });
});

// A regression seen on clock-remove-barcelona under --faults standard: the Clock tab
// opened but its expectation's label was stripped, so the plan failed; the selected tab
// is no unit any more, and the oracle, missing the unit ids it had committed, went Back
// (out of the app) and back in, round after round. A model reading the prompt sees the
// step's target gone and the next step's target there.
describe('the oracle policy after a failed plan', () => {
  const barcelona = suite.tasks.find((candidate) => candidate.id === 'clock-remove-barcelona')!;

  async function planOn(policy: ReturnType<typeof createOraclePolicy>, view: string, history: HistoryEntry[], feedback?: PlannerFeedback): Promise<PlanReply> {
    const reply = await policy.models.planner.generate({ role: 'planner', messages: plannerMessages({ instruction: barcelona.instruction, allowedPackages: barcelona.allowedPackages, view, history, certificates: [], ...(feedback ? { feedback } : {}) }) });
    return planReplySchema.parse(JSON.parse(reply.text));
  }

  it('moves on when the failed step\'s target is gone and the next step\'s target is on the screen (not Back)', async () => {
    const device = new SimDevice(simulatorForTask(barcelona, { seed: 5, faults: { 'icon-only': { rate: 1 } } }));
    const policy = createOraclePolicy(barcelona, { react: false, probe: device });
    const watched = policy.watch(device);
    const alarms = await look(watched);
    const first = await planOn(policy, alarms.view, []);
    expect(first.intent).toBe('Open the Clock tab');
    const clockTab = alarms.units.find((unit) => unit.id === first.commitment[0]?.unit)!;
    await watched.act({ type: 'tap', point: [clockTab.tap![0], clockTab.tap![1]] });
    const clock = await look(watched);
    // The step's own check cannot hold: the icon-only fault stripped "Add city".
    expect(clock.view).not.toContain('Add city');
    const failed: HistoryEntry = { intent: 'Open the Clock tab', outcome: 'fail', note: 'commitment failed: click "Clock": expectation failed: no node matches desc="Add city"' };
    const next = await planOn(policy, clock.view, [failed], { surface: { decision: 'STOP', reason: 'all required values shown and nothing on the screen is editable' }, missingValues: [], noRepeat: [] });
    expect(next.intent).toBe('Long-press Barcelona');
    expect(next.commitment).toEqual([{ unit: clock.units.find((unit) => unit.label === 'Barcelona')!.id, longPress: true }]);
  });

  it('retries the step when its target is still on the screen (negative control)', async () => {
    const device = new SimDevice(simulatorForTask(barcelona, { seed: 5, faults: { 'icon-only': { rate: 1 } } }));
    const policy = createOraclePolicy(barcelona, { react: false, probe: device });
    const alarms = await look(policy.watch(device));
    const first = await planOn(policy, alarms.view, []);
    const again = await planOn(policy, alarms.view, [{ intent: 'Open the Clock tab', outcome: 'fail', note: 'click "Clock": nothing on screen changed' }], { surface: { decision: 'CONTINUE', reason: 'the last action had no effect' }, missingValues: [], noRepeat: [] });
    expect(again).toEqual(first);
  });
});
