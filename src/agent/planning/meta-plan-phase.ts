import { generateStructured } from '../../model/generate-structured.js';
import { describeRepairs } from '../../model/reply-repair.js';
import { certificateScope } from '../../verify/certificate.js';
import type { Delta } from '../../verify/compute-delta.js';
import type { UiTree } from '../../ui/ui-tree.js';
import { allDone, carryOver, checkProgress, claimProgress, finishRefusal, maxMetaPlans, metaPlanReplySchema, newProgress, progressVector, renderProgress, type MetaPlanProgress } from './meta-plan-progress.js';
import { metaPlanMessages } from '../prompts/meta-plan-prompts.js';
import { ledgerSince } from './planning-usage.js';
import type { SenseActContext, SenseActState } from '../loop/senseact-state.js';

/** Rounds the planner may go on acting after every sub-task is done before the plan counts as exhausted. */
export const roundsPastDoneBeforeReplan = 2;

/** FINISH refusals in a row after which the plan itself is doubted and a new one asked for. */
export const refusalsBeforeReplan = 2;

/** Default token budget of the app-memory hints in one prompt. */
export const defaultHintTokens = 160;

/** The app-memory hints for the current screen and task, in their token budget; counted in the run's planning usage. */
export function appHintsFor(context: SenseActContext, state: SenseActState): string | undefined {
  const source = context.planning?.appHints;
  if (!source) return undefined;
  const tree = state.screen.perception.tree;
  const hints = source.hints({ packageName: tree.packageName || context.task.app, scope: certificateScope(tree), instruction: context.task.instruction }, context.planning?.hintTokens ?? defaultHintTokens);
  if (hints === undefined) return undefined;
  state.planning.memoryHints += 1;
  state.planning.memoryTokens += hints.tokens;
  context.session.trace.emit({ type: 'memory-hints-end', step: context.session.step, app: hints.app, tokens: hints.tokens, lines: hints.lines });
  return hints.text;
}

/** Why a new meta-plan is due now, or undefined when the current one still stands (or meta-plans are off). */
function replanReason(context: SenseActContext, state: SenseActState): string | undefined {
  if (context.planning?.metaPlan !== true || state.planning.metaPlans >= maxMetaPlans) return undefined;
  const progress = state.metaPlan;
  if (!progress) return state.planning.metaPlans === 0 ? 'start of the task' : undefined;
  if (allDone(progress) && progress.roundsPastDone >= roundsPastDoneBeforeReplan) return `every sub-task is done, yet the task went on for ${progress.roundsPastDone} more intents without FINISH`;
  if (state.finishRefusedInARow >= refusalsBeforeReplan) return `FINISH was refused ${state.finishRefusedInARow} times in a row: a sub-task's check did not hold`;
  return undefined;
}

/**
 * The meta-plan phase (MAPLE, with verified progress): at the start of the task, and when
 * the current plan is exhausted (every sub-task done while the task goes on, or FINISH
 * refused again and again), asks the planner for a few sub-tasks with completion
 * predicates and starts a new progress vector (checked against the current screen at
 * once). At most {@link maxMetaPlans} per run. Traces `meta-plan-end`; its calls and
 * tokens are counted in the run's planning usage.
 */
export async function planMetaIfDue(context: SenseActContext, state: SenseActState): Promise<void> {
  const reason = replanReason(context, state);
  if (reason === undefined) return;
  const { session, task } = context;
  const previous = state.metaPlan ? renderProgress(state.metaPlan) : undefined;
  const hints = appHintsFor(context, state);
  const before = session.ledger.entries.length;
  const started = performance.now();
  const reply = await generateStructured(session.planner, {
    role: 'planner',
    schema: metaPlanReplySchema,
    schemaName: 'MetaPlan',
    messages: metaPlanMessages({
      instruction: task.instruction,
      allowedPackages: task.allowedPackages,
      view: state.screen.perception.view,
      ...(previous === undefined ? {} : { previous, reason }),
      ...(hints === undefined ? {} : { hints }),
    }),
    ...(session.signal ? { signal: session.signal } : {}),
    instructJson: false,
  });
  const cost = ledgerSince(session.ledger, before);
  state.planning.metaPlans += 1;
  state.planning.metaPlanCalls += cost.calls;
  state.planning.metaPlanTokens += cost.tokens;
  state.finishRefusedInARow = 0;
  const progress = newProgress(reply.value);
  carryOver(progress, state.metaPlan);
  checkProgress(progress, { after: state.screen.perception.tree });
  state.metaPlan = progress;
  countProgress(state, progress);
  session.trace.emit({
    type: 'meta-plan-end',
    step: session.step,
    reason,
    subtasks: reply.value.subtasks,
    progress: progressVector(progress),
    latencyMs: performance.now() - started,
    attempts: reply.attempts,
    ...(reply.repairs.length > 0 ? { repairs: describeRepairs(reply.repairs) } : {}),
  });
}

function countProgress(state: SenseActState, progress: MetaPlanProgress): void {
  state.planning.subtasks = progress.subtasks.length;
  state.planning.subtasksChecked = progress.status.filter((status) => status === 'checked').length;
  state.planning.subtasksClaimed = progress.status.filter((status) => status === 'claimed').length;
}

/**
 * Checks the pending sub-tasks' predicates on the current screen — after an executed
 * intent with its change (`change`), or at the start of a round on the screen as it is —
 * and traces the progress vector (`progress-end`) when one changed. Nothing happens
 * without a meta-plan, or without execution feedback (open-loop).
 */
export function trackProgress(context: SenseActContext, state: SenseActState, change?: { readonly before: UiTree; readonly delta: Delta }): void {
  const progress = state.metaPlan;
  if (!progress || !context.feedback) return;
  const wasDone = allDone(progress);
  const checked = context.session.timeVerification(() => checkProgress(progress, { after: state.screen.perception.tree, ...(change ? { before: change.before, delta: change.delta } : {}) }));
  if (change) {
    if (wasDone) progress.roundsPastDone += 1;
    state.finishRefusedInARow = 0;
  }
  countProgress(state, progress);
  if (checked.length > 0) context.session.trace.emit({ type: 'progress-end', step: context.session.step, checked: checked.map((index) => index + 1), progress: progressVector(progress) });
}

/** Marks the sub-tasks the planner says it finished as done by its word, and traces the vector. */
export function claimSubtasks(context: SenseActContext, state: SenseActState, numbers: readonly number[] | undefined): void {
  const progress = state.metaPlan;
  if (!progress || !numbers || numbers.length === 0) return;
  const before = progress.status.join(',');
  claimProgress(progress, numbers);
  countProgress(state, progress);
  if (progress.status.join(',') !== before) context.session.trace.emit({ type: 'progress-end', step: context.session.step, claimed: [...numbers], progress: progressVector(progress) });
}

/** The progress section of the planner prompt, or undefined without a meta-plan. */
export function progressPrompt(state: SenseActState): string | undefined {
  return state.metaPlan ? renderProgress(state.metaPlan) : undefined;
}

/**
 * Whether FINISH may go through: the reason it is refused (a sub-task whose completion
 * predicate has not held, checked again on the current screen), or undefined. Counts and
 * traces a refusal (`finish-refused`). Task success stays the task's own check either way.
 */
export function refuseFinish(context: SenseActContext, state: SenseActState): string | undefined {
  const progress = state.metaPlan;
  // Without execution feedback (open-loop) nothing is checked: sub-tasks are done by the planner's word only.
  if (!progress || !context.feedback) return undefined;
  const reason = context.session.timeVerification(() => finishRefusal(progress, state.screen.perception.tree));
  countProgress(state, progress);
  if (reason === undefined) {
    state.finishRefusedInARow = 0;
    return undefined;
  }
  state.planning.finishRefusals += 1;
  context.session.trace.emit({ type: 'finish-refused', step: context.session.step, reason, progress: progressVector(progress) });
  return reason;
}

/** True when FINISH keeps being refused and no new meta-plan may be asked for: the run ends. */
export function refusalsExhausted(context: SenseActContext, state: SenseActState): boolean {
  return state.metaPlan !== undefined && state.finishRefusedInARow >= refusalsBeforeReplan && state.planning.metaPlans >= maxMetaPlans;
}
