import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { z } from 'zod';
import { parseYamlSafely } from '../util/parse-yaml-safely.js';
import { passwordPlaceholder } from '../util/redactor.js';
import { parseQuery, safeParsePredicate } from '../verify/parse-predicate.js';
import { PredicateParseError } from '../verify/predicate-parse-error.js';
import { fillPlaceholders, projections, type Bindings } from './skill-parameters.js';
import { SkillError } from './skill-error.js';
import { isBranchPoint, skillSchema, type Skill, type SkillStep } from './skill-schema.js';
import { asPathKindError } from '../util/path-kind-error.js';
import { findTraceFile } from '../trace/read-trace.js';

function safeParseQuery(text: string): { success: true } | { success: false; error: PredicateParseError } {
  try {
    parseQuery(text);
    return { success: true };
  } catch (error) {
    if (PredicateParseError.isInstance(error)) return { success: false, error };
    throw error;
  }
}

/** The file a skill is stored in: `<dir>/<name>.yaml`. */
export function skillFile(dir: string, name: string): string {
  return join(dir, `${name}.yaml`);
}

function exampleBindings(skill: Skill): Bindings {
  return Object.fromEntries(Object.entries(skill.parameters).map(([name, parameter]) => [name, { type: parameter.type, value: parameter.example }]));
}

/** Every step of a skill, branches included, with where it sits (`steps[2].branches[1].steps[0]`). */
export function allSteps(skill: Skill): { step: SkillStep; path: string }[] {
  const steps: { step: SkillStep; path: string }[] = [];
  skill.steps.forEach((entry, index) => {
    if (isBranchPoint(entry)) entry.branches.forEach((branch, b) => branch.steps.forEach((step, s) => steps.push({ step, path: `steps[${index}].branches[${b}].steps[${s}]` })));
    else steps.push({ step: entry, path: `steps[${index}]` });
  });
  return steps;
}

/**
 * What is wrong with a skill beyond its schema: placeholders no parameter fills, and
 * targets or predicates that do not parse once filled with the parameters' examples.
 */
export function skillProblems(skill: Skill): string[] {
  const bindings = exampleBindings(skill);
  const problems: string[] = [];
  const check = (text: string, where: string, kind: 'query' | 'predicate'): void => {
    const filled = fillPlaceholders(text, bindings);
    if ('missing' in filled) {
      problems.push(`${where}: ${filled.missing.join(', ')} names no parameter (parameters: ${Object.keys(skill.parameters).join(', ') || 'none'})`);
      return;
    }
    const parsed = kind === 'query' ? safeParseQuery(filled.text) : safeParsePredicate(filled.text);
    if (!parsed.success) problems.push(`${where}: not a valid ${kind}: ${parsed.error.message}`);
  };
  check(skill.precondition, 'precondition', 'predicate');
  if (skill.postcondition !== undefined) check(skill.postcondition, 'postcondition', 'predicate');
  for (const [name, parameter] of Object.entries(skill.parameters)) {
    if (parameter.type === 'time' && Object.keys(projections('time', parameter.example)).length === 1) problems.push(`parameters.${name}.example: "${parameter.example}" is not a time such as 3PM or 6:45AM`);
    // A skill file never holds a password: the example of a password parameter is the trace's placeholder.
    if (parameter.type === 'password' && parameter.example !== passwordPlaceholder) problems.push(`parameters.${name}.example: a password parameter's example must be "${passwordPlaceholder}" (a skill file never holds a password)`);
  }
  if (skill.answer !== undefined) {
    check(skill.answer.target, 'answer.target', 'query');
    if (skill.answer.from === 'text' && skill.answer.row !== undefined) check(skill.answer.row, 'answer.row', 'query');
  }
  skill.steps.forEach((entry, index) => {
    if (isBranchPoint(entry)) entry.branches.forEach((branch, b) => check(branch.when, `steps[${index}].branches[${b}].when`, 'predicate'));
  });
  for (const { step, path } of allSteps(skill)) {
    if (step.when !== undefined) check(step.when, `${path}.when`, 'predicate');
    if (step.expect !== undefined) check(step.expect, `${path}.expect`, 'predicate');
    step.actions.forEach((action, a) => {
      if (action.target !== undefined) check(action.target, `${path}.actions[${a}].target`, 'query');
      if (action.value !== undefined && 'missing' in fillPlaceholders(action.value, bindings)) problems.push(`${path}.actions[${a}].value: a placeholder names no parameter`);
    });
  }
  return problems;
}

/** Reads and checks one skill file; throws `SkillError` naming the file and field. */
export function readSkillFile(file: string): Skill {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if (asPathKindError(error, file, 'skill file') !== error) throw new SkillError({ message: `skill file ${file} is a folder, where a file is wanted: move it out of the skills folder or rename it (skill files end in .yaml)`, cause: error });
    throw new SkillError({ message: `cannot read skill file ${file}: ${error instanceof Error ? error.message : String(error)}`, cause: error });
  }
  const yaml = parseYamlSafely(text);
  if (!yaml.success) throw new SkillError({ message: `${file}: ${yaml.problems.map((problem) => `${problem.line === undefined ? '' : `line ${problem.line}: `}${problem.message}`).join('; ')}` });
  const parsed = skillSchema.safeParse(yaml.value.value);
  if (!parsed.success) throw new SkillError({ message: `${file}: not a skill: ${z.prettifyError(parsed.error).replace(/\n/g, ' ')} (see docs/skills.md)`, cause: parsed.error });
  const problems = skillProblems(parsed.data);
  if (problems.length > 0) throw new SkillError({ message: `${file}: ${problems.join('; ')}` });
  return parsed.data;
}

/** The skill files of a folder (`*.yaml`), sorted by name; throws `SkillError` when the path is no folder. */
export function skillFileNames(dir: string): string[] {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new SkillError({ message: `${dir} is not a folder of skills (*.yaml); pass the folder senseact skills induce --out wrote` });
  return readdirSync(dir).filter((name) => name.endsWith('.yaml')).sort();
}

/** Reads every `*.yaml` skill of a folder, sorted by name. A missing folder holds no skills; a bad file throws `SkillError`. */
export function loadSkills(dir: string): Skill[] {
  if (!existsSync(dir)) return [];
  const skills = skillFileNames(dir).map((name) => readSkillFile(join(dir, name)));
  const seen = new Set<string>();
  for (const skill of skills) {
    if (seen.has(skill.name)) throw new SkillError({ message: `${dir}: two skill files name the skill "${skill.name}"; rename one` });
    seen.add(skill.name);
  }
  return skills;
}

/** Writes a skill as YAML to `<dir>/<name>.yaml` (readable and editable like a flow file); returns the path. */
export function saveSkill(dir: string, skill: Skill): string {
  mkdirSync(dir, { recursive: true });
  const file = skillFile(dir, skill.name);
  const checked = skillSchema.parse(skill);
  writeFileSync(file, `# senseact skill: induced from verified runs; edit freely (docs/skills.md)\n${stringify(checked, { lineWidth: 0 })}`);
  return file;
}

/** Every run folder (one holding trace.jsonl or trace.jsonl.gz) under the given paths: a run folder, a bench output, or a traces folder. */
export function findRunFolders(paths: readonly string[]): string[] {
  const found: string[] = [];
  const walk = (dir: string, depth: number): void => {
    if (findTraceFile(dir) !== undefined) {
      found.push(dir);
      return;
    }
    if (depth > 4) return;
    for (const entry of readdirSync(dir).sort()) {
      const path = join(dir, entry);
      if (statSync(path).isDirectory()) walk(path, depth + 1);
    }
  };
  for (const path of paths) {
    if (!existsSync(path) || !statSync(path).isDirectory()) throw new SkillError({ message: `${path} is not a folder: pass run folders or a bench output folder (runs/bench-<suite>-<time>)` });
    walk(path, 0);
  }
  return found;
}
