import type { UiTree } from '../ui/ui-tree.js';
import type { Delta } from '../verify/compute-delta.js';
import { evaluatePredicate } from '../verify/evaluate-predicate.js';
import { safeParsePredicate } from '../verify/parse-predicate.js';
import type { Predicate } from '../verify/predicate.js';
import { printPredicate } from '../verify/print-predicate.js';
import type { Outcome } from '../verify/verify-outcome.js';

/** One node of an expectation with its own outcome: an atom, or `and` / `or` / `not` over its parts. */
export interface ExpectationNode {
  readonly kind: 'atom' | 'and' | 'or' | 'not';
  /** The node in the predicate language's text form, whole. */
  readonly text: string;
  readonly outcome: Outcome;
  readonly reason: string;
  readonly parts: readonly ExpectationNode[];
  /** An atom that decided a failing (or inconclusive) whole: what to look at first. */
  readonly culprit: boolean;
}

/**
 * Evaluates an expectation (text form) part by part on the step's before and after
 * screens with the verifier's own `evaluatePredicate`, so each atom shows whether it
 * held, and the atoms that made the whole fail are marked. Undefined when the text does
 * not parse (the caller shows it as written). Pure.
 */
export function expectationOutcomes(text: string, context: { readonly before?: UiTree; readonly after: UiTree; readonly delta?: Delta }): ExpectationNode | undefined {
  const parsed = safeParsePredicate(text);
  if (!parsed.success) return undefined;
  const evaluate = (predicate: Predicate): ExpectationNode => {
    const result = evaluatePredicate(predicate, { after: context.after, ...(context.before ? { before: context.before } : {}), ...(context.delta ? { delta: context.delta } : {}) });
    const parts = predicate.kind === 'and' || predicate.kind === 'or' ? predicate.operands.map(evaluate) : predicate.kind === 'not' ? [evaluate(predicate.operand)] : [];
    const kind = predicate.kind === 'and' || predicate.kind === 'or' || predicate.kind === 'not' ? predicate.kind : 'atom';
    return { kind, text: printPredicate(predicate), outcome: result.outcome, reason: result.reason, parts, culprit: false };
  };
  return markCulprits(evaluate(parsed.value));
}

/**
 * Marks the atoms responsible for a whole that did not pass: under `and`, the parts with
 * its outcome; under `or`, every part (none held); under `not`, its part (it held).
 */
function markCulprits(node: ExpectationNode, responsible = node.outcome !== 'pass'): ExpectationNode {
  if (node.kind === 'atom') return { ...node, culprit: responsible };
  const parts = node.parts.map((part) => {
    const partResponsible = responsible && (node.kind === 'and' ? part.outcome === node.outcome : node.kind === 'or' ? part.outcome !== 'pass' : true);
    return markCulprits(part, partResponsible);
  });
  return { ...node, parts };
}
