import { bindArguments, describeParameters } from '../../skills/bind-arguments.js';
import { holdsOn } from '../../skills/match-skill.js';
import type { Bindings } from '../../skills/skill-parameters.js';
import { parameterTypeSchema, type ParameterType, type Skill } from '../../skills/skill-schema.js';
import type { UiTree } from '../../ui/ui-tree.js';
import { escapeFenceTags } from '../prompts/screen-fence.js';

/** How many skills one planner prompt lists at most (each line costs tokens on every call). */
export const maxMenuSkills = 6;

/** The head of the prompt's skills section; the lines after it are `- name: template [parameters]`. */
export const skillMenuHead = 'Skills (run one by name: reply {"intent":…,"skill":name,"arguments":[{"name":parameter,"value":…}]}; it is replayed and verified without you):';

/** One menu line, as the prompt shows it and `readSkillMenu` reads it back. */
const menuLinePattern = /^- ([^:\s]+): (.*) \[(.*)\]$/;

function words(text: string): Set<string> {
  return new Set(text.toLowerCase().split(/[^a-z0-9]+/).filter((word) => word.length > 2));
}

/**
 * The skills a planner may call on this screen: those of the app in the foreground, the
 * ones sharing most words with the instruction first (ties by name), at most
 * {@link maxMenuSkills}.
 */
export function menuSkills(skills: readonly Skill[], packageName: string, instruction: string): Skill[] {
  const wanted = words(instruction);
  const overlap = (skill: Skill): number => [...words(skill.template)].filter((word) => wanted.has(word)).length;
  return skills
    .filter((skill) => skill.app === packageName)
    .map((skill) => ({ skill, score: overlap(skill) }))
    .sort((left, right) => right.score - left.score || left.skill.name.localeCompare(right.skill.name))
    .slice(0, maxMenuSkills)
    .map((entry) => entry.skill);
}

/** The prompt's skills section for these skills ('' for none): name, template, typed parameters with an example. */
export function renderSkillMenu(skills: readonly Skill[]): string {
  if (skills.length === 0) return '';
  const lines = skills.map((skill) => `- ${skill.name}: ${skill.template} [${describeParameters(skill)}]`);
  return escapeFenceTags([skillMenuHead, ...lines].join('\n'));
}

/** A skill as a menu line names it. */
export interface MenuSkill {
  readonly name: string;
  readonly template: string;
  readonly parameters: Skill['parameters'];
}

/** Reads a prompt's skills section back (what a model sees of the skills: the oracle's view). */
export function readSkillMenu(promptHead: string): MenuSkill[] {
  const start = promptHead.indexOf(`${skillMenuHead}\n`);
  if (start < 0) return [];
  const read: MenuSkill[] = [];
  for (const line of promptHead.slice(start + skillMenuHead.length + 1).split('\n')) {
    const match = menuLinePattern.exec(line);
    if (!match) break;
    const parameters: Record<string, { type: ParameterType; example: string }> = {};
    for (const part of (match[3] ?? '').split('; ')) {
      const parameter = /^([a-z][a-z0-9]*): ([a-z]+), e\.g\. (.*)$/.exec(part);
      const type = parameterTypeSchema.safeParse(parameter?.[2]);
      if (parameter && type.success) parameters[parameter[1] ?? ''] = { type: type.data, example: parameter[3] ?? '' };
    }
    read.push({ name: match[1] ?? '', template: match[2] ?? '', parameters });
  }
  return read;
}

/** A skill call the loop can run: the skill and its bound arguments. */
export interface SkillCall {
  readonly skill: Skill;
  readonly bindings: Bindings;
}

/**
 * Checks a planner's call of a skill by name against the skills the prompt listed: the
 * name must be one of them, the arguments must bind (`bindArguments`), and the skill's
 * precondition must hold on the current screen. The reason says what to fix; nothing is run.
 */
export function resolveSkillCall(listed: readonly Skill[], name: string, pairs: readonly { readonly name: string; readonly value: string }[], screen: UiTree): SkillCall | { readonly problem: string } {
  const skill = listed.find((candidate) => candidate.name === name);
  if (!skill) {
    return { problem: listed.length === 0 ? `no skill "${name}": none is listed for this app; plan a commitment instead` : `no skill "${name}" here; the skills listed are ${listed.map((candidate) => candidate.name).join(', ')}` };
  }
  const twice = pairs.map((pair) => pair.name).filter((parameter, index, names) => names.indexOf(parameter) !== index);
  if (twice.length > 0) return { problem: `skill ${name}: ${[...new Set(twice)].join(', ')} given twice in "arguments"; give each parameter once` };
  const bound = bindArguments(skill, Object.fromEntries(pairs.map((pair) => [pair.name, pair.value])));
  if ('problem' in bound) return bound;
  const precondition = holdsOn(skill.precondition, bound.bindings, screen);
  if (!precondition.holds) return { problem: `skill ${name} cannot start on this screen: its precondition ${skill.precondition} does not hold (${precondition.reason})` };
  return { skill, bindings: bound.bindings };
}
