import type { Bounds } from '../../ui/ui-tree.js';
import { boundsIou } from '../../ui/bounds.js';

/** Bounds IoU at or above which two targets count as the same control objective (docs/architecture.md §2.7). */
export const sameTargetIou = 0.85;
/** Consecutive failures on the same target that open the gate by default (τ). */
export const defaultGateThreshold = 2;

/** Why vision was (or would be) called. */
export type GateReason = 'repeated-failure' | 'empty-hierarchy' | 'unresolved-target' | 'pixel-only' | 'skill-check';

/** A control objective: what the failed action was aimed at. */
export interface GateTarget {
  readonly fingerprint: string;
  readonly bounds: Bounds;
}

export interface GateDecision {
  readonly open: boolean;
  readonly reason: GateReason | null;
  /** Consecutive failures on this target, including the one just recorded. */
  readonly score: number;
  readonly threshold: number;
}

/** Two targets are the same control objective: the same fingerprint, or bounds IoU ≥ {@link sameTargetIou}. */
export function sameTarget(a: GateTarget, b: GateTarget): boolean {
  if (a.fingerprint !== '' && a.fingerprint === b.fingerprint) return true;
  return boundsIou(a.bounds, b.bounds) >= sameTargetIou;
}

/**
 * Decides when the agent may look at pixels. Vision is called only when an action was
 * issued and its expected symbolic effect did not appear, and the same control
 * objective has failed `threshold` times in a row — or when the hierarchy is empty or
 * a target cannot be resolved symbolically at all. A pass on a target clears its score.
 */
export class VlmGate {
  private readonly threshold: number;
  private failures: { target: GateTarget; count: number }[] = [];

  constructor(options: { threshold?: number } = {}) {
    this.threshold = options.threshold ?? defaultGateThreshold;
  }

  /** Records the verified outcome of an action on `target` and says whether vision is due. */
  recordOutcome(target: GateTarget, outcome: 'pass' | 'fail' | 'inconclusive'): GateDecision {
    const entry = this.failures.find((item) => sameTarget(item.target, target));
    if (outcome === 'pass') {
      this.failures = this.failures.filter((item) => item !== entry);
      return { open: false, reason: null, score: 0, threshold: this.threshold };
    }
    if (outcome === 'inconclusive') {
      return { open: false, reason: null, score: entry?.count ?? 0, threshold: this.threshold };
    }
    const count = (entry?.count ?? 0) + 1;
    const open = count >= this.threshold;
    const others = this.failures.filter((item) => item !== entry);
    // Once vision has been asked, the target starts a fresh count.
    this.failures = open ? others : [...others, { target, count }];
    return { open, reason: open ? 'repeated-failure' : null, score: count, threshold: this.threshold };
  }

  /** The gate for a screen with no usable hierarchy: always open. */
  emptyHierarchy(): GateDecision {
    return { open: true, reason: 'empty-hierarchy', score: this.threshold, threshold: this.threshold };
  }

  /**
   * The gate for a unit whose effect may show only in pixels (an icon without text or
   * checkable state: a star, a shutter) when the hierarchy showed no change: tapping it
   * again is not safe (the second tap may undo the first), so vision is asked at once.
   */
  pixelOnly(): GateDecision {
    return { open: true, reason: 'pixel-only', score: this.threshold, threshold: this.threshold };
  }

  /**
   * The gate for a skill step whose units acted and changed the screen while its
   * expectation did not show in the tree (a label it names is gone): no planner is there
   * to try again, so vision is asked at once whether the expected effect shows.
   */
  skillCheck(): GateDecision {
    return { open: true, reason: 'skill-check', score: this.threshold, threshold: this.threshold };
  }

  /** The gate for a target that no symbolic query can resolve (e.g. an icon without a label). */
  unresolvedTarget(): GateDecision {
    return { open: true, reason: 'unresolved-target', score: this.threshold, threshold: this.threshold };
  }
}
