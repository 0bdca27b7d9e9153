import { bindTemplate } from './match-skill.js';
import type { Bindings } from './skill-parameters.js';
import type { Skill } from './skill-schema.js';

/**
 * Binds the arguments a planner gave a skill it called by name: every parameter needs
 * one, no other name is allowed, and each value must read as its type where the template
 * puts it (the template filled with the arguments must bind back to the same values, by
 * the same rules as matching an instruction). Returns why not, naming the parameter.
 */
export function bindArguments(skill: Pick<Skill, 'name' | 'template' | 'parameters'>, args: Readonly<Record<string, string>>): { bindings: Bindings } | { problem: string } {
  const names = Object.keys(skill.parameters);
  const unknown = Object.keys(args).filter((name) => !names.includes(name));
  if (unknown.length > 0) return { problem: `skill ${skill.name} has no parameter ${unknown.join(', ')}; its parameters: ${describeParameters(skill)}` };
  const missing = names.filter((name) => (args[name] ?? '').trim() === '');
  if (missing.length > 0) return { problem: `skill ${skill.name} needs ${missing.map((name) => `"${name}"`).join(', ')} in "arguments" (${describeParameters(skill)})` };
  for (const name of names) {
    const parameter = skill.parameters[name];
    const alone = parameter === undefined ? undefined : bindTemplate({ template: `{${name}}`, parameters: { [name]: parameter } }, (args[name] ?? '').trim());
    if (alone !== undefined && 'problem' in alone) return { problem: `skill ${skill.name}: "${args[name] ?? ''}" is not a ${parameter?.type ?? 'value'} for ${name} (e.g. ${parameter?.example ?? ''})` };
  }
  const filled = skill.template.replace(/\{([a-z][a-z0-9]*)\}/g, (whole, name: string) => (args[name] ?? whole).trim());
  const bound = bindTemplate(skill, filled);
  if ('problem' in bound) return { problem: `skill ${skill.name}: the arguments do not fit "${skill.template}": ${bound.problem}` };
  for (const name of names) {
    if (bound.bindings[name]?.value.toLowerCase() !== (args[name] ?? '').trim().toLowerCase()) {
      return { problem: `skill ${skill.name}: "${args[name] ?? ''}" is not a ${skill.parameters[name]?.type ?? 'value'} for ${name}` };
    }
  }
  return bound;
}

/** `time: time, e.g. 3PM; text: text, e.g. meeting`. */
export function describeParameters(skill: Pick<Skill, 'parameters'>): string {
  const entries = Object.entries(skill.parameters);
  if (entries.length === 0) return 'none';
  return entries.map(([name, parameter]) => `${name}: ${parameter.type}, e.g. ${parameter.example}`).join('; ');
}
