import type { AppTrailStep } from '../../memory/app-memory.js';
import { maxOffers } from '../../memory/app-memory.js';
import { certificateScope } from '../../verify/certificate.js';
import type { CommitmentRun } from './execute-commitment.js';
import type { PlanReply } from '../planning/plan-reply.js';
import type { ExecutedUnit } from './senseact-state.js';
import type { IntentJudgement } from './verify-committed-intent.js';

/** Unit types a page "offers" in the app map (what a user can do there). */
const offeredTypes = new Set(['click', 'commit', 'toggle', 'select', 'fill', 'long-press']);

function shortLabel(label: string): string {
  const trimmed = label.replace(/\s+/g, ' ').trim();
  return trimmed.length > 40 ? `${trimmed.slice(0, 39)}…` : trimmed;
}

/**
 * The trail step of an executed intent for the app memory: the pages before and after,
 * the pivot unit (the last executed), whether the intent passed by contracts and
 * predicates, and what the page after offers. A value typed into a password field is
 * left out.
 */
export function trailStep(plan: PlanReply, run: CommitmentRun, judgement: IntentJudgement): AppTrailStep {
  const last = run.executed.at(-1) as ExecutedUnit;
  const before = run.start.perception.tree;
  const after = last.after.perception;
  const offers = after.units
    .filter((unit) => offeredTypes.has(unit.type) && unit.label.trim() !== '')
    .map((unit) => shortLabel(unit.label))
    .slice(0, maxOffers);
  const value = last.item.value !== undefined && last.unit.state.password !== true ? last.item.value : undefined;
  return {
    packageName: before.packageName,
    from: certificateScope(before),
    to: certificateScope(after.tree),
    intent: plan.intent,
    unit: shortLabel(last.unit.label) || last.unit.id,
    type: last.unit.type,
    ...(value === undefined ? {} : { value }),
    verified: judgement.outcome === 'pass' && judgement.by === 'contract',
    offers,
  };
}
