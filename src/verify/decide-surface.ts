import { boundsArea, boundsIou } from '../ui/bounds.js';
import type { UnitType } from '../perception/control-unit.js';
import { systemUiPackage } from '../ui/parse-hierarchy.js';
import type { Bounds, UiNode, UiTree } from '../ui/ui-tree.js';
import type { Delta, DeltaLabel } from './compute-delta.js';
import { digitsOnly } from './find-nodes.js';
import { normaliseValue } from './unit-contract.js';

/** Bounds IoU at or above which two actions hit "the same region" (docs/architecture.md §2.7, §2.9). */
export const sameRegionIouThreshold = 0.85;
/** The loop guard: this many repeats of the same action is a failure. */
export const maxSameActionRepeats = 5;

/** Names of the surface rules, in the order they are tried. */
export const surfaceRules = [
  'step-budget',
  'repeated-action',
  'surface-changed',
  'blocker',
  'no-effect',
  'repeated-region',
  'read-only-complete',
  'commit-sealed',
  'commit-still-editable',
  'values-missing',
] as const;
export type SurfaceRule = (typeof surfaceRules)[number];

/** The action just executed, as the surface rules need it. */
export interface SurfaceAction {
  readonly type: UnitType;
  readonly label: string;
  readonly resourceId?: string;
  readonly bounds: Bounds;
}

/** What the surface decision looks at after a commitment. */
export interface SurfaceInput {
  readonly delta: Delta;
  readonly after: UiTree;
  /** Values the intent needs on screen (`extractRequiredValues`, or a model's list). */
  readonly requiredValues: readonly string[];
  readonly lastAction?: SurfaceAction;
  /** The action before it and the label of its delta, for the repeated-region guard. */
  readonly previousAction?: { readonly bounds: Bounds; readonly deltaLabel: DeltaLabel };
  readonly stepsTaken?: number;
  readonly stepBudget?: number;
  /** How many times in a row the same action was issued (including the last one). */
  readonly sameActionRepeats?: number;
}

export interface SurfaceDecision {
  readonly decision: 'STOP' | 'CONTINUE';
  readonly rule: SurfaceRule;
  readonly reason: string;
  readonly flags: { readonly changeStrategy?: true; readonly noRepeat?: true };
  /** Required values not found on the after screen. */
  readonly missingValues: readonly string[];
  /** Whether the after screen still accepts input (false = sealed / read-only). */
  readonly editable: boolean;
}

const commitWords = /^(save|done|ok|okay|apply|confirm|create|add|submit|send|post|update|set|finish|sign in|log in|book|pay|publish)\b/i;

/** True when an action seals a form: a `commit` unit, or a button labelled Save / Done / OK / Apply …. */
export function isCommitAction(action: SurfaceAction): boolean {
  return action.type === 'commit' || commitWords.test(action.label.trim()) || action.resourceId === 'android:id/button1';
}

function acceptsInput(node: UiNode, tree: UiTree): boolean {
  if (!node.enabled || !node.displayed || boundsArea(node.bounds) === 0) return false;
  if (node.packageName === systemUiPackage && tree.packageName !== systemUiPackage) return false;
  return node.editable || node.checkable || /Spinner/.test(node.className);
}

/**
 * An editable surface has an enabled, visible edit field, switch / checkbox or spinner
 * outside the system UI; otherwise it is sealed (read-only).
 */
export function isEditableSurface(tree: UiTree): boolean {
  return tree.nodes.some((node) => acceptsInput(node, tree));
}

/** Required values that no node's text or content-desc shows (case- and space-insensitive; phone numbers by digits). */
export function findMissingValues(tree: UiTree, values: readonly string[]): string[] {
  const texts = tree.nodes.flatMap((node) => [node.text, node.contentDesc]).filter((text) => text !== '').map((text) => normaliseValue(text).toLowerCase());
  return values.filter((value) => {
    const wanted = normaliseValue(value).toLowerCase();
    if (texts.some((text) => text.includes(wanted))) return false;
    const digits = digitsOnly(wanted);
    return !(digits.length >= 7 && texts.some((text) => digitsOnly(text).includes(digits)));
  });
}

/**
 * The surface decision of docs/architecture.md §2.9 as code: STOP (this surface is done) or
 * CONTINUE, with the rule that decided. Rules in order: loop guards (step budget, the
 * same action `maxSameActionRepeats` times) → STOP; surface changed (new page, surface
 * opened or dismissed, unless what appeared is a blocker) → STOP; blocker → CONTINUE;
 * no effect (an empty delta) → CONTINUE with `changeStrategy`, or, the same region
 * (IoU ≥ `sameRegionIouThreshold`) hit twice with an empty delta → STOP when sealed,
 * else CONTINUE with `noRepeat` — checked before the rules about what the action did,
 * so a dropped tap on a read-only screen is a retry, not a finished surface; all
 * required values present and nothing editable → STOP; commit-like action on a sealed
 * surface → STOP, still editable → CONTINUE; otherwise (values missing or still
 * editable) → CONTINUE. The flags are set whenever their condition holds, whichever
 * rule decided.
 */
export function decideSurface(input: SurfaceInput): SurfaceDecision {
  const { delta, after } = input;
  const editable = isEditableSurface(after);
  const missingValues = findMissingValues(after, input.requiredValues);
  const empty = delta.label === 'no-change';
  const repeated = empty && input.lastAction !== undefined && input.previousAction !== undefined
    && input.previousAction.deltaLabel === 'no-change'
    && boundsIou(input.lastAction.bounds, input.previousAction.bounds) >= sameRegionIouThreshold;
  const flags = { ...(empty ? { changeStrategy: true as const } : {}), ...(repeated ? { noRepeat: true as const } : {}) };
  const decide = (decision: 'STOP' | 'CONTINUE', rule: SurfaceRule, reason: string): SurfaceDecision => ({ decision, rule, reason, flags, missingValues, editable });
  const missingText = missingValues.length > 0 ? `missing ${missingValues.map((value) => JSON.stringify(value)).join(', ')}` : 'all required values shown';

  if (input.stepBudget !== undefined && (input.stepsTaken ?? 0) >= input.stepBudget) {
    return decide('STOP', 'step-budget', `step budget of ${input.stepBudget} used up`);
  }
  if ((input.sameActionRepeats ?? 0) >= maxSameActionRepeats) {
    return decide('STOP', 'repeated-action', `the same action was repeated ${input.sameActionRepeats} times`);
  }
  const newBlockers = delta.errorsOrBlocks.filter((blocker) => blocker.isNew);
  const surfaceChanged = delta.label === 'new-page' || delta.newSurface || delta.dismissedSurface;
  if (surfaceChanged && newBlockers.length === 0) {
    const what = delta.label === 'new-page' ? 'a new page' : delta.newSurface ? 'a new surface opened' : 'a surface was dismissed';
    return decide('STOP', 'surface-changed', `the surface changed: ${what}`);
  }
  if (delta.errorsOrBlocks.length > 0) {
    const blocker = delta.errorsOrBlocks[0];
    return decide('CONTINUE', 'blocker', `a blocker is on screen: ${blocker?.kind} ${JSON.stringify(blocker?.text ?? '')}`);
  }
  // A step that changed nothing did nothing the rules below could speak of (a dropped tap
  // on a read-only list completes nothing, a Save that did not land sealed nothing): retry or change strategy.
  if (empty) {
    if (!repeated) return decide('CONTINUE', 'no-effect', `the last action had no effect (${missingText}); change strategy`);
    return editable
      ? decide('CONTINUE', 'repeated-region', 'the same region was hit twice with no effect; do not repeat it')
      : decide('STOP', 'repeated-region', 'the same region was hit twice with no effect and the surface is sealed');
  }
  if (missingValues.length === 0 && !editable) {
    return decide('STOP', 'read-only-complete', `${missingText} and nothing on the screen is editable`);
  }
  if (input.lastAction && isCommitAction(input.lastAction)) {
    return editable
      ? decide('CONTINUE', 'commit-still-editable', `"${input.lastAction.label}" looks like a commit but the surface is still editable`)
      : decide('STOP', 'commit-sealed', `"${input.lastAction.label}" sealed the surface`);
  }
  return decide('CONTINUE', 'values-missing', `${missingText}; the surface is ${editable ? 'still editable' : 'read-only'}`);
}
