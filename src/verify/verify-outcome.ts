import type { Bounds, NodeIndex, UiNode } from '../ui/ui-tree.js';
import type { TieKind } from './tie-kinds.js';

/** The three verification outcomes (docs/architecture.md §2.6). */
export type Outcome = 'pass' | 'fail' | 'inconclusive';

/** A node cited as evidence: which screen, its index there, and what a human needs to find it. */
export interface NodeRef {
  readonly screen: 'before' | 'after';
  readonly index: NodeIndex;
  readonly className: string;
  readonly resourceId: string;
  readonly text: string;
  readonly contentDesc: string;
  readonly bounds: Bounds;
  readonly fingerprint: string;
}

/**
 * How firmly a pass ties the observed change to the action (docs/architecture.md §2.6): `strong`
 * when the change belongs to the unit (its label became the title or the selected tab,
 * its dialog opened, its option shows as chosen, its field holds the value), `weak`
 * when only "something changed".
 */
export type EvidenceStrength = 'strong' | 'weak';

/**
 * The result of a predicate, a contract or a commitment. `code` names a distinct
 * reason machines act on (e.g. `end-of-list` for a scroll that moved nothing);
 * `strength` says, for a pass, how firmly the evidence ties the change to the action.
 */
export interface VerifyOutcome {
  readonly outcome: Outcome;
  readonly reason: string;
  readonly evidence: readonly NodeRef[];
  readonly code?: string;
  readonly strength?: EvidenceStrength;
  /**
   * For a pass: the kind of evidence that decided it (`title-names-label`,
   * `field-holds-value`, `screen-changed`, …), a stable name so that each kind's
   * soundness can be counted (`senseact verify-replay` reports real passes and
   * wrong-effect false passes per kind; `tieMeanings` says what each means).
   */
  readonly tie?: TieKind;
}

/** Builds a `NodeRef` for a node of the before or after screen. */
export function nodeRef(node: UiNode, screen: 'before' | 'after' = 'after'): NodeRef {
  return {
    screen,
    index: node.index,
    className: node.className,
    resourceId: node.resourceId,
    text: node.text,
    contentDesc: node.contentDesc,
    bounds: node.bounds,
    fingerprint: node.fingerprint,
  };
}

/** One-line description of a node for reasons: `#12 Switch "Wi-Fi" [0,10][100,60]`. */
export function describeNode(node: UiNode): string {
  const simple = node.className.slice(node.className.lastIndexOf('.') + 1) || 'node';
  const label = node.text || node.contentDesc || node.hint || (node.resourceId ? node.resourceId.slice(node.resourceId.indexOf('/') + 1) : '');
  const [left, top, right, bottom] = node.bounds;
  return `#${node.index} ${simple}${label ? ` ${JSON.stringify(label.length > 40 ? `${label.slice(0, 39)}…` : label)}` : ''} [${left},${top}][${right},${bottom}]`;
}
