import type { EvidenceStrength, VerifyOutcome } from '../verify/verify-outcome.js';
import { isTieKind, tieMeanings } from '../verify/tie-kinds.js';

/** The verdicts of one replayed step that the breakdowns read (a `StepReplay` has them). */
export interface BreakdownStep {
  readonly app: string;
  readonly category: string;
  readonly noVisibleEffect: boolean;
  readonly verdict?: VerifyOutcome;
  readonly noOp?: VerifyOutcome;
  readonly wrongEffect?: { readonly verdict: VerifyOutcome };
  /** A replayed step's visit: `repeat` when its control was acted on, and verified, on a page like this one earlier in the replay. */
  readonly visit?: Visit;
}

/** Whether a replayed step's control was seen on a like page before (`repeat`) or not (`first`). */
export type Visit = 'first' | 'repeat';

/** One app's figures over the steps that show an effect. */
export interface AppFigures {
  /** Recorded steps of the app (every category). */
  readonly steps: number;
  /** Replayed steps with a visible effect: what really happened. */
  readonly replayed: number;
  readonly pass: number;
  readonly strong: number;
  /** Strong passes on the wrong-effect control (another step's after screen). */
  readonly strongFalsePass: number;
  /** Wrong-effect controls run for the app's steps. */
  readonly controls: number;
}

/**
 * One kind of evidence (a verdict's `tie`): how many real passes it gave, and how many
 * false passes on the negative controls — its soundness. A kind whose false passes on
 * another step's after screen are as frequent as its real passes does not discriminate.
 */
export interface TieFigures {
  readonly strength: EvidenceStrength;
  /** What the kind means, in one line (`tieMeanings`). */
  readonly meaning: string;
  /** Passes on what really happened (visible-effect steps). */
  readonly realPasses: number;
  /** Passes on the wrong-effect control. */
  readonly wrongEffectPasses: number;
  /** Passes on the no-op control (after = before). */
  readonly noOpPasses: number;
}

/** The kind a pass without a recorded tie is counted under. */
const untied = 'untied';

/** What a kind named in a tally key means. */
function meaningOf(kind: string): string {
  return isTieKind(kind) ? tieMeanings[kind] : 'a pass that names no kind of evidence';
}

function tieKey(verdict: VerifyOutcome): string {
  return `${verdict.tie ?? untied}|${verdict.strength ?? 'weak'}`;
}

/** Per app: steps, replayed visible-effect steps, passes, strong passes, strong wrong-effect false passes. */
export function figuresByApp(steps: readonly BreakdownStep[]): Record<string, AppFigures> {
  return figuresBy(steps, (step) => step.app);
}

/**
 * The same figures by visit: first visits (the control not acted on a like page before)
 * and repeats. The memory makes only repeats strong; a first visit has the ties alone.
 */
export function figuresByVisit(steps: readonly BreakdownStep[]): Partial<Record<Visit, AppFigures>> {
  return figuresBy(steps.filter((step) => step.visit !== undefined), (step) => step.visit ?? 'first');
}

function figuresBy(steps: readonly BreakdownStep[], keyOf: (step: BreakdownStep) => string): Record<string, AppFigures> {
  const byKey: Record<string, { steps: number; replayed: number; pass: number; strong: number; strongFalsePass: number; controls: number }> = {};
  for (const step of steps) {
    const figures = (byKey[keyOf(step)] ??= { steps: 0, replayed: 0, pass: 0, strong: 0, strongFalsePass: 0, controls: 0 });
    figures.steps += 1;
    if (step.category !== 'replayed' || step.noVisibleEffect || !step.verdict) continue;
    figures.replayed += 1;
    if (step.verdict.outcome === 'pass') {
      figures.pass += 1;
      if (step.verdict.strength === 'strong') figures.strong += 1;
    }
    const control = step.wrongEffect?.verdict;
    if (control) {
      figures.controls += 1;
      if (control.outcome === 'pass' && control.strength === 'strong') figures.strongFalsePass += 1;
    }
  }
  return byKey;
}

/** Per kind of evidence (`tie` and strength): real passes and the false passes of both negative controls. */
export function figuresByTie(steps: readonly BreakdownStep[]): Record<string, TieFigures> {
  const byTie: Record<string, { strength: EvidenceStrength; meaning: string; realPasses: number; wrongEffectPasses: number; noOpPasses: number }> = {};
  const count = (verdict: VerifyOutcome | undefined, field: 'realPasses' | 'wrongEffectPasses' | 'noOpPasses'): void => {
    if (verdict?.outcome !== 'pass') return;
    const key = tieKey(verdict);
    const figures = (byTie[key] ??= { strength: verdict.strength ?? 'weak', meaning: meaningOf(verdict.tie ?? untied), realPasses: 0, wrongEffectPasses: 0, noOpPasses: 0 });
    figures[field] += 1;
  };
  for (const step of steps) {
    if (step.category !== 'replayed' || step.noVisibleEffect) continue;
    count(step.verdict, 'realPasses');
    count(step.wrongEffect?.verdict, 'wrongEffectPasses');
    count(step.noOp, 'noOpPasses');
  }
  return byTie;
}
