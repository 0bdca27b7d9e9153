import type { SurfaceDecision } from '../../verify/decide-surface.js';
import type { Outcome } from '../../verify/verify-outcome.js';
import { sameTarget, type GateTarget } from './vlm-gate.js';

/** Failed intents on the same pivot target before the planner is told to change strategy (docs/architecture.md §2.9). */
export const changeStrategyAfter = 2;

/** How many no-repeat regions the planner is shown at most (the newest). */
export const maxNoRepeatRegions = 3;

/**
 * What verification learned from the last executed intent that the next plan can use
 * (docs/architecture.md §2.9): the surface decision and its reason, the intent's required values
 * the screen does not show yet, the regions hit twice with no effect on this surface,
 * and — only after {@link changeStrategyAfter} failures on the same target, never after
 * one dropped tap a retry would fix — which target to stop trying.
 */
export interface PlannerFeedback {
  readonly surface: { readonly decision: SurfaceDecision['decision']; readonly reason: string };
  readonly missingValues: readonly string[];
  /** Regions not to repeat, as `type "label"`, oldest first. */
  readonly noRepeat: readonly string[];
  readonly changeStrategy?: { readonly target: string; readonly failures: number };
}

/** One target's failed intents in a row. */
export interface TargetFailures {
  readonly target: GateTarget;
  readonly label: string;
  readonly count: number;
}

/** What the feedback carries from one executed intent to the next: failures per target, regions not to repeat. */
export interface FeedbackMemory {
  targetFailures: readonly TargetFailures[];
  noRepeat: readonly string[];
}

/** An empty feedback memory (a run's start). */
export function newFeedbackMemory(): FeedbackMemory {
  return { targetFailures: [], noRepeat: [] };
}

/** The executed intent as the feedback needs it: its outcome, its pivot (last executed) unit, and the surface decision. */
export interface FeedbackInput {
  readonly outcome: Outcome;
  readonly pivot: { readonly target: GateTarget; readonly label: string };
  readonly surface: SurfaceDecision;
}

/**
 * The feedback for the next plan, and the memory updated with this intent: a pass clears
 * its target's count, a failure adds one (consecutive per target: the gate's "same
 * target", fingerprint or bounds IoU); a `noRepeat` flag adds the region; a changed
 * surface clears the regions, which belonged to the old one.
 */
export function nextPlannerFeedback(memory: FeedbackMemory, input: FeedbackInput): { feedback: PlannerFeedback; memory: FeedbackMemory } {
  const { outcome, pivot, surface } = input;
  const entry = memory.targetFailures.find((item) => sameTarget(item.target, pivot.target));
  const others = memory.targetFailures.filter((item) => item !== entry);
  const count = outcome === 'fail' ? (entry?.count ?? 0) + 1 : outcome === 'pass' ? 0 : entry?.count ?? 0;
  const targetFailures = count > 0 ? [...others, { target: pivot.target, label: pivot.label, count }] : others;
  const region = pivot.label;
  const kept = surface.rule === 'surface-changed' ? [] : memory.noRepeat;
  const noRepeat = surface.flags.noRepeat && !kept.includes(region) ? [...kept, region] : kept;
  const feedback: PlannerFeedback = {
    surface: { decision: surface.decision, reason: surface.reason },
    missingValues: surface.missingValues,
    noRepeat: noRepeat.slice(-maxNoRepeatRegions),
    ...(count >= changeStrategyAfter ? { changeStrategy: { target: pivot.label, failures: count } } : {}),
  };
  return { feedback, memory: { targetFailures, noRepeat } };
}
