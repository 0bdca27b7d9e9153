import { buildCertificate, renderCertificate } from '../../verify/certificate.js';
import { decideSurface, type SurfaceDecision } from '../../verify/decide-surface.js';
import { extractRequiredValues } from '../../verify/extract-required-values.js';
import type { CommitmentRun } from './execute-commitment.js';
import type { PlanReply } from '../planning/plan-reply.js';
import { nextPlannerFeedback } from './planner-feedback.js';
import { contractArgs, unitFingerprint, type ExecutedUnit, type SenseActContext, type SenseActState } from './senseact-state.js';
import type { IntentJudgement } from './verify-committed-intent.js';

/**
 * The certify-and-decide phase (docs/architecture.md §2.8–2.9): writes the feedback certificate of
 * the intent's pivot unit (the last executed) to memory, then decides the surface — STOP
 * (this surface is done: the SCG's verified set is cleared) or CONTINUE — by the rules of
 * `decideSurface`, and keeps what the next round needs: the last action, and the
 * feedback for the next plan (`nextPlannerFeedback`). Traces `certificate-end` and
 * `surface-end`.
 */
export async function certifyAndDecide(context: SenseActContext, state: SenseActState, plan: PlanReply, run: CommitmentRun, judgement: IntentJudgement): Promise<SurfaceDecision> {
  const { session, memory, task } = context;
  const last = run.executed.at(-1) as ExecutedUnit;
  const certificate = session.timeVerification(() => buildCertificate({
    intent: plan.intent,
    before: last.before.perception.tree,
    after: last.after.perception.tree,
    unit: last.unit,
    args: contractArgs(last.item, last.unit),
    delta: last.delta,
    outcome: judgement.outcome,
    ...(judgement.strength ? { strength: judgement.strength } : {}),
    verifiedProgrammatically: judgement.by === 'contract',
  }));
  if (memory) await memory.append(certificate);
  state.writtenCertificates.add(certificate.id);
  session.trace.emit({ type: 'certificate-end', step: session.step, text: renderCertificate(certificate), confidence: certificate.confidence });

  const surface = session.timeVerification(() => decideSurface({
    delta: judgement.delta,
    after: last.after.perception.tree,
    requiredValues: extractRequiredValues(plan.intent),
    lastAction: { type: last.unit.type, label: last.unit.label, resourceId: last.unit.members[0]?.resourceId ?? '', bounds: last.unit.bounds },
    ...(state.previousAction ? { previousAction: state.previousAction } : {}),
    stepsTaken: state.steps,
    stepBudget: task.stepBudget,
    sameActionRepeats: state.sameActionRepeats,
  }));
  session.trace.emit({ type: 'surface-end', step: session.step, decision: surface.decision === 'STOP' ? 'stop' : 'continue', rule: surface.rule, flags: Object.keys(surface.flags) });
  state.previousAction = { bounds: last.unit.bounds, deltaLabel: last.delta.label };
  const pivot = { target: { fingerprint: unitFingerprint(last.unit, last.before), bounds: last.unit.bounds }, label: `${last.unit.type} "${last.unit.label}"` };
  const next = nextPlannerFeedback(state.feedbackMemory, { outcome: judgement.outcome, pivot, surface });
  state.plannerFeedback = next.feedback;
  state.feedbackMemory = next.memory;
  if (surface.decision === 'STOP' && surface.rule !== 'step-budget') state.verified.clear();
  return surface;
}
