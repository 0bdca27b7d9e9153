// The skill replay phase of the loop (skill-replay/run-skill.ts) on the simulator with a
// hand-written skill and a planner that must not be called: a skill that fits replays with
// every step verified; one that does not fit, or whose step cannot be grounded on the live
// screen, hands over (or never starts) without acting beyond its verified steps.
import { describe, expect, it } from 'vitest';
import { playCalledSkill, runSkill, skillNotePrefix } from '../../../src/agent/skill-replay/run-skill.js';
import { ScriptedLanguageModel } from '../../../src/model/scripted-language-model.js';
import { skillSchema, type Skill } from '../../../src/skills/skill-schema.js';
import { phaseFixture, suiteTask, type PhaseFixture } from './senseact-fixture.js';

const settings = suiteTask('settings-dark-theme');

function darkThemeSkill(changes: Partial<Record<keyof Skill, unknown>> = {}): Skill {
  return skillSchema.parse({
    name: 'settings-dark-theme',
    app: 'com.android.settings',
    template: 'Turn my phone to Dark theme',
    precondition: 'exists(text="Display")',
    steps: [
      { intent: 'Open Display', actions: [{ unit: 'click', target: 'text="Display"' }], expect: 'exists(text="Dark theme")' },
      { intent: 'Switch dark theme on', actions: [{ unit: 'toggle', target: 'is=switch, near(text~"Dark theme")', checked: true }] },
    ],
    ...changes,
  });
}

/** A fixture whose planner fails the test if called: the replay asks no model. */
async function fixture(): Promise<PhaseFixture & { planner: ScriptedLanguageModel }> {
  const planner = new ScriptedLanguageModel({ replies: [] });
  return { ...(await phaseFixture(settings, { models: { planner } })), planner };
}

function darkTheme(phase: PhaseFixture): unknown {
  return (phase.simulator.appState('com.android.settings') as { display: { darkTheme: boolean } }).display.darkTheme;
}

describe('runSkill', () => {
  it('replays a skill that fits the instruction and the start screen, every step verified, without a model', async () => {
    const phase = await fixture();
    const end = await runSkill(phase.context, phase.state, [darkThemeSkill()]);
    expect(end).toEqual({ outcome: 'completed', skill: 'settings-dark-theme', reason: 'all 2 steps verified', steps: 2, rounds: 2 });
    expect(darkTheme(phase)).toBe(true);
    expect(phase.planner.calls).toHaveLength(0);
    expect(phase.state.history.map((entry) => [entry.intent, entry.outcome])).toEqual([['Open Display', 'pass'], ['Switch dark theme on', 'pass']]);
    expect(phase.events().filter((event) => event.type === 'skill-end').map((event) => event['outcome'])).toEqual(['completed']);
  });

  it('negative control: a skill for another instruction, or whose precondition does not hold, is no match and nothing acts', async () => {
    for (const skill of [darkThemeSkill({ template: 'Turn my phone to Light theme' }), darkThemeSkill({ precondition: 'exists(text="Dark theme")' })]) {
      const phase = await fixture();
      const end = await runSkill(phase.context, phase.state, [skill]);
      expect(end).toMatchObject({ outcome: 'no-match', steps: 0, rounds: 0 });
      expect(phase.state.steps).toBe(0);
      expect(phase.state.history).toEqual([]);
      expect(darkTheme(phase)).toBe(false);
    }
  });

  it('hands over at a step whose target is not on the live screen, its verified steps kept, the skill\'s progress in the history', async () => {
    const phase = await fixture();
    const skill = darkThemeSkill();
    const missing = darkThemeSkill({ steps: [skill.steps[0], { intent: 'Switch night mode on', actions: [{ unit: 'toggle', target: 'is=switch, near(text~"Night mode")', checked: true }] }] });
    const end = await runSkill(phase.context, phase.state, [missing]);
    expect(end).toMatchObject({ outcome: 'handed-over', steps: 1 });
    expect(end.reason).toMatch(/^step 2 "Switch night mode on": /);
    expect(darkTheme(phase)).toBe(false);
    const last = phase.state.history.at(-1);
    expect(last?.outcome).toBe('fail');
    expect(last?.note.startsWith(`${skillNotePrefix} settings-dark-theme step 2/2`)).toBe(true);
  });

  it('hands over when the postcondition does not hold after the last step', async () => {
    const phase = await fixture();
    const end = await runSkill(phase.context, phase.state, [darkThemeSkill({ postcondition: 'exists(text="Night mode")' })]);
    expect(end).toMatchObject({ outcome: 'handed-over', steps: 2, reason: 'the postcondition exists(text="Night mode") does not hold' });
  });

  it('plays a guarded step only when its guard holds on the live screen (negative control: skipped, the next step then misses its target)', async () => {
    const [open, toggle] = darkThemeSkill().steps;
    const guarded = (when: string) => darkThemeSkill({ steps: [{ ...open, when }, toggle] });
    const holds = await fixture();
    expect(await runSkill(holds.context, holds.state, [guarded('exists(text="Display")')])).toMatchObject({ outcome: 'completed', steps: 2 });
    const skipped = await fixture();
    const end = await runSkill(skipped.context, skipped.state, [guarded('exists(text="Rate this app")')]);
    expect(end).toMatchObject({ outcome: 'handed-over', steps: 0 });
    expect(end.reason).toMatch(/^step 2 "Switch dark theme on": /);
  });
});

describe('playCalledSkill', () => {
  it('adds a line saying the called skill completed; a hand-over adds none', async () => {
    const phase = await fixture();
    const end = await playCalledSkill(phase.context, phase.state, { skill: darkThemeSkill(), bindings: {} }, 4);
    expect(end.outcome).toBe('completed');
    expect(phase.state.history.at(-1)).toEqual({ intent: 'Replay skill settings-dark-theme', outcome: 'pass', note: `${skillNotePrefix} settings-dark-theme: all 2 steps verified` });
    expect(phase.events().filter((event) => event.type === 'step-start').map((event) => event.step)).toEqual([4, 5]);
    const other = await fixture();
    const handedOver = await playCalledSkill(other.context, other.state, { skill: darkThemeSkill({ postcondition: 'exists(text="Night mode")' }), bindings: {} }, 4);
    expect(handedOver.outcome).toBe('handed-over');
    expect(other.state.history.some((entry) => entry.intent === 'Replay skill settings-dark-theme' && entry.outcome === 'pass')).toBe(false);
  });
});
