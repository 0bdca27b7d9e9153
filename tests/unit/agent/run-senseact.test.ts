// The SenseAct loop's round and run (loop/run-senseact.ts) on the simulator with scripted
// planners: one round per case (guard, plan, resolve, execute, verify) and the run's ends
// (FINISH, refusals, unresolved targets, the step budget, a spent model budget).
import { describe, expect, it } from 'vitest';
import { maxRefusedPlansInARow } from '../../../src/agent/planning/plan-intent.js';
import { maxUnresolvedInARow, playRound, runSenseAct } from '../../../src/agent/loop/run-senseact.js';
import { SenseActAgentError } from '../../../src/agent/senseact-agent-error.js';
import type { AppTrailStep } from '../../../src/memory/app-memory.js';
import { ModelBudgetError } from '../../../src/model/model-budget-error.js';
import { ScriptedLanguageModel } from '../../../src/model/scripted-language-model.js';
import { taskSchema } from '../../../src/tasks/task-schema.js';
import { phaseFixture, suiteTask, unitIdIn } from './senseact-fixture.js';

const settings = suiteTask('settings-dark-theme');

/** A planner that taps the unit labelled `label` on every call. */
function tapping(label: string): ScriptedLanguageModel {
  return new ScriptedLanguageModel({ replies: (request) => JSON.stringify({ intent: `Open ${label}`, expectation: 'exists(text="Dark theme")', commitment: [{ unit: unitIdIn(request, label) }] }) });
}

describe('playRound', () => {
  it('plans, executes and verifies one intent: a pass in the history, a step counted, the trail noted', async () => {
    const fixture = await phaseFixture(settings, { models: { planner: tapping('Display') } });
    const appTrail: AppTrailStep[] = [];
    const ended = await playRound({ ...fixture.context, appTrail }, fixture.state);
    expect(ended).toEqual({ entry: { intent: 'Open Display', outcome: 'pass', note: expect.any(String) as string } });
    expect(fixture.state.steps).toBe(1);
    expect(fixture.state.verification.pass).toBeGreaterThan(0);
    expect(appTrail).toHaveLength(1);
    expect(fixture.state.screen.perception.units.some((unit) => unit.label === 'Dark theme')).toBe(true);
  });

  it('negative control: open-loop executes the same plan but verifies nothing and writes no outcome', async () => {
    const fixture = await phaseFixture(settings, { models: { planner: tapping('Display') }, feedback: false });
    const ended = await playRound(fixture.context, fixture.state);
    expect(ended).toEqual({ entry: { intent: 'Open Display', outcome: 'unknown', note: '' } });
    expect(fixture.state.verification).toEqual({ pass: 0, fail: 0, inconclusive: 0 });
    const verdicts = fixture.events().filter((event) => event.type === 'verify-end');
    expect(verdicts.map((event) => [event['outcome'], event['reason']])).toEqual([['inconclusive', 'open-loop: execution feedback is off']]);
    // It did act: the device is on the Display page.
    expect(fixture.state.screen.perception.units.some((unit) => unit.label === 'Dark theme')).toBe(true);
  });

  it('leaves a screen outside the allowed apps before any model sees it', async () => {
    const planner = new ScriptedLanguageModel({ replies: [] });
    const fixture = await phaseFixture(settings, { models: { planner } });
    await fixture.device.act({ type: 'launch', packageName: 'com.google.android.contacts' });
    fixture.state.screen = await fixture.context.session.observe('before.xml');
    expect(fixture.state.screen.perception.tree.packageName).toBe('com.google.android.contacts');
    const ended = await playRound(fixture.context, fixture.state);
    expect(ended).toEqual({ entry: { intent: 'Leave com.google.android.contacts (not an allowed app)', outcome: 'unknown', note: 'guard' } });
    expect(planner.calls).toHaveLength(0);
    expect(fixture.state.screen.perception.tree.packageName).toBe('com.android.settings');
    expect(fixture.context.guard.left).toEqual(['com.google.android.contacts']);
  });

  it('ends the run on FINISH with the planner\'s answer, acting on nothing', async () => {
    const planner = new ScriptedLanguageModel({ replies: [JSON.stringify({ intent: 'Done', finish: true, answer: 'off' })] });
    const fixture = await phaseFixture(settings, { models: { planner } });
    expect(await playRound(fixture.context, fixture.state)).toEqual({ stop: { finished: true, reason: 'the planner said FINISH', answer: 'off' } });
    expect(fixture.state.steps).toBe(0);
  });

  it('ends the run once the model\'s plans were refused too often in a row; a first refusal only goes into the history', async () => {
    const refused = () => new ScriptedLanguageModel({ replies: () => JSON.stringify({ intent: 'Save it', commitment: [{ unit: 'n0000' }] }) });
    const first = await phaseFixture(settings, { models: { planner: refused() } });
    const once = await playRound(first.context, first.state);
    expect(once.stop).toBeUndefined();
    expect(once.entry).toMatchObject({ intent: 'Save it', outcome: 'rejected' });
    const last = await phaseFixture(settings, { models: { planner: refused() } });
    last.state.refusedPlansInARow = maxRefusedPlansInARow - 1;
    const ended = await playRound(last.context, last.state);
    expect(ended.stop?.reason).toMatch(new RegExp(`^the model's plans were refused ${maxRefusedPlansInARow} times in a row: unit "n0000" is not on this screen`));
  });

  it('gives up on a target neither the view nor vision can find after the limit in a row; before it, a failed entry', async () => {
    const lookFor = () => new ScriptedLanguageModel({ replies: () => JSON.stringify({ intent: 'Open the gear', lookFor: 'a gear icon', commitment: [{ unit: 'look-for' }] }) });
    const first = await phaseFixture(settings, { models: { planner: lookFor() } });
    expect(await playRound(first.context, first.state)).toEqual({ entry: { intent: 'Open the gear', outcome: 'fail', note: 'target not identifiable without vision' } });
    expect(first.state.unresolvedInARow).toBe(1);
    const last = await phaseFixture(settings, { models: { planner: lookFor() } });
    last.state.unresolvedInARow = maxUnresolvedInARow - 1;
    const ended = await playRound(last.context, last.state);
    expect(ended.stop).toEqual({ finished: false, reason: `the target of "Open the gear" could not be found ${maxUnresolvedInARow} times in a row` });
  });
});

describe('runSenseAct', () => {
  it('plays rounds until the step budget is used up, each round a step of the trace', async () => {
    const task = taskSchema.parse({ ...settings, stepBudget: 1 });
    const fixture = await phaseFixture(task, { models: { planner: tapping('Display') } });
    const end = await runSenseAct({ task, mode: 'senseact', session: fixture.context.session });
    expect(end).toMatchObject({ finished: false, stopReason: 'step budget of 1 used up', steps: 1 });
    expect(fixture.events().filter((event) => event.type === 'step-end').map((event) => event.step)).toEqual([1]);
  });

  it('ends as the model\'s failure when its budget is spent; another error is not the model\'s and is thrown', async () => {
    const spent = new ScriptedLanguageModel({ replies: [{ error: new ModelBudgetError('3 model calls') }] });
    const fixture = await phaseFixture(settings, { models: { planner: spent } });
    const end = await runSenseAct({ task: settings, mode: 'senseact', session: fixture.context.session });
    expect(end).toMatchObject({ finished: false, modelStopped: true, steps: 0 });
    expect(end.stopReason).toMatch(/^budget: 3 model calls/);
    const broken = new ScriptedLanguageModel({ replies: [{ error: new Error('socket hang up') }] });
    const other = await phaseFixture(settings, { models: { planner: broken } });
    await expect(runSenseAct({ task: settings, mode: 'senseact', session: other.context.session })).rejects.toThrow('socket hang up');
  });

  it('refuses senseact-vlm-always without a vision model; the same session runs senseact', async () => {
    const planner = new ScriptedLanguageModel({ replies: [JSON.stringify({ intent: 'Done', finish: true })] });
    const fixture = await phaseFixture(settings, { models: { planner } });
    const refused = runSenseAct({ task: settings, mode: 'senseact-vlm-always', session: fixture.context.session });
    await expect(refused).rejects.toSatisfy((error: unknown) => SenseActAgentError.isInstance(error) && error.code === 'agent-no-vision-model');
    expect(planner.calls).toHaveLength(0);
    expect(await runSenseAct({ task: settings, mode: 'senseact', session: fixture.context.session })).toMatchObject({ finished: true, stopReason: 'the planner said FINISH' });
  });
});
