import { generateStructured } from '../../model/generate-structured.js';
import { computeDelta, type Delta } from '../../verify/compute-delta.js';
import { parsePredicate } from '../../verify/parse-predicate.js';
import { verifyIntent } from '../../verify/verify-intent.js';
import type { Outcome, VerifyOutcome } from '../../verify/verify-outcome.js';
import { ranNote, unitsTookEffectNote, verifierMessages } from '../prompts/agent-prompts.js';
import type { CommitmentRun } from './execute-commitment.js';
import { verifierReplySchema, type PlanReply } from '../planning/plan-reply.js';
import type { SenseActContext } from './senseact-state.js';

/** How long a history note may be. */
export const maxNoteLength = 160;

/** The verdict on an executed intent. */
export interface IntentJudgement {
  readonly outcome: Outcome;
  readonly reason: string;
  /** What the history says about it (why it failed, or what is left undone). */
  readonly note: string;
  /** `contract` when the contracts and the expectation decided, `llm-verifier` when a model did, `vlm` when vision saw what the tree did not show. */
  readonly by: 'contract' | 'llm-verifier' | 'vlm';
  /** The change over the whole commitment. */
  readonly delta: Delta;
  /** How strongly the evidence ties the change to the intent, when the verdict says. */
  readonly strength?: VerifyOutcome['strength'];
}

/**
 * The verify-intent phase (docs/architecture.md §2.6): the intent's expectation over the whole
 * commitment's change, combined with the unit verdicts by `verifyIntent`; an inconclusive
 * verdict goes to the LLM verifier when there is one — never silently to success. Writes
 * `predicates.json` and `delta.json` and traces `verify-end`. The note names the units
 * that ran (`ran click "Save"`) and tells the planner when every unit took effect and
 * only the expectation did not show.
 */
export async function verifyCommittedIntent(context: SenseActContext, plan: PlanReply, run: CommitmentRun): Promise<IntentJudgement> {
  const { session } = context;
  const after = run.executed.at(-1)?.after ?? run.start;
  const delta = session.timeVerification(() => computeDelta(run.start.perception.tree, after.perception.tree));
  const expectation = plan.expectation.trim() === '' ? undefined : parsePredicate(plan.expectation);
  const unitOutcomes = run.executed.map((unit) => unit.outcome);
  const { combined, expectationOutcome } = session.timeVerification(() => verifyIntent({ ...(expectation ? { expectation } : {}), before: run.start.perception.tree, after: after.perception.tree, delta, unitOutcomes }));
  let verdict: VerifyOutcome = combined;
  let by: IntentJudgement['by'] = 'contract';
  if (combined.outcome === 'inconclusive' && session.verifier) {
    const reply = await generateStructured(session.verifier, {
      role: 'verifier',
      schema: verifierReplySchema,
      schemaName: 'VerifierReply',
      messages: verifierMessages({ intent: plan.intent, expectation: plan.expectation, reason: combined.reason, view: after.perception.view }),
      ...(session.signal ? { signal: session.signal } : {}),
      instructJson: false,
    });
    verdict = { outcome: reply.value.verdict, reason: `verifier: ${reply.value.reason}`, evidence: [] };
    by = 'llm-verifier';
  }
  session.trace.writeStepArtifact(session.step, 'predicates.json', { expectation: plan.expectation, expectationOutcome, units: run.executed.map((unit) => ({ unit: unit.unit.id, outcome: unit.outcome })), combined: verdict });
  session.trace.writeStepArtifact(session.step, 'delta.json', summariseDelta(delta));
  session.trace.emit({ type: 'verify-end', step: session.step, outcome: verdict.outcome, reason: verdict.reason, label: delta.label, by, ...(verdict.strength ? { strength: verdict.strength } : {}), ...(verdict.tie ? { tie: verdict.tie } : {}) });
  // Units that all had their effect while the expectation did not show: the planner then
  // knows its expectation (not its action) is what to doubt.
  const unitsTookEffect = unitOutcomes.every((outcome) => outcome.outcome === 'pass') && expectationOutcome?.outcome === 'fail';
  // A weak pass is still a pass, but the planner sees that nothing tied the change to the intent.
  const weakNote = verdict.outcome === 'pass' && verdict.strength === 'weak' ? 'weak evidence: the screen changed, nothing ties it to the intent' : '';
  const outcomeNote = verdict.outcome === 'pass' ? [run.unfinished, weakNote].filter(Boolean).join('; ')
    : verdict.outcome === 'fail' && unitsTookEffect ? `${unitsTookEffectNote}; ${expectationOutcome.reason}`.slice(0, maxNoteLength)
    : verdict.reason.slice(0, maxNoteLength);
  // The units the ids became, first: a plan whose id named another unit than its intent meant shows it here.
  const note = [ranNote(run.executed.map((unit) => unit.unit)), outcomeNote].filter(Boolean).join('; ');
  return { outcome: verdict.outcome, reason: verdict.reason, note, by, delta, ...(verdict.strength ? { strength: verdict.strength } : {}) };
}

function summariseDelta(delta: Delta): unknown {
  return {
    label: delta.label,
    rho: delta.rho,
    screenChanged: delta.screenChanged,
    newSurface: delta.newSurface,
    dismissedSurface: delta.dismissedSurface,
    packageChanged: delta.packageChanged,
    activityChanged: delta.activityChanged,
    changes: delta.changes.slice(0, 200),
    errorsOrBlocks: delta.errorsOrBlocks,
  };
}
