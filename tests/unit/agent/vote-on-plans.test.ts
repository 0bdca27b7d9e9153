// Plan voting: majority over (units, arguments), ties broken by the expectation's
// specificity, the extra calls and tokens counted and traced.
import { describe, expect, it } from 'vitest';
import { planReplySchema } from '../../../src/agent/planning/plan-reply.js';
import { commitmentKey, expectationSpecificity, samplePlan, voteOnPlans } from '../../../src/agent/planning/vote-on-plans.js';
import { plannerMessages } from '../../../src/agent/prompts/agent-prompts.js';
import { ScriptedLanguageModel } from '../../../src/model/scripted-language-model.js';
import { phaseFixture, suiteTask, unitIdIn } from './senseact-fixture.js';

const plan = (value: unknown) => planReplySchema.parse(value);

describe('voteOnPlans', () => {
  it('picks the commitment most samples agree on, whatever their intents say', () => {
    const result = voteOnPlans([
      plan({ intent: 'Open Battery', commitment: [{ unit: 'n2' }] }),
      plan({ intent: 'Open Display', commitment: [{ unit: 'n1' }] }),
      plan({ intent: 'Go to display settings', commitment: [{ unit: 'n1' }] }),
    ]);
    expect(result.key).toBe('n1');
    expect(result.chosen.intent).toBe('Open Display');
    expect(result.tieBroken).toBe(false);
    expect(result.candidates.map((candidate) => [candidate.key, candidate.votes])).toEqual([['n1', 2], ['n2', 1]]);
  });

  it('counts arguments in the key: the same unit with another value is another vote', () => {
    expect(commitmentKey(plan({ intent: 'a', commitment: [{ unit: 'n1', value: 'x' }] }))).not.toBe(commitmentKey(plan({ intent: 'a', commitment: [{ unit: 'n1', value: 'y' }] })));
    expect(commitmentKey(plan({ intent: 'a', commitment: [{ unit: 'n1', checked: true }] }))).toBe('n1 checked=true');
    expect(commitmentKey(plan({ intent: 'done', finish: true }))).toBe('FINISH');
    // A skill call votes by its name and arguments: another argument is another vote.
    expect(commitmentKey(plan({ intent: 'a', skill: 's', arguments: [{ name: 'time', value: '5PM' }] }))).toBe('SKILL s time="5PM"');
    expect(commitmentKey(plan({ intent: 'b', skill: 's', arguments: [{ name: 'time', value: '5PM' }] }))).not.toBe(commitmentKey(plan({ intent: 'a', skill: 's', arguments: [{ name: 'time', value: '6PM' }] })));
  });

  it('breaks a tie by the more specific expectation (negative: without one, the first sampled wins)', () => {
    const vague = plan({ intent: 'Open Battery', expectation: 'screenChanged', commitment: [{ unit: 'n2' }] });
    const sharp = plan({ intent: 'Open Display', expectation: 'exists(text="Dark theme", is=switch)', commitment: [{ unit: 'n1' }] });
    expect(expectationSpecificity(sharp.expectation)).toBeGreaterThan(expectationSpecificity(vague.expectation));
    const tie = voteOnPlans([vague, sharp]);
    expect(tie.key).toBe('n1');
    expect(tie.tieBroken).toBe(true);
    const blank = voteOnPlans([plan({ intent: 'b', commitment: [{ unit: 'n2' }] }), plan({ intent: 'a', commitment: [{ unit: 'n1' }] })]);
    expect(blank.key).toBe('n2');
  });
});

describe('samplePlan', () => {
  const task = suiteTask('settings-dark-theme');

  it('with --vote 3 asks three samples at the vote temperature, commits to the majority and counts the two extra calls', async () => {
    const planner = new ScriptedLanguageModel({
      replies: (request, index) => JSON.stringify(index === 1
        ? { intent: 'Open Battery', commitment: [{ unit: unitIdIn(request, 'Battery') }] }
        : { intent: 'Open Display', expectation: 'exists(text="Dark theme")', commitment: [{ unit: unitIdIn(request, 'Display') }] }),
    });
    const { context, state, events } = await phaseFixture(task, { models: { planner } });
    const voting = { ...context, planning: { vote: { samples: 3, temperature: 0.9 } } };
    const messages = plannerMessages({ instruction: task.instruction, allowedPackages: task.allowedPackages, view: state.screen.perception.view, history: [], certificates: [] });
    const reply = await samplePlan(voting, state, messages);
    expect(reply.value.intent).toBe('Open Display');
    expect(planner.calls.map((call) => call.request.temperature)).toEqual([0.9, 0.9, 0.9]);
    expect(state.planning.voteExtraCalls).toBe(2);
    expect(state.planning.voteExtraTokens).toBeGreaterThan(0);
    expect(state.planning.voteSplits).toBe(1);
    const vote = events().find((event) => event.type === 'vote-end');
    expect(vote).toMatchObject({ samples: 3, extraCalls: 2, tieBroken: false });
  });

  it('without --vote asks once, at the configured temperature, and counts nothing', async () => {
    const planner = new ScriptedLanguageModel({ replies: (request) => JSON.stringify({ intent: 'Open Display', commitment: [{ unit: unitIdIn(request, 'Display') }] }) });
    const { context, state, events } = await phaseFixture(task, { models: { planner } });
    const messages = plannerMessages({ instruction: task.instruction, allowedPackages: task.allowedPackages, view: state.screen.perception.view, history: [], certificates: [] });
    await samplePlan(context, state, messages);
    expect(planner.calls).toHaveLength(1);
    expect(planner.calls[0]!.request.temperature).toBeUndefined();
    expect(state.planning.voteExtraCalls).toBe(0);
    expect(events().some((event) => event.type === 'vote-end')).toBe(false);
  });
});
