// The verify-intent phase: the expectation over the whole commitment decides with the
// unit verdicts; an inconclusive verdict goes to the LLM verifier; the note says when the
// units took effect and only the expectation did not show.
import { describe, expect, it } from 'vitest';
import { unitsTookEffectNote } from '../../../src/agent/prompts/agent-prompts.js';
import { executeCommitment } from '../../../src/agent/loop/execute-commitment.js';
import { planReplySchema, type PlanReply } from '../../../src/agent/planning/plan-reply.js';
import { verifyCommittedIntent } from '../../../src/agent/loop/verify-committed-intent.js';
import { ScriptedLanguageModel } from '../../../src/model/scripted-language-model.js';
import { phaseFixture, suiteTask, unitLabelled, type FixtureModels } from './senseact-fixture.js';

const settings = suiteTask('settings-dark-theme');

/** Opens Display under `expectation` and verifies the intent. */
async function openDisplay(expectation: string, models: FixtureModels = {}) {
  const fixture = await phaseFixture(settings, { models });
  const display = unitLabelled(fixture.state, 'Display');
  const battery = unitLabelled(fixture.state, 'Battery');
  // Two units, so the expectation is the intent's alone (a one-unit commitment's is also the unit's).
  const plan: PlanReply = planReplySchema.parse({ intent: 'Open Display', expectation, commitment: [{ unit: display.id }, { unit: battery.id }] });
  const run = await executeCommitment(fixture.context, fixture.state, plan, plan.commitment, [display, battery]);
  return { ...fixture, run, judgement: await verifyCommittedIntent(fixture.context, plan, run) };
}

describe('verifyCommittedIntent', () => {
  it('passes when the units passed and the expectation became true; the note says what was left undone', async () => {
    const { judgement, events, run } = await openDisplay('exists(text="Dark theme")');
    expect(judgement).toMatchObject({ outcome: 'pass', by: 'contract', note: `ran click "Display"; ${run.unfinished}` });
    expect(run.unfinished).toMatch(/^stopped after 1 of 2 units/);
    expect(judgement.delta.label).toBe('new-page');
    expect(events().filter((event) => event.type === 'verify-end').at(-1)).toMatchObject({ outcome: 'pass', by: 'contract' });
  });

  it('fails when the expectation does not hold, saying which units ran and that they took effect', async () => {
    const { judgement } = await openDisplay('exists(text="Wallpaper colours")');
    expect(judgement.outcome).toBe('fail');
    expect(judgement.note.startsWith(`ran click "Display"; ${unitsTookEffectNote}; `)).toBe(true);
  });

  it('names the unit an id became, not the one the intent names (an id copied wrong shows in the history)', async () => {
    const fixture = await phaseFixture(settings);
    const battery = unitLabelled(fixture.state, 'Battery');
    const plan: PlanReply = planReplySchema.parse({ intent: 'Open Display', expectation: 'exists(text="Dark theme")', commitment: [{ unit: battery.id }] });
    const run = await executeCommitment(fixture.context, fixture.state, plan, plan.commitment, [battery]);
    const judgement = await verifyCommittedIntent(fixture.context, plan, run);
    expect(judgement.outcome).toBe('fail');
    expect(judgement.note).toMatch(/^ran click "Battery"; /);
    expect(judgement.note).not.toContain('Display"');
  });

  it('hands an inconclusive verdict to the LLM verifier, whose word is recorded as such', async () => {
    const verifier = new ScriptedLanguageModel({ replies: [JSON.stringify({ verdict: 'fail', reason: 'the switch I meant is off' })] });
    const { judgement } = await openDisplay('checked(is=switch)', { verifier });
    expect(verifier.calls).toHaveLength(1);
    expect(verifier.calls[0]!.request.messages.at(-1)!.content).toContain('Inconclusive because:');
    expect(judgement).toMatchObject({ outcome: 'fail', by: 'llm-verifier', reason: 'verifier: the switch I meant is off' });
  });
});
