// The resolve-by-vision phase with scripted vision: the planner's lookFor reaches vision,
// the located unit keeps the plan's arguments through admissibility, and every other
// answer (none, already done, inadmissible, no vision) leaves the target unresolved.
import { describe, expect, it } from 'vitest';
import { planReplySchema } from '../../../src/agent/planning/plan-reply.js';
import { resolveByVision } from '../../../src/agent/loop/resolve-by-vision.js';
import { ScriptedVisionModel } from '../../../src/model/scripted-language-model.js';
import { phaseFixture, suiteTask, unitIdIn, unitLabelled } from './senseact-fixture.js';

const contacts = suiteTask('contacts-add-xu');

/** Vision that picks the candidate with this label from the gate prompt. */
function visionPicking(label: string | null, alreadyDone = false): ScriptedVisionModel {
  return new ScriptedVisionModel({ replies: (request) => JSON.stringify({ unit: label === null ? null : unitIdIn({ messages: request.messages.map((message) => ({ content: message.content.replace(/ \[[-\d,]+\] /g, ' ') })) }, label), reason: 'seen', alreadyDone }) });
}

describe('resolveByVision', () => {
  it('gives vision the lookFor and puts the located unit, with the plan\'s arguments, in the placeholder\'s place', async () => {
    const vision = visionPicking('Create contact');
    const { context, state, events } = await phaseFixture(contacts, { models: { vision } });
    const plan = planReplySchema.parse({ intent: 'Open the editor', lookFor: 'the round plus button', commitment: [{ unit: 'look-for', longPress: true }] });
    const resolution = await resolveByVision(context, state, plan);
    const located = unitLabelled(state, 'Create contact');
    expect(resolution).toMatchObject({ kind: 'resolved', items: [{ unit: located.id, longPress: true }] });
    expect(vision.calls[0]!.request.messages.at(-1)!.content).toContain('Look for: the round plus button');
    expect(state.gateReasons).toEqual({ 'unresolved-target': 1 });
    expect(events().filter((event) => event.type === 'commitment-end').map((event) => event['admissible'])).toEqual([true]);
  });

  it('takes vision\'s "already done" as such, and its "none" as unresolved', async () => {
    const plan = planReplySchema.parse({ intent: 'Open the contacts list', lookFor: 'the list', commitment: [] });
    const done = await phaseFixture(contacts, { models: { vision: visionPicking(null, true) } });
    expect(await resolveByVision(done.context, done.state, plan)).toEqual({ kind: 'already-done' });
    const none = await phaseFixture(contacts, { models: { vision: visionPicking(null) } });
    expect(await resolveByVision(none.context, none.state, plan)).toEqual({ kind: 'unresolved', note: 'vision could not locate the target either' });
  });

  it('does not act on a located unit whose commitment is inadmissible', async () => {
    const { context, state } = await phaseFixture(contacts, { models: { vision: visionPicking('Create contact') } });
    const plan = planReplySchema.parse({ intent: 'Open the editor elsewhere', lookFor: 'the plus button', commitment: [{ unit: 'look-for' }, { unit: 'nav-launch', value: 'com.android.settings' }] });
    const resolution = await resolveByVision(context, state, plan);
    expect(resolution.kind).toBe('unresolved');
    expect(resolution.kind === 'unresolved' && resolution.note).toMatch(/^vision located the target but the commitment is inadmissible: launching "com.android.settings"/);
  });

  it('without vision counts the gate reason and asks nobody', async () => {
    const vision = visionPicking('Create contact');
    const { context, state } = await phaseFixture(contacts, { models: { vision }, visionAllowed: false });
    const plan = planReplySchema.parse({ intent: 'Open the editor', lookFor: 'the plus button' });
    expect(await resolveByVision(context, state, plan)).toEqual({ kind: 'unresolved', note: 'target not identifiable without vision' });
    expect(vision.calls).toHaveLength(0);
    expect(state.gateReasons).toEqual({ 'unresolved-target': 1 });
  });
});
