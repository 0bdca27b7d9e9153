import { describe, expect, it } from 'vitest';
import { planReplySchema } from '../../../src/agent/planning/plan-reply.js';
import { readPrompt } from '../../../src/agent/prompts/read-prompt.js';
import { plannerMessages } from '../../../src/agent/prompts/agent-prompts.js';
import { maxMenuSkills, menuSkills, readSkillMenu, renderSkillMenu } from '../../../src/agent/planning/skill-menu.js';
import { bindArguments } from '../../../src/skills/bind-arguments.js';
import type { Skill } from '../../../src/skills/skill-schema.js';

const clock = 'com.google.android.deskclock';

function skill(name: string, template: string, parameters: Skill['parameters'], app = clock): Skill {
  return { name, app, template, parameters, precondition: `package = "${app}"`, steps: [{ intent: 'x', actions: [{ unit: 'click', target: 'text="x"' }] }], sources: [], lifted: [] };
}

const alarm = skill('deskclock-set-alarm', 'Set an alarm for {time} with the label "{text}" using Clock.', { time: { type: 'time', example: '3PM' }, text: { type: 'text', example: 'meeting' } });
const wifi = skill('settings-wifi', 'Turn {option} Wi-Fi', { option: { type: 'option', example: 'off' } }, 'com.android.settings');

describe('the skill menu of the planner prompt', () => {
  it('lists the foreground app\'s skills, most words shared with the instruction first, and reads back what it wrote', () => {
    const others = Array.from({ length: 8 }, (_, index) => skill(`deskclock-other-${index}`, `Start timer number ${index}`, {}));
    const listed = menuSkills([wifi, ...others, alarm], clock, 'Set an alarm for 5PM with the label "gym" using Clock.');
    expect(listed).toHaveLength(maxMenuSkills);
    expect(listed[0]?.name).toBe('deskclock-set-alarm');
    expect(listed.some((candidate) => candidate.app !== clock)).toBe(false);
    const text = renderSkillMenu([alarm, others[0] as Skill]);
    expect(text.split('\n')[1]).toBe('- deskclock-set-alarm: Set an alarm for {time} with the label "{text}" using Clock. [time: time, e.g. 3PM; text: text, e.g. meeting]');
    const messages = plannerMessages({ instruction: 'Set an alarm', allowedPackages: [clock], view: 'app x', history: [], certificates: [], skills: text });
    expect(readPrompt(messages).skills).toEqual([
      { name: 'deskclock-set-alarm', template: alarm.template, parameters: alarm.parameters },
      { name: 'deskclock-other-0', template: 'Start timer number 0', parameters: {} },
    ]);
    expect(renderSkillMenu([])).toBe('');
    // Negative control: a prompt without the section lists nothing, even when the screen shows a line like one.
    expect(readPrompt(plannerMessages({ instruction: 'x', allowedPackages: [clock], view: '- a: b [none]', history: [], certificates: [] })).skills).toEqual([]);
    expect(readSkillMenu('no menu here')).toEqual([]);
  });

  it('the reply schema takes a skill call alone, and refuses one mixed with a commitment or arguments without a skill', () => {
    expect(planReplySchema.safeParse({ intent: 'Set it', skill: 'deskclock-set-alarm', arguments: [{ name: 'time', value: '5PM' }] }).success).toBe(true);
    const mixed = planReplySchema.safeParse({ intent: 'Set it', skill: 'deskclock-set-alarm', commitment: [{ unit: 'n1' }] });
    expect(mixed.success).toBe(false);
    expect(mixed.error?.issues.map((issue) => issue.message)).toContain('a skill call stands alone: give "skill" and "arguments" without commitment, lookFor or finish');
    expect(planReplySchema.safeParse({ intent: 'Set it', arguments: [{ name: 'time', value: '5PM' }], commitment: [{ unit: 'n1' }] }).error?.issues.map((issue) => issue.message)).toContain('"arguments" go with "skill": name the skill to run');
    // Without a skill, an empty commitment is still refused.
    expect(planReplySchema.safeParse({ intent: 'Set it' }).success).toBe(false);
  });

  it('binds arguments by the parameter types, naming what is wrong', () => {
    expect(bindArguments(alarm, { time: '5PM', text: 'gym' })).toEqual({ bindings: { time: { type: 'time', value: '5PM' }, text: { type: 'text', value: 'gym' } } });
    expect(bindArguments(alarm, { time: '5PM' })).toEqual({ problem: 'skill deskclock-set-alarm needs "text" in "arguments" (time: time, e.g. 3PM; text: text, e.g. meeting)' });
    expect(bindArguments(alarm, { time: '5PM', text: 'gym', day: 'Monday' })).toMatchObject({ problem: expect.stringContaining('has no parameter day') });
    expect(bindArguments(alarm, { time: 'noon', text: 'gym' })).toEqual({ problem: 'skill deskclock-set-alarm: "noon" is not a time for time (e.g. 3PM)' });
    expect(bindArguments(alarm, { time: '5PM', text: 'say "hi"' })).toMatchObject({ problem: expect.stringContaining('is not a text for text') });
  });
});
