import { describe, expect, it } from 'vitest';
import { mergeRun } from '../../../src/skills/induce-skills.js';
import type { LiftedRun } from '../../../src/skills/lift-run.js';
import { bindTemplate, matchSkill } from '../../../src/skills/match-skill.js';
import { skillSchema, type Skill, type SkillStep } from '../../../src/skills/skill-schema.js';
import { skillProblems } from '../../../src/skills/skill-library.js';
import { parseHierarchy } from '../../../src/ui/parse-hierarchy.js';

const step = (intent: string, target: string): SkillStep => ({ intent, actions: [{ unit: 'click', target }] });

function skill(name: string, template: string, parameters: Skill['parameters'] = {}, steps: SkillStep[] = [step('Open it', 'text="Open"')]): Skill {
  return skillSchema.parse({ name, app: 'com.android.settings', template, parameters, precondition: 'package = "com.android.settings"', steps });
}

const settingsScreen = parseHierarchy('<hierarchy rotation="0"><node index="0" text="Settings" resource-id="" class="android.widget.TextView" package="com.android.settings" content-desc="" checkable="false" checked="false" clickable="false" enabled="true" focusable="false" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[0,0][1080,200]" /></hierarchy>', { packageName: 'com.android.settings', activity: '.Settings' });

describe('matching an instruction to a skill without a model', () => {
  const alarm = skill('alarm', 'Set an alarm for {time} with the label "{text}"', { time: { type: 'time', example: '3PM' }, text: { type: 'text', example: 'meeting' } });

  it('binds typed slots from the instruction (case and spacing aside)', () => {
    expect(bindTemplate(alarm, 'set an alarm  for 6:45 AM with the label "gym".')).toEqual({ bindings: { time: { type: 'time', value: '6:45 AM' }, text: { type: 'text', value: 'gym' } } });
  });

  it('refuses a slot value of the wrong type and a partial fit', () => {
    expect(bindTemplate(alarm, 'Set an alarm for noon with the label "gym"')).toHaveProperty('problem');
    expect(bindTemplate(alarm, 'Set an alarm for 3PM')).toHaveProperty('problem');
    expect(bindTemplate(alarm, 'Set an alarm for 25PM with the label "gym"')).toHaveProperty('problem');
  });

  it('prefers the more specific template, and refuses a tie', () => {
    const general = skill('turn-off', 'Turn off {option}', { option: { type: 'option', example: 'Ring vibration' } });
    const exact = skill('wifi-off', 'Turn off Wi-Fi');
    const result = matchSkill([general, exact], 'Turn off Wi-Fi');
    expect(result.kind === 'match' && result.match.skill.name).toBe('wifi-off');
    const twin = skill('turn-off-2', 'Turn off {option}', { option: { type: 'option', example: 'Bluetooth' } });
    const tie = matchSkill([general, twin], 'Turn off Bluetooth');
    expect(tie.kind).toBe('none');
    expect(tie.kind === 'none' && tie.reason).toContain('ambiguous');
  });

  it('checks the precondition on the start screen', () => {
    const wifi = skill('wifi-off', 'Turn off Wi-Fi');
    expect(matchSkill([wifi], 'Turn off Wi-Fi', { screen: settingsScreen }).kind).toBe('match');
    const elsewhere = parseHierarchy('<hierarchy rotation="0"><node index="0" text="Alarm" resource-id="" class="android.widget.TextView" package="com.google.android.deskclock" content-desc="" checkable="false" checked="false" clickable="false" enabled="true" focusable="false" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[0,0][1080,200]" /></hierarchy>', { packageName: 'com.google.android.deskclock', activity: '.DeskClock' });
    const result = matchSkill([wifi], 'Turn off Wi-Fi', { screen: elsewhere });
    expect(result.kind).toBe('none');
    expect(result.kind === 'none' && result.reason).toContain('precondition');
  });

  it('binds a password slot to the whole token the instruction gives, and refuses one a full stop may belong to', () => {
    const join = skill('join', 'Join {option} with the password {password}', { option: { type: 'option', example: 'CafeNet' }, password: { type: 'password', example: '[password]' } });
    expect(bindTemplate(join, 'Join CafeNet with the password p@ss.w0rd-"x"')).toEqual({ bindings: { option: { type: 'option', value: 'CafeNet' }, password: { type: 'password', value: 'p@ss.w0rd-"x"' } } });
    expect(bindTemplate(join, 'Join CafeNet with the password two words')).toHaveProperty('problem');
    expect(bindTemplate(join, 'Join CafeNet with the password secret99.')).toEqual({ problem: 'the password ends the instruction before a ".": it may be part of the password' });
    // The recorded instruction ended in a full stop after the password: the stop is the sentence's.
    const stopped = skill('join-stop', 'Join {option} with the password {password}.', join.parameters);
    expect(bindTemplate(stopped, 'Join CafeNet with the password secret99.')).toMatchObject({ bindings: { password: { value: 'secret99' } } });
  });
});

describe('folding runs into one skill', () => {
  const base = skill('flow', 'Do it', {}, [step('Open A', 'text="A"'), step('Open B', 'text="B"'), step('Save', 'text="Save"')]);
  const lifted = (steps: SkillStep[], source: string): LiftedRun => ({ app: base.app, template: base.template, parameters: {}, precondition: base.precondition, steps, source, notes: [] });

  it('keeps shared steps, guards a step only one run has, and branches where the runs part', () => {
    const withDialog = mergeRun(base, lifted([step('Open A', 'text="A"'), step('Dismiss', 'text="Not now"'), step('Open B', 'text="B"'), step('Save', 'text="Save"')], 'run-2'));
    expect(withDialog?.steps[1]).toEqual({ ...step('Dismiss', 'text="Not now"'), when: 'exists(text="Not now")' });
    expect(withDialog?.steps).toHaveLength(4);
    const recovered = mergeRun(base, lifted([step('Open A', 'text="A"'), step('Open B', 'id="b_button"'), step('Save', 'text="Save"')], 'run-3'));
    expect(recovered?.steps[1]).toEqual({ branches: [{ when: 'exists(text="B")', steps: [step('Open B', 'text="B"')] }, { when: 'exists(id="b_button")', steps: [step('Open B', 'id="b_button"')], note: 'from run-3' }] });
    expect(recovered?.sources).toEqual(['run-3']);
  });

  it('keeps the model-verifier mark of a shared step when either run needed it', () => {
    const marked = mergeRun(base, lifted([step('Open A', 'text="A"'), { ...step('Open B', 'text="B"'), verifier: 'model' }, step('Save', 'text="Save"')], 'run-4'));
    expect(marked?.steps[1]).toEqual({ ...step('Open B', 'text="B"'), verifier: 'model' });
    expect(marked?.steps[0]).toEqual(step('Open A', 'text="A"'));
  });

  it('finds placeholders no parameter fills', () => {
    const broken = skill('broken', 'Do it', {}, [step('Open {thing}', 'text="{thing}"')]);
    expect(skillProblems(broken).join('\n')).toContain('{thing} names no parameter');
    expect(skillProblems(base)).toEqual([]);
  });

  it('refuses a password parameter whose example is not the placeholder (a skill file never holds a password)', () => {
    const leaky = skill('join', 'Join with the password {password}', { password: { type: 'password', example: 'hunter2-secret' } });
    expect(skillProblems(leaky).join('\n')).toContain('parameters.password.example: a password parameter\'s example must be "[password]"');
    expect(skillProblems(skill('join', 'Join with the password {password}', { password: { type: 'password', example: '[password]' } }))).toEqual([]);
  });
});
