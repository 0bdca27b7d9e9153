import type { UiTree } from '../ui/ui-tree.js';
import { computeDelta } from '../verify/compute-delta.js';

/** How many of the agent's operations changed the screen (AndroidLab's reasonable operation ratio). */
export interface OperationTotals {
  /** Operations the agent performed: one per action on a unit, refused ones included. */
  readonly total: number;
  /** Those after which some later observation (before the next operation) showed a changed screen. */
  readonly effective: number;
}

/**
 * Counts the agent's operations and which of them changed the screen, from the same
 * delta the verifier uses (a change of the status bar's clock is not a change). An
 * operation is effective when any observation before the next operation differs from the
 * screen it acted on, so a late effect caught by a settle re-observation still counts.
 */
export class OperationCounter {
  private finished = { total: 0, effective: 0 };
  private pending: { readonly before: UiTree; changed: boolean } | undefined;

  /** The agent acted on `before` (the screen its unit came from). */
  acted(before: UiTree): void {
    this.settle();
    this.pending = { before, changed: false };
  }

  /** A screen was observed; it decides the pending operation once it differs from `before`. */
  observed(after: UiTree): void {
    if (!this.pending || this.pending.changed) return;
    this.pending.changed = computeDelta(this.pending.before, after).screenChanged;
  }

  /** The operations so far, the pending one included. */
  totals(): OperationTotals {
    const pending = this.pending;
    return pending ? { total: this.finished.total + 1, effective: this.finished.effective + (pending.changed ? 1 : 0) } : { ...this.finished };
  }

  private settle(): void {
    this.finished = this.totals();
    this.pending = undefined;
  }
}
