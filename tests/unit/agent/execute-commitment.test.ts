// The execute phase over a commitment: later units are found on the screen the earlier
// ones left, a failure stops the commitment, and a target that failed τ times in a row
// goes to vision, whose located unit runs with the plan's arguments.
import { describe, expect, it } from 'vitest';
import { executeCommitment } from '../../../src/agent/loop/execute-commitment.js';
import { planReplySchema } from '../../../src/agent/planning/plan-reply.js';
import { ScriptedVisionModel } from '../../../src/model/scripted-language-model.js';
import { phaseFixture, suiteTask, unitLabelled } from './senseact-fixture.js';

const settings = suiteTask('settings-dark-theme');

describe('executeCommitment', () => {
  it('stops with a note when a later unit is gone from the screen the earlier one left', async () => {
    const { context, state } = await phaseFixture(settings);
    const display = unitLabelled(state, 'Display');
    const battery = unitLabelled(state, 'Battery');
    const plan = planReplySchema.parse({ intent: 'Open Display then Battery', commitment: [{ unit: display.id }, { unit: battery.id }] });
    const run = await executeCommitment(context, state, plan, plan.commitment, [display, battery]);
    expect(run.executed.map((unit) => unit.unit.label)).toEqual(['Display']);
    expect(run.unfinished).toBe(`stopped after 1 of 2 units: ${battery.id} is not on the new screen`);
    expect(state.steps).toBe(1);
    expect(state.verified.has(display.id)).toBe(true);
    expect(state.screen).toBe(run.executed[0]!.after);
  });

  it('stops before a later unit the first one covered (a dialog opened over it), and runs one still uncovered (negative control)', async () => {
    const { context, state } = await phaseFixture(suiteTask('settings-private-dns-google'));
    const network = unitLabelled(state, 'Network & internet');
    const open = planReplySchema.parse({ intent: 'Open Network & internet', commitment: [{ unit: network.id }] });
    await executeCommitment(context, state, open, open.commitment, [network]);
    const privateDns = unitLabelled(state, 'Private DNS');
    const airplane = unitLabelled(state, 'Airplane mode');
    const plan = planReplySchema.parse({ intent: 'Open Private DNS then Airplane mode', commitment: [{ unit: privateDns.id }, { unit: airplane.id }] });
    const run = await executeCommitment(context, state, plan, plan.commitment, [privateDns, airplane]);
    expect(run.executed.map((unit) => unit.unit.label)).toEqual(['Private DNS']);
    expect(run.unfinished).toMatch(new RegExp(`^stopped after 1 of 2 units: ${airplane.id} "Airplane mode" is covered by a dialog or sheet`));
    // In the dialog that opened, its own option is not covered: it runs.
    const option = unitLabelled(state, 'Private DNS provider hostname');
    const cancel = unitLabelled(state, 'Cancel');
    const inDialog = planReplySchema.parse({ intent: 'Pick hostname, then cancel', commitment: [{ unit: option.id }, { unit: cancel.id }] });
    const second = await executeCommitment(context, state, inDialog, inDialog.commitment, [option, cancel]);
    expect(second.executed.map((unit) => unit.unit.label)).toEqual(['Private DNS provider hostname', 'Cancel']);
    expect(second.unfinished).toBe('');
  });

  it('stops at a failed unit', async () => {
    const { context, state } = await phaseFixture(settings, { faults: { 'dropped-tap': { rate: 1 } } });
    const display = unitLabelled(state, 'Display');
    const battery = unitLabelled(state, 'Battery');
    const plan = planReplySchema.parse({ intent: 'Two taps', commitment: [{ unit: display.id }, { unit: battery.id }] });
    const run = await executeCommitment(context, state, plan, plan.commitment, [display, battery]);
    expect(run.executed.map((unit) => [unit.unit.label, unit.outcome.outcome])).toEqual([['Display', 'fail']]);
    expect(state.verification).toEqual({ pass: 0, fail: 1, inconclusive: 0 });
  });

  it('asks vision after τ failures on the same target and runs the located unit with the plan\'s item', async () => {
    const vision = new ScriptedVisionModel({ replies: (request) => JSON.stringify({ unit: /\[(n[0-9a-f]+)\] \[[-\d,]+\] click "Display"/.exec(request.messages.at(-1)!.content)?.[1] ?? null, reason: 'there' }) });
    const { context, state, events } = await phaseFixture(settings, { models: { vision }, faults: { 'dropped-tap': { rate: 1 } } });
    const display = unitLabelled(state, 'Display');
    const plan = planReplySchema.parse({ intent: 'Open Display', commitment: [{ unit: display.id }] });
    await executeCommitment(context, state, plan, plan.commitment, [display]);
    expect(vision.calls).toHaveLength(0);
    const run = await executeCommitment(context, state, plan, plan.commitment, [display]);
    expect(vision.calls).toHaveLength(1);
    const question = vision.calls[0]!.request.messages.at(-1)!.content;
    expect(question).toContain(`Failed target: [${display.id}]`);
    expect(question).not.toMatch(/\] (toggle|scroll) "/);
    expect(state.gateReasons).toEqual({ 'repeated-failure': 1 });
    expect(events().filter((event) => event.type === 'act-end')).toHaveLength(3);
    expect(state.steps).toBe(3);
    expect(run.executed).toHaveLength(1);
    expect(state.verification.fail).toBe(2);
  });

  it('without feedback neither stops at a failure nor asks vision', async () => {
    const vision = new ScriptedVisionModel({ replies: [] });
    const { context, state } = await phaseFixture(settings, { models: { vision }, feedback: false, faults: { 'dropped-tap': { rate: 1 } } });
    const display = unitLabelled(state, 'Display');
    const search = unitLabelled(state, 'Search settings');
    const plan = planReplySchema.parse({ intent: 'Two taps', commitment: [{ unit: display.id }, { unit: search.id }] });
    for (let round = 0; round < 2; round++) await executeCommitment(context, state, plan, plan.commitment, [display, search]);
    expect(state.steps).toBe(4);
    expect(state.verification).toEqual({ pass: 0, fail: 0, inconclusive: 0 });
  });
});
