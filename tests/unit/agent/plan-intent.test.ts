// The plan phase with scripted planners: admissible commitments pass, rejected ones are
// asked again with the reason, look-for targets are left to vision, finish ends.
import { describe, expect, it } from 'vitest';
import { maxPlanRejections, planIntent } from '../../../src/agent/planning/plan-intent.js';
import { ScriptedLanguageModel } from '../../../src/model/scripted-language-model.js';
import { surfaceLineHead } from '../../../src/agent/prompts/agent-prompts.js';
import { phaseFixture, suiteTask, tapAndDecide, unitIdIn } from './senseact-fixture.js';

const settings = suiteTask('settings-dark-theme');
const contacts = suiteTask('contacts-add-xu');

describe('planIntent', () => {
  it('returns an admissible commitment with its units, the planner having seen the screen', async () => {
    const planner = new ScriptedLanguageModel({ replies: (request) => JSON.stringify({ intent: 'Open Display', expectation: 'exists(text="Dark theme")', commitment: [{ unit: unitIdIn(request, 'Display') }] }) });
    const { context, state, events } = await phaseFixture(settings, { models: { planner } });
    const planned = await planIntent(context, state);
    expect(planned.kind).toBe('commit');
    if (planned.kind !== 'commit') return;
    expect(planned.units.map((unit) => unit.label)).toEqual(['Display']);
    expect(planner.calls[0]!.request.messages.at(-1)!.content).toContain(state.screen.perception.view.split('\n')[0]);
    expect(events().filter((event) => event.type === 'commitment-end').map((event) => event['admissible'])).toEqual([true]);
  });

  it('asks again with the reason after an inadmissible commitment, and takes the corrected one', async () => {
    const planner = new ScriptedLanguageModel({
      replies: (request, index) => (index === 0
        ? JSON.stringify({ intent: 'Open Display', commitment: [{ unit: 'n0000' }] })
        : JSON.stringify({ intent: 'Open Display', commitment: [{ unit: unitIdIn(request, 'Display') }] })),
    });
    const { context, state } = await phaseFixture(settings, { models: { planner } });
    const planned = await planIntent(context, state);
    expect(planned.kind).toBe('commit');
    expect(planner.calls[1]!.request.messages.at(-1)!.content).toContain('Your previous commitment was rejected: unit "n0000" is not on this screen');
  });

  it('gives the step up as rejected after every attempt was inadmissible', async () => {
    const planner = new ScriptedLanguageModel({ replies: () => JSON.stringify({ intent: 'Save it', commitment: [{ unit: 'n0000' }] }) });
    const { context, state } = await phaseFixture(settings, { models: { planner } });
    const planned = await planIntent(context, state);
    expect(planned).toEqual({ kind: 'rejected', intent: 'Save it', reason: 'unit "n0000" is not on this screen; use an id from the view' });
    expect(planner.calls).toHaveLength(maxPlanRejections + 1);
  });

  it('takes a commitment on this screen and rejects a launch outside the allowed apps', async () => {
    const planner = new ScriptedLanguageModel({
      replies: (request, index) => {
        if (index === 0) return JSON.stringify({ intent: 'Open the editor', commitment: [{ unit: unitIdIn(request, 'Create contact') }] });
        return JSON.stringify({ intent: 'Go elsewhere', commitment: [{ unit: 'nav-launch', value: 'com.android.settings' }] });
      },
    });
    const { context, state } = await phaseFixture(contacts, { models: { planner } });
    const first = await planIntent(context, state);
    expect(first.kind).toBe('commit');
    const second = await planIntent(context, state);
    expect(second.kind === 'rejected' && second.reason).toMatch(/launching "com.android.settings" is outside the allowed apps/);
  });

  it('leaves a look-for target to vision without checking it, and ends on finish', async () => {
    const planner = new ScriptedLanguageModel({
      replies: (_request, index) => (index === 0
        ? JSON.stringify({ intent: 'Open the editor', lookFor: 'the round plus button', commitment: [{ unit: 'look-for' }] })
        : JSON.stringify({ intent: 'Done', finish: true, answer: '42' })),
    });
    const { context, state, events } = await phaseFixture(contacts, { models: { planner } });
    expect((await planIntent(context, state)).kind).toBe('look-for');
    expect(events().some((event) => event.type === 'commitment-end')).toBe(false);
    const finished = await planIntent(context, state);
    expect(finished.kind === 'finish' && finished.plan.answer).toBe('42');
  });

  it('hides outcomes and notes from the planner without execution feedback (open-loop)', async () => {
    const planner = new ScriptedLanguageModel({ replies: (request) => JSON.stringify({ intent: 'Open Display', commitment: [{ unit: unitIdIn(request, 'Display') }] }) });
    const closed = await phaseFixture(settings, { models: { planner } });
    closed.state.history.push({ intent: 'Open Battery', outcome: 'fail', note: 'nothing changed' });
    await planIntent(closed.context, closed.state);
    expect(planner.calls[0]!.request.messages.at(-1)!.content).toContain('1. Open Battery → fail (nothing changed)');
    const open = await phaseFixture(settings, { models: { planner }, feedback: false });
    open.state.history.push({ intent: 'Open Battery', outcome: 'fail', note: 'nothing changed' });
    await planIntent(open.context, open.state);
    const prompt = planner.calls[1]!.request.messages.at(-1)!.content;
    expect(prompt).toContain('1. Open Battery → unknown');
    expect(prompt).not.toContain('nothing changed');
  });
});

// Each feedback line with a scripted planner: present when verification learned it, absent otherwise.
describe('planIntent: the feedback lines of the prompt', () => {
  const openDisplay = (request: Parameters<typeof unitIdIn>[0]) => JSON.stringify({ intent: 'Open Display', commitment: [{ unit: unitIdIn(request, 'Display') }] });
  const promptOf = (planner: ScriptedLanguageModel, call: number) => planner.calls[call]!.request.messages.at(-1)!.content;

  it('says the surface decision and its reason after an executed intent, once', async () => {
    const planner = new ScriptedLanguageModel({ replies: (request) => (request.messages.at(-1)!.content.includes('"Navigate up"') ? JSON.stringify({ intent: 'Go back', commitment: [{ unit: 'nav-back' }] }) : openDisplay(request)) });
    const fixture = await phaseFixture(settings, { models: { planner } });
    await planIntent(fixture.context, fixture.state);
    // Negative: before anything ran, there is no surface line.
    expect(promptOf(planner, 0)).not.toContain(surfaceLineHead);
    await tapAndDecide(fixture, 'Display');
    await planIntent(fixture.context, fixture.state);
    expect(promptOf(planner, 1)).toContain(`${surfaceLineHead} STOP (the surface changed: a new page)`);
    // The plan was made on it: the next prompt (nothing executed since) does not repeat it.
    await planIntent(fixture.context, fixture.state);
    expect(promptOf(planner, 2)).not.toContain(surfaceLineHead);
  });

  it('names the required values the screen does not show yet, and only those', async () => {
    const planner = new ScriptedLanguageModel({ replies: () => JSON.stringify({ intent: 'Go back', commitment: [{ unit: 'nav-back' }] }) });
    const fixture = await phaseFixture(settings, { models: { planner } });
    await tapAndDecide(fixture, 'Display', 'Open Display to set the brightness level to 75');
    await planIntent(fixture.context, fixture.state);
    expect(promptOf(planner, 0)).toContain('Not on screen yet: "75"');
    // Negative: a value the screen shows (the brightness is 60) is not missing.
    const shown = await phaseFixture(settings, { models: { planner } });
    await tapAndDecide(shown, 'Display', 'Open Display to read the brightness level 60');
    await planIntent(shown.context, shown.state);
    expect(promptOf(planner, 1)).toContain(surfaceLineHead);
    expect(promptOf(planner, 1)).not.toContain('Not on screen yet');
  });

  it('says "change strategy" and the region not to repeat after the second failure on one target, not after the first', async () => {
    const planner = new ScriptedLanguageModel({ replies: openDisplay });
    const fixture = await phaseFixture(settings, { models: { planner }, faults: { 'dropped-tap': { rate: 1 } } });
    await tapAndDecide(fixture, 'Display');
    await planIntent(fixture.context, fixture.state);
    const once = promptOf(planner, 0);
    expect(once).toContain(surfaceLineHead);
    expect(once).not.toContain('choose a different unit or approach');
    expect(once).not.toContain('Do not repeat');
    await tapAndDecide(fixture, 'Display');
    await planIntent(fixture.context, fixture.state);
    const twice = promptOf(planner, 1);
    expect(twice).toContain('click "Display" failed 2 times in a row: choose a different unit or approach.');
    expect(twice).toContain('Do not repeat (no effect twice): click "Display"');
  });

  it('gives no feedback lines without execution feedback (open-loop)', async () => {
    const planner = new ScriptedLanguageModel({ replies: openDisplay });
    const fixture = await phaseFixture(settings, { models: { planner }, feedback: false });
    fixture.state.plannerFeedback = { surface: { decision: 'STOP', reason: 'the surface changed: a new page' }, missingValues: ['75'], noRepeat: ['click "Display"'] };
    await planIntent(fixture.context, fixture.state);
    expect(promptOf(planner, 0)).not.toContain(surfaceLineHead);
    expect(promptOf(planner, 0)).not.toContain('75');
  });
});
