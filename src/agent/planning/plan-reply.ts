import { z } from 'zod';
import { safeParsePredicate } from '../../verify/parse-predicate.js';

/** The unit id that stands for the target described in `lookFor`, until vision locates it. */
export const lookForUnit = 'look-for';

/** One unit of a control commitment, with the arguments its type needs. */
export const commitmentItemSchema = z.strictObject({
  /** A unit id from the view (`n3f2a`, `nav-back`, `nav-home`, `nav-launch`). */
  unit: z.string().min(1),
  /** `fill`: the text to put in the field. `nav-launch`: the package to launch. `select`: the option. */
  value: z.string().optional(),
  /** `toggle`: the wanted final state (omit to flip). */
  checked: z.boolean().optional(),
  /** `scroll`: which way the content should move into view (`down` shows what is below). */
  direction: z.enum(['up', 'down', 'left', 'right']).optional(),
  /** Long-press the unit instead of tapping it (units the view marks `long-press`). */
  longPress: z.boolean().optional(),
});
export type CommitmentItem = z.infer<typeof commitmentItemSchema>;

/** An expectation in the predicate text form; the same parser the evaluator uses checks it. */
const expectationText = z.string().superRefine((text, context) => {
  if (text.trim() === '') return;
  const parsed = safeParsePredicate(text);
  if (!parsed.success) context.addIssue({ code: 'custom', message: `expectation is not a valid predicate: ${parsed.error.message}` });
});

/**
 * What the planner returns for one step (docs/architecture.md §2.4): one screen-scoped intent, the
 * expectation (evidence that must be new or changed afterwards) and the ordered
 * commitment. `finish: true` ends the task (with `answer` for query tasks).
 */
export const planReplySchema = z.strictObject({
  intent: z.string().min(1),
  expectation: expectationText.default(''),
  commitment: z.array(commitmentItemSchema).max(8).default([]),
  finish: z.boolean().default(false),
  /**
   * The planner says this commitment finishes the task: once its expectation verifies the
   * run ends as if the next reply were FINISH, without asking for it (a run that executes
   * nothing, or does not verify it, goes on as usual). `answer` goes with it for a question.
   */
  completesTask: z.boolean().optional(),
  answer: z.string().optional(),
  /**
   * The target the text view cannot identify (e.g. an icon without a label), described for
   * the vision model to locate. The commitment names it with the unit id `look-for` (and
   * its arguments); an empty commitment means one plain `look-for` item.
   */
  lookFor: z.string().min(1).optional(),
  /**
   * Orders the view does not show that the planner proposes for the SCG: `unit` must wait
   * for `on` (e.g. a field the form's Save needs). Added only while the graph stays acyclic;
   * the rejected ones are reported back in the next prompt.
   */
  dependsOn: z.array(z.strictObject({ unit: z.string().min(1), on: z.string().min(1) })).max(16).optional(),
  /** With a meta-plan: the sub-tasks (1-based) the planner says it has finished; shown as done by its word until a check confirms them. */
  subtasksDone: z.array(z.number().int().positive()).optional(),
  /** A skill the prompt lists, run by name instead of a commitment (replayed and verified step by step, no model). */
  skill: z.string().min(1).optional(),
  /**
   * The skill's parameters, each a value as the instruction would say it
   * (`[{"name": "time", "value": "5PM"}]`; pairs, not an object with open keys, so strict
   * structured output can name every key).
   */
  arguments: z.array(z.strictObject({ name: z.string().min(1), value: z.string() })).max(16).optional(),
}).superRefine((plan, context) => {
  if (plan.skill !== undefined && (plan.commitment.length > 0 || plan.lookFor !== undefined || plan.finish)) {
    context.addIssue({ code: 'custom', path: ['skill'], message: 'a skill call stands alone: give "skill" and "arguments" without commitment, lookFor or finish' });
  }
  if (plan.completesTask === true && (plan.finish || plan.skill !== undefined)) {
    context.addIssue({ code: 'custom', path: ['completesTask'], message: 'completesTask goes with a commitment (or lookFor): leave it out with finish or a skill call' });
  }
  if (plan.arguments !== undefined && plan.skill === undefined) {
    context.addIssue({ code: 'custom', path: ['arguments'], message: '"arguments" go with "skill": name the skill to run' });
  }
  if (!plan.finish && plan.commitment.length === 0 && plan.lookFor === undefined && plan.skill === undefined) {
    // The paper's planner answers {intent, expectation} alone; here the same reply must also commit to units.
    context.addIssue({
      code: 'custom',
      path: ['commitment'],
      message: plan.expectation.trim() === ''
        ? 'give at least one unit to act on, set finish: true, or describe the unlabelled target in lookFor'
        : 'an intent with an expectation is not enough (the two-field {intent, expectation} planner format): also give "commitment", the units to act on in order, e.g. [{"unit": "n3f2a"}]; or set finish: true; or describe an unlabelled target in lookFor',
    });
  }
  const placeholders = plan.commitment.filter((item) => item.unit === lookForUnit).length;
  if (placeholders > 0 && plan.lookFor === undefined) {
    context.addIssue({ code: 'custom', path: ['lookFor'], message: `the commitment names "${lookForUnit}": describe that target in lookFor` });
  }
  if (placeholders > 1) {
    context.addIssue({ code: 'custom', path: ['commitment'], message: `name "${lookForUnit}" at most once: vision locates one target per plan` });
  }
});

/**
 * The commitment a plan asks for, with the `look-for` target made explicit: an empty
 * commitment with `lookFor` is one plain `look-for` item.
 */
export function commitmentOf(plan: PlanReply): CommitmentItem[] {
  if (plan.commitment.length === 0 && plan.lookFor !== undefined && !plan.finish) return [{ unit: lookForUnit }];
  return [...plan.commitment];
}
export type PlanReply = z.infer<typeof planReplySchema>;

/** The LLM verifier's verdict on an inconclusive check. */
export const verifierReplySchema = z.strictObject({
  verdict: z.enum(['pass', 'fail']),
  reason: z.string(),
});
export type VerifierReply = z.infer<typeof verifierReplySchema>;

/** The vision model's answer to the gate's localized question. */
export const visionReplySchema = z.strictObject({
  /** The candidate region (unit id) that achieves the intent, or null when none does. */
  unit: z.string().nullable(),
  reason: z.string(),
  /** True when the screenshot shows the intent already achieved (nothing to act on). */
  alreadyDone: z.boolean().default(false),
});
export type VisionReply = z.infer<typeof visionReplySchema>;

/** One action of the ReAct baselines: a single unit per step, or finish. */
export const reactReplySchema = z.strictObject({
  thought: z.string().default(''),
  action: commitmentItemSchema.nullable(),
  finish: z.boolean().default(false),
  /**
   * The planner says this commitment finishes the task: once its expectation verifies the
   * run ends as if the next reply were FINISH, without asking for it (a run that executes
   * nothing, or does not verify it, goes on as usual). `answer` goes with it for a question.
   */
  completesTask: z.boolean().optional(),
  answer: z.string().optional(),
}).superRefine((reply, context) => {
  if (!reply.finish && reply.action === null) context.addIssue({ code: 'custom', path: ['action'], message: 'give an action, or set finish: true' });
});
export type ReactReply = z.infer<typeof reactReplySchema>;
