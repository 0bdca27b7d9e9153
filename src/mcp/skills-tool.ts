import { matchSkill } from '../skills/match-skill.js';
import type { Skill } from '../skills/skill-schema.js';
import type { McpDeviceSession } from './mcp-device-session.js';

/** The `skills` tool's input (`skillsInputShape`). */
export interface SkillsToolInput {
  readonly action: 'list' | 'match' | 'run';
  readonly instruction?: string | undefined;
}

type SkillsData = {
  skills?: { name: string; app: string; template: string; parameters: string[]; steps: number }[];
  match?: { skill?: string; reason: string; arguments?: Record<string, string> };
  run?: { outcome: 'completed' | 'handed-over' | 'no-match'; skill?: string; reason: string; steps: number; answer?: string };
};

/**
 * Lists the skills, matches an instruction to one on the current screen (no model: the
 * template word for word, the precondition on the screen), or runs the match through the
 * loop's verified replay on the session's device. A problem (no instruction, no skills)
 * comes back as text.
 */
export async function skillsTool(input: SkillsToolInput, session: McpDeviceSession, skills: readonly Skill[]): Promise<{ text: string; data: SkillsData } | { problem: string }> {
  if (input.action === 'list') {
    const listed = skills.map((skill) => ({ name: skill.name, app: skill.app, template: skill.template, parameters: Object.keys(skill.parameters), steps: skill.steps.length }));
    const text = listed.length === 0 ? 'no skills (start the server with --skills <dir>; `senseact skills induce` writes them)' : listed.map((skill) => `${skill.name} (${skill.app}): ${skill.template}`).join('\n');
    return { text: `${text}\n`, data: { skills: listed } };
  }
  const instruction = input.instruction?.trim() ?? '';
  if (instruction === '') return { problem: `skills ${input.action}: give "instruction", the words a skill template must fit` };
  if (input.action === 'match') {
    const screen = await session.observe();
    const tree = session.lastTree();
    const matched = matchSkill(skills, instruction, { app: screen.app, ...(tree ? { screen: tree } : {}) });
    if (matched.kind === 'none') return { text: `no match: ${matched.reason}\n`, data: { match: { reason: matched.reason } } };
    const args = Object.fromEntries(Object.entries(matched.match.bindings).map(([name, binding]) => [name, binding.value]));
    return { text: `match: ${matched.match.skill.name} ${JSON.stringify(args)}\n`, data: { match: { skill: matched.match.skill.name, reason: 'the template fits and the precondition holds', arguments: args } } };
  }
  const end = await session.runSkill(skills, instruction);
  const run = { outcome: end.outcome, reason: end.reason, steps: end.steps, ...(end.skill === undefined ? {} : { skill: end.skill }), ...(end.answer === undefined ? {} : { answer: end.answer }) };
  return { text: `${end.outcome}${end.skill ? ` ${end.skill}` : ''}: ${end.reason} (${end.steps} steps verified)\n`, data: { run } };
}
