import type { LiftedRun } from './lift-run.js';
import { normaliseInstruction } from './match-skill.js';
import { isBranchPoint, type Skill, type SkillBranch, type SkillEntry, type SkillStep } from './skill-schema.js';

/** What induction did with one run or skill, one line each. */
export interface InductionReport {
  readonly skills: readonly Skill[];
  readonly lines: readonly string[];
}

/** What makes two steps the same step: intent, actions (their fallbacks aside) and expectation. */
function stepKey(step: SkillStep): string {
  return JSON.stringify([step.intent, step.actions.map(({ fallback: _fallback, ...action }) => action), step.expect ?? '']);
}

function entryKey(entry: SkillEntry): string {
  return isBranchPoint(entry) ? `branches:${JSON.stringify(entry)}` : stepKey(entry);
}

/** The guard of a step seen in some runs only: its own, or "its first target is on the screen". */
function guardOf(step: SkillStep): string {
  if (step.when !== undefined) return step.when;
  const target = step.actions.find((action) => action.target !== undefined)?.target;
  return target === undefined ? 'screenChanged' : `exists(${target})`;
}

function optional(step: SkillStep): SkillStep {
  return { ...step, when: guardOf(step) };
}

function plain(entries: readonly SkillEntry[]): SkillStep[] | undefined {
  const steps: SkillStep[] = [];
  for (const entry of entries) {
    if (isBranchPoint(entry)) return undefined;
    steps.push(entry);
  }
  return steps;
}

/** Longest common subsequence of two key lists, as index pairs. */
function commonPairs(left: readonly string[], right: readonly string[]): [number, number][] {
  const table = Array.from({ length: left.length + 1 }, () => new Array<number>(right.length + 1).fill(0));
  for (let i = left.length - 1; i >= 0; i--) {
    for (let j = right.length - 1; j >= 0; j--) {
      const row = table[i] as number[];
      row[j] = left[i] === right[j] ? (table[i + 1]?.[j + 1] ?? 0) + 1 : Math.max(table[i + 1]?.[j] ?? 0, row[j + 1] ?? 0);
    }
  }
  const pairs: [number, number][] = [];
  let i = 0;
  let j = 0;
  while (i < left.length && j < right.length) {
    if (left[i] === right[j]) {
      pairs.push([i, j]);
      i++;
      j++;
    } else if ((table[i + 1]?.[j] ?? 0) >= (table[i]?.[j + 1] ?? 0)) i++;
    else j++;
  }
  return pairs;
}

/** Merges one divergent stretch: what only the skill has (`mine`) and what only the run has (`theirs`). */
function mergeStretch(mine: readonly SkillEntry[], theirs: readonly SkillStep[], note: string): SkillEntry[] | undefined {
  if (theirs.length === 0 && mine.length === 0) return [];
  if (theirs.length === 0) return mine.map((entry) => (isBranchPoint(entry) ? entry : optional(entry)));
  const only = mine[0];
  if (mine.length === 1 && only && isBranchPoint(only)) {
    const theirKeys = theirs.map(stepKey).join('\n');
    if (only.branches.some((branch) => branch.steps.map(stepKey).join('\n') === theirKeys)) return [only];
    return [{ branches: [...only.branches, { when: guardOf(theirs[0] as SkillStep), steps: [...theirs], note }] }];
  }
  if (mine.length === 0) return theirs.map(optional);
  const steps = plain(mine);
  if (!steps) return undefined;
  const branches: SkillBranch[] = [
    { when: guardOf(steps[0] as SkillStep), steps },
    { when: guardOf(theirs[0] as SkillStep), steps: [...theirs], note },
  ];
  return [{ branches }];
}

/**
 * Folds a lifted run into a skill of the same template (NSI): the steps both share stay;
 * where they part, steps only one side has become guarded optional steps, and two
 * different stretches become a branch point whose alternatives are guarded by their
 * first target being on the screen (a dialog that sometimes appears, the recovery a
 * planner found when a label changed). Returns undefined when the shapes cannot be
 * merged (a branch point against a stretch that is not one of its alternatives).
 */
export function mergeRun(skill: Skill, run: LiftedRun): Skill | undefined {
  // Two ways of reading the answer are two procedures, not branches of one.
  if (JSON.stringify(skill.answer ?? null) !== JSON.stringify(run.answer ?? null)) return undefined;
  const mine = skill.steps;
  const theirs = run.steps;
  const pairs = commonPairs(mine.map(entryKey), theirs.map(stepKey));
  const merged: SkillEntry[] = [];
  let i = 0;
  let j = 0;
  const note = `from ${run.source}`;
  for (const [mi, tj] of [...pairs, [mine.length, theirs.length] as [number, number]]) {
    const stretch = mergeStretch(mine.slice(i, mi), theirs.slice(j, tj), note);
    if (!stretch) return undefined;
    merged.push(...stretch);
    const common = mine[mi];
    if (common) merged.push(withVerifier(common, theirs[tj]));
    i = mi + 1;
    j = tj + 1;
  }
  return { ...skill, steps: merged, sources: [...new Set([...skill.sources, run.source])] };
}

/**
 * A step both sides share, with the model verifier when either side's check needed it: a
 * replay asks it only where the step's verdict is inconclusive, as one of the runs saw.
 */
function withVerifier(common: SkillEntry, theirs: SkillStep | undefined): SkillEntry {
  if (isBranchPoint(common) || common.verifier !== undefined || theirs?.verifier === undefined) return common;
  return { ...common, verifier: theirs.verifier };
}

/** Same parameter names and types: two templates that read alike but bind differently are different skills. */
function sameParameters(skill: Skill, run: LiftedRun): boolean {
  const mine = Object.entries(skill.parameters).map(([name, parameter]) => `${name}:${parameter.type}`).sort().join(',');
  const theirs = Object.entries(run.parameters).map(([name, parameter]) => `${name}:${parameter.type}`).sort().join(',');
  return mine === theirs;
}

function slug(text: string): string {
  return text.toLowerCase().replace(/\{([a-z0-9]+)\}/g, '$1').replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 60).replace(/-+$/, '');
}

/** A new skill from one lifted run. */
export function skillFromRun(run: LiftedRun, taken: ReadonlySet<string>): Skill {
  const app = run.app.split('.').at(-1) ?? run.app;
  const base = `${slug(app)}-${slug(run.template)}`;
  let name = base;
  for (let suffix = 2; taken.has(name); suffix++) name = `${base}-${suffix}`;
  return { name, app: run.app, template: run.template, parameters: { ...run.parameters }, precondition: run.precondition, steps: [...run.steps], ...(run.answer ? { answer: run.answer } : {}), sources: [run.source], lifted: [...run.notes] };
}

/**
 * Induces skills from lifted runs, folding each into the existing skill (or one made
 * earlier in this call) of the same app and template — prefer fewer, more general
 * skills — and making a new skill otherwise. A run already among a skill's sources is
 * not folded twice. Says what it did with each run.
 */
export function induceSkills(runs: readonly LiftedRun[], existing: readonly Skill[] = []): InductionReport {
  const skills = [...existing];
  const lines: string[] = [];
  for (const run of runs) {
    const template = normaliseInstruction(run.template).toLowerCase();
    const index = skills.findIndex((skill) => skill.app === run.app && normaliseInstruction(skill.template).toLowerCase() === template && sameParameters(skill, run));
    const current = skills[index];
    if (current === undefined) {
      const skill = skillFromRun(run, new Set(skills.map((candidate) => candidate.name)));
      skills.push(skill);
      lines.push(`${run.source}: new skill ${skill.name} "${run.template}" (${run.steps.length} steps${run.answer ? `, answer read from ${run.answer.from} of ${run.answer.target}` : ''})`);
      for (const note of run.notes) lines.push(`  ${note.parameter === '-' ? '' : `{${note.parameter}} ← `}"${note.literal}": ${note.why}`);
      continue;
    }
    if (current.sources.includes(run.source)) {
      lines.push(`${run.source}: already in ${current.name}`);
      continue;
    }
    const merged = mergeRun(current, run);
    if (!merged) {
      lines.push(`${run.source}: not merged into ${current.name}: ${JSON.stringify(current.answer ?? null) === JSON.stringify(run.answer ?? null) ? 'its steps part at a branch point in a way this version cannot fold' : 'it reads its answer from another place'}`);
      continue;
    }
    const branches = merged.steps.filter(isBranchPoint).length - current.steps.filter(isBranchPoint).length;
    const guarded = merged.steps.filter((entry) => !isBranchPoint(entry) && entry.when !== undefined).length - current.steps.filter((entry) => !isBranchPoint(entry) && entry.when !== undefined).length;
    skills[index] = merged;
    lines.push(`${run.source}: merged into ${current.name}${branches > 0 ? `, ${branches} new branch point(s)` : ''}${guarded > 0 ? `, ${guarded} new guarded step(s)` : ''}${branches === 0 && guarded === 0 && JSON.stringify(merged.steps) === JSON.stringify(current.steps) ? ' (same steps)' : ''}`);
  }
  return { skills, lines };
}
