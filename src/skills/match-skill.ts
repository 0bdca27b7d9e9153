import type { UiTree } from '../ui/ui-tree.js';
import { evaluatePredicate } from '../verify/evaluate-predicate.js';
import { safeParsePredicate } from '../verify/parse-predicate.js';
import { fillPlaceholders, parseTime, type Bindings } from './skill-parameters.js';
import type { ParameterType, Skill } from './skill-schema.js';

/** What each parameter type may look like inside an instruction. */
const slotPatterns: Readonly<Record<ParameterType, string>> = {
  time: String.raw`\d{1,2}(?::\d{2})?\s?[AaPp]\.?[Mm]\.?`,
  number: String.raw`\d+(?:[/.-]\d+)*`,
  text: String.raw`[^"“”']+?`,
  option: String.raw`[^"“”',.;:!?]+?`,
  // Whatever the instruction gives, up to the next space: a password is never split or trimmed.
  password: String.raw`\S+`,
};

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Collapses spacing and a closing full stop, so "Set an alarm  at 3PM." matches "Set an alarm at {time}". */
export function normaliseInstruction(text: string): string {
  return normalise(text);
}

function normalise(text: string): string {
  return text.trim().replace(/\s+/g, ' ').replace(/[.!]$/, '');
}

/** The regex of a template: literal parts word for word (any case, any spacing), slots by their type's pattern. */
function templateRegex(skill: Pick<Skill, 'template' | 'parameters'>): { regex: RegExp; names: string[] } | undefined {
  const names: string[] = [];
  let source = '';
  let last = 0;
  const template = normalise(skill.template);
  for (const match of template.matchAll(/\{([a-z][a-z0-9]*)\}/g)) {
    const name = match[1] ?? '';
    const parameter = skill.parameters[name];
    if (!parameter) return undefined;
    const literal = template.slice(last, match.index);
    // Two slots with nothing between them could split a value anywhere: such a template never matches.
    if (names.length > 0 && literal.trim() === '') return undefined;
    source += escapeRegex(literal).replace(/ /g, String.raw`\s+`);
    source += `(${slotPatterns[parameter.type]})`;
    names.push(name);
    last = (match.index ?? 0) + match[0].length;
  }
  source += escapeRegex(template.slice(last)).replace(/ /g, String.raw`\s+`);
  return { regex: new RegExp(`^${source}$`, 'i'), names };
}

/** The instruction's values for a skill's parameters, or why the template does not fit. */
export function bindTemplate(skill: Pick<Skill, 'template' | 'parameters'>, instruction: string): { bindings: Bindings } | { problem: string } {
  const compiled = templateRegex(skill);
  if (!compiled) return { problem: 'the template names an unknown parameter or has two slots side by side' };
  const match = compiled.regex.exec(normalise(instruction));
  if (!match) return { problem: 'the instruction does not fit the template' };
  // A full stop after a password that ends the instruction may be part of it: the template that ends in it without one cannot tell.
  const last = compiled.names.at(-1);
  if (last !== undefined && skill.parameters[last]?.type === 'password' && /\{[a-z][a-z0-9]*\}$/.test(normalise(skill.template)) && /[.!]$/.test(instruction.trim()) && !/[.!]$/.test(skill.template.trim())) {
    return { problem: `the password ends the instruction before a "${instruction.trim().slice(-1)}": it may be part of the password` };
  }
  const bindings: Record<string, { type: ParameterType; value: string }> = {};
  for (const [index, name] of compiled.names.entries()) {
    const value = (match[index + 1] ?? '').trim();
    const type = skill.parameters[name]?.type ?? 'text';
    if (value === '') return { problem: `parameter ${name} is empty` };
    if (type === 'time' && !parseTime(value)) return { problem: `"${value}" is not a time` };
    const earlier = bindings[name];
    if (earlier && earlier.value.toLowerCase() !== value.toLowerCase()) return { problem: `parameter ${name} is bound twice to different values` };
    bindings[name] = { type, value };
  }
  return { bindings };
}

/** A skill that fits an instruction and whose precondition holds on the start screen. */
export interface SkillMatch {
  readonly skill: Skill;
  readonly bindings: Bindings;
}

/** The verdict of matching: one skill, or none with why (nothing fits, or more than one does: never guess). */
export type SkillMatchResult =
  | { readonly kind: 'match'; readonly match: SkillMatch; readonly considered: readonly string[] }
  | { readonly kind: 'none'; readonly reason: string; readonly considered: readonly string[] };

/** Whether a predicate with placeholders holds on a screen once filled. */
export function holdsOn(text: string, bindings: Bindings, screen: UiTree): { holds: boolean; reason: string } {
  const filled = fillPlaceholders(text, bindings);
  if ('missing' in filled) return { holds: false, reason: `unfilled ${filled.missing.join(', ')}` };
  const parsed = safeParsePredicate(filled.text);
  if (!parsed.success) return { holds: false, reason: `invalid predicate: ${parsed.error.message}` };
  const outcome = evaluatePredicate(parsed.value, { after: screen });
  return { holds: outcome.outcome === 'pass', reason: outcome.reason };
}

/**
 * Matches an instruction to a skill without a model (NesyProAct): the skill's app is the
 * task's, its template fits the instruction with every slot's value of the slot's type,
 * and its precondition holds on the start screen (when one is given). Exactly one skill
 * must pass; two or more is ambiguous and no match, as is a partial fit. Never guesses.
 */
export function matchSkill(skills: readonly Skill[], instruction: string, options: { readonly app?: string; readonly screen?: UiTree } = {}): SkillMatchResult {
  const fits: SkillMatch[] = [];
  const considered: string[] = [];
  for (const skill of skills) {
    if (options.app !== undefined && skill.app !== options.app) continue;
    const bound = bindTemplate(skill, instruction);
    if ('problem' in bound) continue;
    if (options.screen) {
      const precondition = holdsOn(skill.precondition, bound.bindings, options.screen);
      if (!precondition.holds) {
        considered.push(`${skill.name}: precondition does not hold (${precondition.reason})`);
        continue;
      }
    }
    considered.push(`${skill.name}: fits`);
    fits.push({ skill, bindings: bound.bindings });
  }
  // A template with more literal words than every other fitting one is the more specific
  // procedure ("Turn off Wi-Fi" over "Turn off {option}"): that is no guess. A tie is.
  const specificity = (fit: SkillMatch): number => normalise(fit.skill.template).replace(/\{[a-z0-9]+\}/g, '').length;
  const best = Math.max(...fits.map(specificity));
  const most = fits.filter((fit) => specificity(fit) === best);
  const only = most[0];
  if (most.length === 1 && only) return { kind: 'match', match: only, considered: fits.length > 1 ? [...considered, `${only.skill.name}: the most specific of ${fits.length}`] : considered };
  if (most.length > 1) return { kind: 'none', reason: `ambiguous: ${most.length} skills fit equally (${most.map((fit) => fit.skill.name).join(', ')})`, considered };
  return { kind: 'none', reason: considered.length > 0 ? considered.join('; ') : 'no skill template fits the instruction', considered };
}
