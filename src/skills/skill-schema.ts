import { z } from 'zod';
import { unitTypeSchema } from '../perception/control-unit.js';

/**
 * The skill format (docs/skills.md, NesyProAct/NSI): a typed program learned from verified
 * runs. The schema is the only definition of a skill: types come from `z.infer`, the
 * library validates YAML with it, and every object is strict, so a misspelt field is an
 * error rather than silently ignored. Strings in targets, values and predicates may hold
 * `{parameter}` or `{parameter.projection}` placeholders (see skill-parameters.ts).
 */

/**
 * The kinds of value a parameter may hold, each with its own pattern in the instruction.
 * A `password` is bound from the instruction at match time and never stored: its example
 * is the trace's placeholder (`[password]`), and the replay types it into a password field.
 */
export const parameterTypeSchema = z.enum(['time', 'text', 'number', 'option', 'password']);
export type ParameterType = z.infer<typeof parameterTypeSchema>;

/** A typed slot of the instruction template. */
export const skillParameterSchema = z.strictObject({
  type: parameterTypeSchema,
  /** The literal seen in the first instruction this parameter was lifted from. */
  example: z.string(),
});
export type SkillParameter = z.infer<typeof skillParameterSchema>;

/** A target query in the predicate text form (docs/predicates.md), placeholders allowed; never a node id or coordinates. */
const targetText = z.string().trim().min(1, 'expected a target query such as desc="Add alarm" (docs/predicates.md)');

/** One unit of a step: its type, how to find it again, and its arguments. */
export const skillActionSchema = z.strictObject({
  unit: unitTypeSchema.exclude(['finish']),
  /** How to find the unit on the live screen (resource-id, label, role); absent for `navigate`. */
  target: targetText.optional(),
  /**
   * A label-free query (resource-id, rank) tried only when `target` finds nothing and the
   * unit it finds shows no label at all (an icon whose label is missing); a unit showing
   * another label is a mismatch, never a fallback.
   */
  fallback: targetText.optional(),
  /** For `navigate`: which system action. */
  navigate: z.enum(['back', 'home', 'launch']).optional(),
  /** `fill`: the text; `navigate: launch`: the package; `select`: the option. */
  value: z.string().optional(),
  /** `toggle`: the wanted final state. */
  checked: z.boolean().optional(),
  direction: z.enum(['up', 'down', 'left', 'right']).optional(),
  longPress: z.boolean().optional(),
}).superRefine((action, context) => {
  if (action.unit === 'navigate' ? action.navigate === undefined : action.target === undefined) {
    context.addIssue({ code: 'custom', path: [action.unit === 'navigate' ? 'navigate' : 'target'], message: action.unit === 'navigate' ? 'a navigate action needs navigate: back, home or launch' : `a ${action.unit} action needs a target query` });
  }
});
export type SkillAction = z.infer<typeof skillActionSchema>;

/** One screen-scoped intent: its units in order and the expectation its change must show. */
export const skillStepSchema = z.strictObject({
  intent: z.string().min(1),
  actions: z.array(skillActionSchema).min(1),
  /** The intent's expectation (a predicate, judged as evidence of change, as the loop judges a plan's). */
  expect: z.string().optional(),
  /** A guard: the step runs only when this predicate holds on the screen (a step seen in some runs only). */
  when: z.string().optional(),
  /**
   * `model`: the recorded run's check of this step needed the loop's model verifier — a
   * unit's contract was inconclusive (a checkbox that left the screen with its list, a
   * masked password field) while no unit failed and the expectation showed as new evidence
   * on the tree. A replay asks the loop's verifier at an inconclusive verdict of this step,
   * as the loop did, and hands over without one. Absent: contracts and expectation alone.
   */
  verifier: z.literal('model').optional(),
});
export type SkillStep = z.infer<typeof skillStepSchema>;

/** One alternative of a branch point: the first whose guard holds on the live screen runs. */
export const skillBranchSchema = z.strictObject({
  when: z.string().min(1),
  steps: z.array(skillStepSchema).min(1),
  /** Where the alternative comes from (e.g. the recovery a planner found). */
  note: z.string().optional(),
});
export type SkillBranch = z.infer<typeof skillBranchSchema>;

export const skillBranchPointSchema = z.strictObject({ branches: z.array(skillBranchSchema).min(2) });
export type SkillBranchPoint = z.infer<typeof skillBranchPointSchema>;

/** A plain step or a branch point. */
export const skillEntrySchema = z.union([skillStepSchema, skillBranchPointSchema]);
export type SkillEntry = z.infer<typeof skillEntrySchema>;

/** What induction lifted (or refused to lift) and why. */
export const liftNoteSchema = z.strictObject({
  parameter: z.string(),
  literal: z.string(),
  why: z.string(),
});
export type LiftNote = z.infer<typeof liftNoteSchema>;

/**
 * How a question skill reads its answer from the live screen after its last step
 * (src/skills/answer-rule.ts): never the answer itself, only where it shows.
 */
export const skillAnswerSchema = z.discriminatedUnion('from', [
  z.strictObject({
    from: z.literal('text'), target: targetText, field: z.enum(['text', 'desc']), take: z.enum(['whole', 'time', 'between']), prefix: z.string().optional(), suffix: z.string().optional(),
    /** A label of the row to read in: of the nodes `target` finds, the one whose smallest subtree shared with the one node `row` finds holds no other of them. */
    row: targetText.optional(),
  }),
  z.strictObject({ from: z.literal('checked'), target: targetText, yes: z.string().min(1), no: z.string().min(1) }),
  z.strictObject({ from: z.literal('count'), target: targetText, state: z.enum(['checked', 'unchecked', 'any']) }),
]);
export type SkillAnswer = z.infer<typeof skillAnswerSchema>;

export const skillSchema = z.strictObject({
  name: z.string().regex(/^[a-z0-9][a-z0-9_.-]*$/, 'expected a lowercase name such as "clock-set-alarm"'),
  app: z.string().min(1),
  /** The instruction with `{parameter}` slots; the rest must match a new instruction word for word (case and spacing aside). */
  template: z.string().min(1),
  parameters: z.record(z.string().regex(/^[a-z][a-z0-9]*$/), skillParameterSchema).default({}),
  /** A predicate that must hold on the start screen. */
  precondition: z.string().min(1),
  /** The steps; empty only for a question answered on the start screen. */
  steps: z.array(skillEntrySchema),
  /** The task-level postcondition, when known: it must hold on the screen after the last step. */
  postcondition: z.string().optional(),
  /** For a question: where the answer is read on the screen after the last step. */
  answer: skillAnswerSchema.optional(),
  /** The runs the skill was induced from (run folders). */
  sources: z.array(z.string()).default([]),
  lifted: z.array(liftNoteSchema).default([]),
}).superRefine((skill, context) => {
  if (skill.steps.length === 0 && skill.answer === undefined) context.addIssue({ code: 'custom', path: ['steps'], message: 'a skill needs at least one step (or an answer to read)' });
});
export type Skill = z.infer<typeof skillSchema>;

/** True for a branch point entry. */
export function isBranchPoint(entry: SkillEntry): entry is SkillBranchPoint {
  return 'branches' in entry;
}
