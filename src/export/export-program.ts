import { printAnswerRule } from '../skills/answer-rule.js';
import type { RecordedAction, VerifiedRun } from '../skills/read-verified-run.js';
import { isBranchPoint, type ParameterType, type Skill, type SkillStep } from '../skills/skill-schema.js';
import { parseQuery, safeParsePredicate } from '../verify/parse-predicate.js';
import { printQuery } from '../verify/print-predicate.js';
import type { Predicate } from '../verify/predicate.js';

/** One unit action of an exported step: its kind, the query that finds its target, its arguments. */
export type ExportAction = RecordedAction;

/** One verified intent: its actions and the expectation its change showed. */
export interface ExportStep {
  readonly kind: 'step';
  readonly intent: string;
  readonly actions: readonly ExportAction[];
  /** The expectation in the predicate text form ('' when the step had none). */
  readonly expectationText: string;
  /** The parsed expectation, or why it did not parse. */
  readonly expectation: Predicate | { readonly problem: string } | undefined;
  /** Only the loop's model verifier passed this step's check (a unit's contract was inconclusive). */
  readonly verifiedByModel: boolean;
  /** A skill step's guard. */
  readonly when?: { readonly text: string; readonly predicate: Predicate | { readonly problem: string } };
}

/** A skill's branch point: the first alternative whose guard holds runs. */
export interface ExportBranchPoint {
  readonly kind: 'branches';
  readonly branches: readonly { readonly whenText: string; readonly when: Predicate | { readonly problem: string }; readonly note?: string; readonly steps: readonly ExportStep[] }[];
}

export type ExportEntry = ExportStep | ExportBranchPoint;

/** What an export renders: the verified steps of a run, or a skill with its parameters. */
export interface ExportProgram {
  readonly source: 'run' | 'skill';
  /** The task id (run) or skill name. */
  readonly name: string;
  /** The instruction (run) or template with `{parameter}` slots (skill). */
  readonly title: string;
  readonly app: string;
  /** The package of the first screen the run saw (a run that started on the launcher opened its app itself). */
  readonly startPackage: string;
  /** Typed parameters (a skill's; none for a run), with the value their example shows. */
  readonly parameters: Readonly<Record<string, { readonly type: ParameterType; readonly example: string }>>;
  readonly entries: readonly ExportEntry[];
  /** How the answer of a question is read from the screen (never exported as a check). */
  readonly answer?: string;
  /** Where it came from: the run folder or skill file. */
  readonly origin: string;
  /** Rounds of the run that were not verified and are left out. */
  readonly leftOut: readonly string[];
}

function parsed(text: string): Predicate | { problem: string } {
  const result = safeParsePredicate(text);
  return result.success ? result.value : { problem: result.error.message };
}

/** The export program of a verified run (`readVerifiedRun`): its steps with literal values. */
export function programFromRun(run: VerifiedRun): ExportProgram {
  const entries: ExportStep[] = run.steps.map((step) => ({
    kind: 'step',
    intent: step.intent,
    actions: step.actions.map((action) => ({ ...action })),
    expectationText: step.expectation,
    expectation: step.expectation.trim() === '' ? undefined : parsed(step.expectation),
    verifiedByModel: step.verifiedByModel === true,
  }));
  return {
    source: 'run', name: run.task, title: run.instruction, app: run.app, startPackage: run.start.packageName, parameters: {}, entries, origin: run.dir, leftOut: run.skipped,
    ...(run.answer ? { answer: `the run answered "${run.answer.text}", read as ${JSON.stringify(printAnswerRule(run.answer.rule, printQuery))}` } : {}),
  };
}

function stepOf(step: SkillStep): ExportStep {
  return {
    kind: 'step',
    intent: step.intent,
    actions: step.actions.map((action) => ({
      unit: action.unit,
      ...(action.target === undefined ? {} : { target: parseQuery(action.target) }),
      ...(action.fallback === undefined ? {} : { fallback: parseQuery(action.fallback) }),
      ...(action.navigate === undefined ? {} : { navigate: action.navigate }),
      ...(action.value === undefined ? {} : { value: action.value }),
      ...(action.checked === undefined ? {} : { checked: action.checked }),
      ...(action.direction === undefined ? {} : { direction: action.direction }),
      ...(action.longPress === undefined ? {} : { longPress: action.longPress }),
    })),
    expectationText: step.expect ?? '',
    expectation: step.expect === undefined || step.expect.trim() === '' ? undefined : parsed(step.expect),
    verifiedByModel: step.verifier === 'model',
    ...(step.when === undefined ? {} : { when: { text: step.when, predicate: parsed(step.when) } }),
  };
}

/** The export program of a skill: its parameters, steps (placeholders kept) and branch points. Throws a query parse error for a target the skill schema let through but the query parser refuses. */
export function programFromSkill(skill: Skill, file: string): ExportProgram {
  const entries: ExportEntry[] = skill.steps.map((entry) => (isBranchPoint(entry)
    ? { kind: 'branches', branches: entry.branches.map((branch) => ({ whenText: branch.when, when: parsed(branch.when), ...(branch.note === undefined ? {} : { note: branch.note }), steps: branch.steps.map(stepOf) })) }
    : stepOf(entry)));
  return {
    source: 'skill', name: skill.name, title: skill.template, app: skill.app, startPackage: skill.app, parameters: skill.parameters, entries, origin: file, leftOut: [],
    ...(skill.answer ? { answer: `the skill reads its answer from the screen (${skill.answer.from} of ${skill.answer.target})` } : {}),
  };
}

/** A fill of a slider (its value is a percentage): the run dragged its thumb. */
export function isSlider(action: ExportAction): boolean {
  return action.unit === 'fill' && action.role !== undefined && /(SeekBar|RatingBar|Slider)$/.test(action.role) && Number.isFinite(Number(action.value));
}
