import { describeRepairs } from '../../model/reply-repair.js';
import type { ControlUnit, ScgEdge, UnitId } from '../../perception/control-unit.js';
import { renderScg } from '../../perception/render-scg.js';
import { addEdges, type Scg } from '../../perception/scg.js';
import { certificateScope } from '../../verify/certificate.js';
import { admissibleCommitment } from '../loop/admissible-commitment.js';
import type { TextMessage } from '../../model/language-model.js';
import type { VisionMessage } from '../../model/vision-model.js';
import { defaultGateImageDetail, plannerMessages, type HistoryEntry } from '../prompts/agent-prompts.js';
import { commitmentOf, lookForUnit, type CommitmentItem, type PlanReply } from './plan-reply.js';
import { openIntent, retrievedCertificates, selectCertificateHints } from './select-certificate-hints.js';
import { appHintsFor, claimSubtasks, progressPrompt, refuseFinish } from './meta-plan-phase.js';
import { samplePlan } from './vote-on-plans.js';
import { menuSkills, renderSkillMenu, resolveSkillCall, type SkillCall } from './skill-menu.js';
import type { SenseActContext, SenseActState } from '../loop/senseact-state.js';

/** How many times one plan may be rejected (inadmissible, unknown unit) before the step is given up. */
export const maxPlanRejections = 2;

/**
 * Planner replies refused in a row (unit ids not on the screen, inadmissible commitments,
 * skill calls that do not bind) before the run stops as the model's failure: a model whose
 * plans never fit the screen would otherwise spend every round of the step budget (3 plans
 * a round) without a step. Five lets one round's retries and a second round's first
 * tries through.
 */
export const maxRefusedPlansInARow = 5;

/** What planning ended with. */
export type PlannedIntent =
  /** The planner said the task is done. */
  | { readonly kind: 'finish'; readonly plan: PlanReply }
  /** An admissible commitment, its units on the current screen. */
  | { readonly kind: 'commit'; readonly plan: PlanReply; readonly items: readonly CommitmentItem[]; readonly units: readonly ControlUnit[] }
  /** A commitment naming a target only vision can locate (`look-for`); checked once it is located. */
  | { readonly kind: 'look-for'; readonly plan: PlanReply }
  /** A skill the prompt listed, called by name with arguments that bind and a precondition that holds. */
  | { readonly kind: 'skill'; readonly plan: PlanReply; readonly call: SkillCall }
  /** Every attempt was inadmissible. */
  | { readonly kind: 'rejected'; readonly intent: string; readonly reason: string };

/**
 * The planner's messages with the screenshot on the user turn (`senseact-vlm-always`), at
 * the detail of SenseAct's other screenshots (the gate's), or unchanged without one.
 */
function withScreenshot(context: SenseActContext, messages: readonly TextMessage[], png: Uint8Array | undefined): readonly VisionMessage[] {
  if (png === undefined) return messages;
  const image = { png, detail: context.gateImageDetail ?? defaultGateImageDetail };
  return messages.map((message): VisionMessage => (message.role === 'user' ? { role: 'user', content: message.content, ...(message.sections ? { sections: message.sections } : {}), images: [image] } : message));
}

/** The current screen's SCG with the edges planners proposed earlier that join two of its units. */
function screenScg(state: SenseActState): Scg {
  const own = state.screen.perception.scg;
  return state.learnedEdges.length === 0 ? own : addEdges(own, state.learnedEdges).scg;
}

/**
 * Adds the plan's `dependsOn` orders (`unit` waits for `on`) to the SCG through
 * `addEdges`, which keeps the graph acyclic: accepted edges are kept for the run, and
 * refused ones (an id not on this screen, a self-loop, a duplicate, a cycle) are told to
 * the next planner prompt. Returns what to trace.
 */
function learnEdges(state: SenseActState, scg: Scg, plan: PlanReply): { edgesAdded?: string[]; edgesRejected?: string[] } {
  if (!plan.dependsOn || plan.dependsOn.length === 0) return {};
  const proposed: ScgEdge[] = plan.dependsOn.map((order) => [order.on as UnitId, order.unit as UnitId]);
  const { accepted, rejected } = addEdges(scg, proposed);
  state.learnedEdges.push(...accepted);
  state.edgeRejections = rejected.map((refusal) => `${refusal.edge[1]} on ${refusal.edge[0]} (${refusal.detail})`);
  return {
    ...(accepted.length > 0 ? { edgesAdded: accepted.map(([from, to]) => `${from} → ${to}`) } : {}),
    ...(rejected.length > 0 ? { edgesRejected: rejected.map((refusal) => `${refusal.edge[0]} → ${refusal.edge[1]}: ${refusal.detail}`) } : {}),
  };
}

/** The history as the planner may see it: without outcomes or notes when execution feedback is off. */
function visibleHistory(context: SenseActContext, history: readonly HistoryEntry[]): readonly HistoryEntry[] {
  return context.feedback ? history : history.map((entry) => ({ ...entry, outcome: 'unknown' as const, note: '' }));
}

/** A plan was made on the feedback: the next plan hears what this one's execution teaches, never the same lines again. */
function planned(state: SenseActState, result: PlannedIntent): PlannedIntent {
  state.plannerFeedback = undefined;
  state.refusedPlansInARow = 0;
  return result;
}

/**
 * The plan phase (docs/architecture.md §2.4): asks the planner for one intent, its expectation and
 * its commitment on the current screen, and checks the commitment's admissibility; a
 * rejected commitment is asked again with the reason, at most {@link maxPlanRejections}
 * times. The prompt carries the feedback of the last executed intent until a plan is
 * made on it. Traces `plan-end` and `commitment-end` per attempt.
 */
export async function planIntent(context: SenseActContext, state: SenseActState): Promise<PlannedIntent> {
  const { task, session, memory } = context;
  const { screen } = state;
  const certificates = memory
    ? selectCertificateHints(memory.retrieve({ packageName: screen.perception.tree.packageName, scope: certificateScope(screen.perception.tree), intent: openIntent(state.history, task.instruction) }, retrievedCertificates), { perception: screen.perception, history: state.history, written: state.writtenCertificates })
    : [];
  const hints = appHintsFor(context, state);
  const listed = context.skills ? menuSkills(context.skills, screen.perception.tree.packageName, task.instruction) : [];
  const skills = renderSkillMenu(listed);
  // One screenshot serves every attempt of this round: the screen does not change between them.
  const png = context.visionEveryPlan ? await session.screenshot() : undefined;
  let rejection: { intent: string; reason: string } | undefined;
  let refused = false;
  for (let attempt = 0; attempt <= maxPlanRejections; attempt++) {
    const started = performance.now();
    const progress = progressPrompt(state);
    const scg = screenScg(state);
    const edgeRejections = state.edgeRejections.splice(0);
    const reply = await samplePlan(context, state, withScreenshot(context, plannerMessages({
        instruction: task.instruction,
        allowedPackages: task.allowedPackages,
        view: screen.perception.view,
        history: visibleHistory(context, state.history),
        certificates,
        ...(rejection ? { rejection: rejection.reason } : {}),
        ...(context.feedback && state.plannerFeedback ? { feedback: state.plannerFeedback } : {}),
        ...(progress === undefined ? {} : { progress }),
        ...(hints === undefined ? {} : { hints }),
        scg: renderScg(scg, { done: state.verified, hidden: new Set(screen.perception.plannerView.hiddenUnits) }),
        edgeRejections,
        ...(skills === '' ? {} : { skills }),
      }), png));
    const plan = reply.value;
    claimSubtasks(context, state, plan.subtasksDone);
    const edges = learnEdges(state, scg, plan);
    session.trace.emit({ type: 'plan-end', step: session.step, latencyMs: performance.now() - started, intent: plan.finish ? 'FINISH' : plan.intent, finish: plan.finish, expectation: plan.expectation, attempts: reply.attempts, ...(reply.repairs.length > 0 ? { repairs: describeRepairs(reply.repairs) } : {}), ...edges });
    if (plan.finish) {
      // A sub-task whose completion check has not held refuses FINISH: progress is checked, not believed.
      const refusal = refuseFinish(context, state);
      if (refusal !== undefined) {
        refused = true;
        rejection = { intent: 'FINISH', reason: refusal };
        continue;
      }
      session.trace.emit({ type: 'commitment-end', step: session.step, admissible: true, units: plan.commitment });
      return planned(state, { kind: 'finish', plan });
    }
    if (plan.skill !== undefined) {
      const call = resolveSkillCall(listed, plan.skill, plan.arguments ?? [], screen.perception.tree);
      if (!('problem' in call)) return planned(state, { kind: 'skill', plan, call });
      // Nothing runs: the planner hears what to fix, as for an inadmissible commitment.
      session.trace.emit({ type: 'commitment-end', step: session.step, admissible: false, units: [], reason: call.problem });
      refused = false;
      rejection = { intent: plan.intent, reason: call.problem };
      state.refusedPlansInARow += 1;
      if (state.refusedPlansInARow >= maxRefusedPlansInARow) break;
      continue;
    }
    // A target only vision can name is located first; the whole commitment is checked then.
    if (commitmentOf(plan).some((item) => item.unit === lookForUnit)) return planned(state, { kind: 'look-for', plan });
    const check = admissibleCommitment(context, plan.commitment, screen, state.verified, state.learnedEdges);
    if (check.ok) return planned(state, { kind: 'commit', plan, items: plan.commitment, units: check.units });
    refused = false;
    rejection = { intent: plan.intent, reason: check.reason };
    state.refusedPlansInARow += 1;
    if (state.refusedPlansInARow >= maxRefusedPlansInARow) break;
  }
  if (refused) state.finishRefusedInARow += 1;
  return { kind: 'rejected', intent: rejection?.intent ?? '(no plan)', reason: rejection?.reason ?? '' };
}
