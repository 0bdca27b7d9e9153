import type { NodeIndex, UiNode, UiTree } from '../ui/ui-tree.js';
import { assertNever } from '../util/assert-never.js';
import { computeDelta, type Delta } from './compute-delta.js';
import { findNodes, matchString, subtreeEnd } from './find-nodes.js';
import type { CountOp, Predicate, Query } from './predicate.js';
import { printPredicate, printQuery, printStringMatch } from './print-predicate.js';
import { describeNode, nodeRef, type NodeRef, type Outcome, type VerifyOutcome } from './verify-outcome.js';

/** The screens a predicate is evaluated against. `delta` is computed from `before` when absent. */
export interface EvaluationContext {
  readonly after: UiTree;
  readonly before?: UiTree;
  readonly delta?: Delta;
}

type StateKind = 'checked' | 'selected' | 'enabled' | 'focused' | 'filled';

function result(outcome: Outcome, reason: string, evidence: readonly NodeRef[] = []): VerifyOutcome {
  return { outcome, reason, evidence };
}

function compareCount(count: number, op: CountOp, value: number): boolean {
  switch (op) {
    case '=': return count === value;
    case '!=': return count !== value;
    case '<': return count < value;
    case '<=': return count <= value;
    case '>': return count > value;
    case '>=': return count >= value;
    default: return assertNever(op, 'count operator');
  }
}

/** The one descendant of `node` that satisfies `test`, when there is exactly one. */
function uniqueDescendant(tree: UiTree, node: UiNode, test: (candidate: UiNode) => boolean): UiNode | undefined {
  let found: UiNode | undefined;
  const end = subtreeEnd(tree, node.index);
  for (let index = node.index + 1; index < end; index++) {
    const candidate = tree.nodes[index];
    if (candidate && test(candidate)) {
      if (found) return undefined;
      found = candidate;
    }
  }
  return found;
}

/**
 * The node a state atom reads. A row matched by its label stands for its one switch /
 * checkbox (`checked`) or its one edit field (`filled`), so `checked(text="Wi-Fi")` works
 * on the row as users see it.
 */
function stateSubject(tree: UiTree, node: UiNode, kind: StateKind): UiNode | undefined {
  if (kind === 'checked') return node.checkable ? node : uniqueDescendant(tree, node, (candidate) => candidate.checkable);
  if (kind === 'filled') return node.editable ? node : uniqueDescendant(tree, node, (candidate) => candidate.editable);
  return node;
}

/** `filled`: non-empty and not just the hint shown as text. */
export function isFilled(node: UiNode): boolean {
  const text = node.text.trim();
  return text !== '' && text !== node.hint.trim();
}

function readState(node: UiNode, kind: StateKind): boolean {
  switch (kind) {
    case 'checked': return node.checked;
    case 'selected': return node.selected;
    case 'enabled': return node.enabled;
    case 'focused': return node.focused;
    case 'filled': return isFilled(node);
    default: return assertNever(kind, 'state atom');
  }
}

function deltaOf(context: EvaluationContext): Delta | undefined {
  if (context.delta) return context.delta;
  if (!context.before) return undefined;
  return computeDelta(context.before, context.after);
}

class Evaluator {
  private delta: Delta | undefined;
  private deltaComputed = false;
  private readonly cache = new Map<Query, ReturnType<typeof findNodes>>();

  constructor(private readonly context: EvaluationContext) {}

  private getDelta(): Delta | undefined {
    if (!this.deltaComputed) {
      this.delta = deltaOf(this.context);
      this.deltaComputed = true;
    }
    return this.delta;
  }

  private find(query: Query): ReturnType<typeof findNodes> {
    let found = this.cache.get(query);
    if (!found) {
      found = findNodes(query, this.context.after);
      this.cache.set(query, found);
    }
    return found;
  }

  private nodes(indices: readonly NodeIndex[]): UiNode[] {
    return indices.map((index) => this.context.after.nodes[index]).filter((node): node is UiNode => node !== undefined);
  }

  evaluate(predicate: Predicate): VerifyOutcome {
    const tree = this.context.after;
    switch (predicate.kind) {
      case 'not': {
        const inner = this.evaluate(predicate.operand);
        const outcome: Outcome = inner.outcome === 'pass' ? 'fail' : inner.outcome === 'fail' ? 'pass' : 'inconclusive';
        return { outcome, reason: `not: ${inner.reason}`, evidence: inner.evidence };
      }
      case 'and':
      case 'or': {
        const results = predicate.operands.map((operand) => this.evaluate(operand));
        const decisive: Outcome = predicate.kind === 'and' ? 'fail' : 'pass';
        const chosen = results.find((item) => item.outcome === decisive) ?? results.find((item) => item.outcome === 'inconclusive');
        if (chosen) return { outcome: chosen.outcome, reason: chosen.reason, evidence: chosen.evidence };
        const outcome: Outcome = predicate.kind === 'and' ? 'pass' : 'fail';
        return { outcome, reason: results.map((item) => item.reason).join('; '), evidence: results.flatMap((item) => item.evidence) };
      }
      case 'screenChanged':
      case 'newSurface':
      case 'dismissedSurface': {
        const delta = this.getDelta();
        if (!delta) return result('inconclusive', `${predicate.kind}: needs the before screen (none given)`);
        const holds = delta[predicate.kind];
        const detail = predicate.kind === 'screenChanged'
          ? `delta is ${delta.label} (ρ=${delta.rho.toFixed(2)}, ${delta.changes.length} change(s))`
          : predicate.kind === 'newSurface'
            ? `${delta.surfacesAdded.length} surface(s) appeared`
            : `${delta.surfacesRemoved.length} surface(s) dismissed`;
        return result(holds ? 'pass' : 'fail', `${predicate.kind} ${holds ? 'holds' : 'does not hold'}: ${detail}`);
      }
      case 'package':
      case 'activity': {
        const value = predicate.kind === 'package' ? tree.packageName : tree.activity;
        if (value === '') return result('inconclusive', `${predicate.kind} ${printStringMatch(predicate.match)}: the screen does not say its ${predicate.kind}`);
        const holds = matchString(predicate.match, value);
        return result(holds ? 'pass' : 'fail', `${predicate.kind} is ${JSON.stringify(value)}, ${holds ? 'matches' : 'does not match'} ${printStringMatch(predicate.match)}`);
      }
      default:
        break;
    }
    if (tree.empty) return result('inconclusive', `${printPredicate(predicate)}: the screen has no usable hierarchy`);
    const found = this.find(predicate.query);
    const nodes = this.nodes(found.matches);
    const evidence = nodes.slice(0, 5).map((node) => nodeRef(node));
    const queryText = printQuery(predicate.query);
    const why = found.problem ? ` (${found.problem})` : '';
    const listed = nodes.slice(0, 3).map(describeNode).join(', ') + (nodes.length > 3 ? `, … ${nodes.length - 3} more` : '');
    switch (predicate.kind) {
      case 'exists':
        return nodes.length > 0
          ? result('pass', `${queryText} matches ${nodes.length} node(s): ${listed}`, evidence)
          : result('fail', `no node matches ${queryText}${why}`);
      case 'absent':
        return nodes.length === 0
          ? result('pass', `no node matches ${queryText}${why}`)
          : result('fail', `${queryText} still matches ${nodes.length} node(s): ${listed}`, evidence);
      case 'unique':
        return nodes.length === 1
          ? result('pass', `${queryText} matches exactly one node: ${listed}`, evidence)
          : result('fail', nodes.length === 0 ? `no node matches ${queryText}${why}` : `${queryText} matches ${nodes.length} nodes, not one: ${listed}`, evidence);
      case 'count': {
        const holds = compareCount(nodes.length, predicate.op, predicate.value);
        return result(holds ? 'pass' : 'fail', `${queryText} matches ${nodes.length} node(s); wanted ${predicate.op} ${predicate.value}${why}`, evidence);
      }
      case 'text':
        return this.perNode(nodes, queryText, why, (node) => {
          const holds = matchString(predicate.match, node.text);
          return { holds, subject: node, detail: `text ${JSON.stringify(node.text)} ${holds ? 'matches' : 'does not match'} ${printStringMatch(predicate.match)}` };
        });
      case 'checked':
      case 'selected':
      case 'enabled':
      case 'focused':
      case 'filled': {
        const kind = predicate.kind;
        return this.perNode(nodes, queryText, why, (node) => {
          const subject = stateSubject(tree, node, kind);
          if (!subject) return { holds: undefined, subject: node, detail: `${describeNode(node)} has no ${kind === 'checked' ? 'checkable' : 'editable'} node of its own or a single one inside` };
          if (kind === 'filled' && subject.password && subject.text === '') return { holds: false, subject, detail: `${describeNode(subject)} is an empty password field` };
          const holds = readState(subject, kind);
          return { holds, subject, detail: `${describeNode(subject)} is ${holds ? '' : 'not '}${kind}` };
        });
      }
      default:
        return assertNever(predicate, 'predicate');
    }
  }

  /**
   * A state or text atom over every match: no match fails, all matches agreeing decide,
   * disagreeing matches (or an unreadable one) are ambiguous: inconclusive.
   */
  private perNode(
    nodes: readonly UiNode[],
    queryText: string,
    why: string,
    check: (node: UiNode) => { holds: boolean | undefined; subject: UiNode; detail: string },
  ): VerifyOutcome {
    if (nodes.length === 0) return result('fail', `no node matches ${queryText}${why}`);
    const checks = nodes.map(check);
    const evidence = checks.slice(0, 5).map((item) => nodeRef(item.subject));
    if (checks.some((item) => item.holds === undefined)) {
      const unreadable = checks.find((item) => item.holds === undefined);
      return result('inconclusive', `${queryText}: ${unreadable?.detail ?? 'state unreadable'}`, evidence);
    }
    const passing = checks.filter((item) => item.holds).length;
    if (passing === checks.length) return result('pass', checks.map((item) => item.detail).slice(0, 3).join('; '), evidence);
    if (passing === 0) return result('fail', checks.map((item) => item.detail).slice(0, 3).join('; '), evidence);
    return result('inconclusive', `${queryText} is ambiguous: ${checks.length} nodes match and they disagree (${checks.map((item) => item.detail).slice(0, 4).join('; ')}); narrow the query (nth, within, near)`, evidence);
  }
}

/**
 * Evaluates a predicate three-valued over the full after tree (and the before tree or
 * delta for `screenChanged` / `newSurface` / `dismissedSurface`). Missing or ambiguous
 * evidence gives `inconclusive`: a delta atom without a before screen, a package the
 * screen does not report, an empty hierarchy, matches that disagree. `and` / `or` follow
 * Kleene logic (fail / pass dominate, then inconclusive).
 */
export function evaluatePredicate(predicate: Predicate, context: EvaluationContext): VerifyOutcome {
  return new Evaluator(context).evaluate(predicate);
}
