// The meta-plan phase of the loop (planning/meta-plan-phase.ts) on the simulator with a
// scripted planner: when a meta-plan is asked for and when not, how its sub-tasks are
// checked on the screen, claimed by the planner's word, and how they refuse FINISH.
import { describe, expect, it } from 'vitest';
import { appHintsFor, claimSubtasks, planMetaIfDue, refusalsExhausted, refuseFinish, refusalsBeforeReplan, trackProgress } from '../../../src/agent/planning/meta-plan-phase.js';
import { maxMetaPlans } from '../../../src/agent/planning/meta-plan-progress.js';
import type { PlanningOptions } from '../../../src/agent/planning/planning-options.js';
import type { SenseActContext } from '../../../src/agent/loop/senseact-state.js';
import { ScriptedLanguageModel } from '../../../src/model/scripted-language-model.js';
import { phaseFixture, suiteTask, tapAndDecide, type FixtureModels, type PhaseFixture } from './senseact-fixture.js';

const settings = suiteTask('settings-dark-theme');

/** Open Display ("Dark theme" shows only there), then the switch. */
const subtasks = [
  { name: 'Open Display', done: 'exists(text="Dark theme")' },
  { name: 'Turn dark theme on', done: 'checked(is=switch, near(text~"Dark theme"))' },
];

function metaPlanner(replies: readonly unknown[] = [{ subtasks }]): ScriptedLanguageModel {
  return new ScriptedLanguageModel({ replies: replies.map((reply) => JSON.stringify(reply)) });
}

/** The fixture with planning options on its context. */
async function withPlanning(planning: PlanningOptions | undefined, models: FixtureModels = {}, feedback = true): Promise<PhaseFixture & { context: SenseActContext }> {
  const fixture = await phaseFixture(settings, { models, feedback });
  return { ...fixture, context: { ...fixture.context, ...(planning ? { planning } : {}) } };
}

describe('planMetaIfDue', () => {
  it('asks for a meta-plan at the start of the task, checks it on the screen at once and traces it', async () => {
    const planner = metaPlanner();
    const { context, state, events } = await withPlanning({ metaPlan: true }, { planner });
    await planMetaIfDue(context, state);
    expect(planner.calls).toHaveLength(1);
    expect(state.metaPlan?.status).toEqual(['pending', 'pending']);
    expect(state.planning).toMatchObject({ metaPlans: 1, metaPlanCalls: 1, subtasks: 2, subtasksChecked: 0 });
    expect(state.planning.metaPlanTokens).toBeGreaterThan(0);
    const traced = events().filter((event) => event.type === 'meta-plan-end');
    expect(traced.map((event) => [event['reason'], event['progress']])).toEqual([['start of the task', ['pending', 'pending']]]);
    // The plan stands: no second call while nothing says it is exhausted.
    await planMetaIfDue(context, state);
    expect(planner.calls).toHaveLength(1);
  });

  it('negative control: with meta-plans off nothing is asked (the planner has no reply to give)', async () => {
    const planner = metaPlanner([]);
    const { context, state, events } = await withPlanning(undefined, { planner });
    await planMetaIfDue(context, state);
    const off = await withPlanning({ metaPlan: false }, { planner });
    await planMetaIfDue(off.context, off.state);
    expect(planner.calls).toHaveLength(0);
    expect(state.metaPlan).toBeUndefined();
    expect(events().some((event) => event.type === 'meta-plan-end')).toBe(false);
  });

  it('asks for a new plan after FINISH was refused twice in a row, with the plan so far and why; none past the limit', async () => {
    const planner = metaPlanner([{ subtasks }, { subtasks: [subtasks[1]] }]);
    const { context, state } = await withPlanning({ metaPlan: true }, { planner });
    await planMetaIfDue(context, state);
    state.finishRefusedInARow = refusalsBeforeReplan;
    await planMetaIfDue(context, state);
    expect(planner.calls).toHaveLength(2);
    const prompt = planner.calls[1]!.request.messages.map((message) => message.content).join('\n');
    expect(prompt).toContain(`A new plan is needed: FINISH was refused ${refusalsBeforeReplan} times in a row`);
    expect(prompt).toContain('1. · Open Display');
    expect(state.finishRefusedInARow).toBe(0);
    expect(state.metaPlan?.subtasks.map((subtask) => subtask.name)).toEqual(['Turn dark theme on']);
    // At the limit of meta-plans, refusals no longer bring a new one.
    state.planning.metaPlans = maxMetaPlans;
    state.finishRefusedInARow = refusalsBeforeReplan;
    await planMetaIfDue(context, state);
    expect(planner.calls).toHaveLength(2);
    expect(refusalsExhausted(context, state)).toBe(true);
  });
});

describe('trackProgress, refuseFinish and claimSubtasks', () => {
  it('checks a sub-task once the screen shows its evidence after an intent, and traces the vector', async () => {
    const fixture = await withPlanning({ metaPlan: true }, { planner: metaPlanner() });
    const { context, state, events } = fixture;
    await planMetaIfDue(context, state);
    const before = state.screen.perception.tree;
    const { judgement } = await tapAndDecide(fixture, 'Display');
    trackProgress(context, state, { before, delta: judgement.delta });
    expect(state.metaPlan?.status).toEqual(['checked', 'pending']);
    expect(state.planning.subtasksChecked).toBe(1);
    expect(events().filter((event) => event.type === 'progress-end').map((event) => event['checked'])).toEqual([[1]]);
  });

  it('negative control: on the start screen nothing is checked and nothing is traced', async () => {
    const { context, state, events } = await withPlanning({ metaPlan: true }, { planner: metaPlanner() });
    await planMetaIfDue(context, state);
    trackProgress(context, state);
    expect(state.metaPlan?.status).toEqual(['pending', 'pending']);
    expect(events().some((event) => event.type === 'progress-end')).toBe(false);
  });

  it('refuses FINISH while a checked sub-task has not held, counting and tracing it; lets it through without a meta-plan or feedback', async () => {
    const { context, state, events } = await withPlanning({ metaPlan: true }, { planner: metaPlanner() });
    await planMetaIfDue(context, state);
    expect(refuseFinish(context, state)).toMatch(/^FINISH refused: sub-task 1 "Open Display" is not done/);
    expect(state.planning.finishRefusals).toBe(1);
    expect(events().filter((event) => event.type === 'finish-refused')).toHaveLength(1);
    // Without feedback (open-loop) nothing is checked.
    expect(refuseFinish({ ...context, feedback: false }, state)).toBeUndefined();
    const none = await withPlanning(undefined);
    expect(refuseFinish(none.context, none.state)).toBeUndefined();
    expect(none.state.planning.finishRefusals).toBe(0);
  });

  it('marks the sub-tasks the planner names as claimed and traces it; an empty claim changes nothing', async () => {
    const { context, state, events } = await withPlanning({ metaPlan: true }, { planner: metaPlanner() });
    await planMetaIfDue(context, state);
    claimSubtasks(context, state, []);
    claimSubtasks(context, state, undefined);
    expect(events().some((event) => event.type === 'progress-end')).toBe(false);
    claimSubtasks(context, state, [2]);
    expect(state.metaPlan?.status).toEqual(['pending', 'claimed']);
    expect(state.planning.subtasksClaimed).toBe(1);
    expect(events().filter((event) => event.type === 'progress-end').map((event) => event['claimed'])).toEqual([[2]]);
  });
});

describe('appHintsFor', () => {
  it('gives the app memory\'s hints for the screen, counted and traced; none without a source', async () => {
    const asked: string[] = [];
    const appHints = {
      hints: (query: { packageName: string; scope: string; instruction: string }, budget: number) => {
        asked.push(`${query.packageName} ${query.instruction} ${budget}`);
        return { app: query.packageName, text: 'Display holds Dark theme', tokens: 6, lines: 1 };
      },
    };
    const { context, state, events } = await withPlanning({ appHints, hintTokens: 50 });
    expect(appHintsFor(context, state)).toBe('Display holds Dark theme');
    expect(asked).toEqual(['com.android.settings Turn my phone to Dark theme 50']);
    expect(state.planning).toMatchObject({ memoryHints: 1, memoryTokens: 6 });
    expect(events().filter((event) => event.type === 'memory-hints-end')).toHaveLength(1);
    const none = await withPlanning({ metaPlan: true });
    expect(appHintsFor(none.context, none.state)).toBeUndefined();
    expect(none.state.planning.memoryHints).toBe(0);
  });
});
