import { boundsIou } from '../ui/bounds.js';
import type { ControlUnit } from '../perception/control-unit.js';
import type { UiNode, UiTree } from '../ui/ui-tree.js';
import { assertNever } from '../util/assert-never.js';
import { isComparedNode, matchIouThreshold, type Delta } from './compute-delta.js';
import { evaluatePredicate } from './evaluate-predicate.js';
import { digitsOnly, matchString, subtreeEnd } from './find-nodes.js';
import type { Predicate } from './predicate.js';
import { describeNode, nodeRef, type NodeRef, type Outcome, type VerifyOutcome } from './verify-outcome.js';

/** Arguments a commitment gives a unit, as far as its contract needs them. */
export interface ContractArgs {
  /** `fill`: the text typed. `select`: the option chosen. */
  readonly value?: string;
  /** `toggle`: the wanted final state; without it the contract wants a flip. */
  readonly checked?: boolean;
  /** `navigate` / `click`: the package the action should lead to. */
  readonly package?: string;
  /** `navigate` / `click`: the activity (contains) the action should lead to. */
  readonly activity?: string;
  /** `click`: the page the expectation names, checked instead of "some change". */
  readonly expectation?: Predicate;
}

function outcome(value: Outcome, reason: string, evidence: readonly NodeRef[] = [], code?: string): VerifyOutcome {
  return code === undefined ? { outcome: value, reason, evidence } : { outcome: value, reason, evidence, code };
}

/** Text normalised for comparing a typed value: NFKC, trimmed, inner whitespace collapsed. */
export function normaliseValue(text: string): string {
  return text.normalize('NFKC').replace(/\s+/g, ' ').trim();
}

/**
 * Finds a before node again in the after tree: through the delta's one-to-one matches,
 * else by same class and bounds IoU ≥ `matchIouThreshold`, else by fingerprint.
 */
export function locateAfter(node: UiNode, after: UiTree, delta: Delta): UiNode | undefined {
  for (const [beforeIndex, afterIndex] of delta.matches) {
    if (beforeIndex === node.index) return after.nodes[afterIndex];
  }
  let best: UiNode | undefined;
  let bestScore = matchIouThreshold;
  for (const candidate of after.nodes) {
    if (candidate.className !== node.className) continue;
    const score = boundsIou(candidate.bounds, node.bounds);
    if (score >= bestScore) {
      best = candidate;
      bestScore = score;
    }
  }
  return best ?? after.nodes.find((candidate) => candidate.fingerprint === node.fingerprint);
}

function memberNodes(unit: ControlUnit, before: UiTree): UiNode[] {
  return unit.members.map((member) => before.nodes[member.node]).filter((node): node is UiNode => node !== undefined);
}

/** The member satisfying `test`, or the one descendant of a member that does. */
function memberWith(unit: ControlUnit, before: UiTree, test: (node: UiNode) => boolean): UiNode | undefined {
  const members = memberNodes(unit, before);
  const direct = members.find(test);
  if (direct) return direct;
  for (const member of members) {
    const end = subtreeEnd(before, member.index);
    for (let index = member.index + 1; index < end; index++) {
      const node = before.nodes[index];
      if (node && test(node)) return node;
    }
  }
  return undefined;
}

function someChange(delta: Delta, what: string): VerifyOutcome {
  if (delta.label === 'no-change') return outcome('fail', `${what}: nothing on screen changed (ρ=${delta.rho.toFixed(2)})`, [], 'no-change');
  return outcome('pass', `${what}: the screen changed (${delta.label}, ρ=${delta.rho.toFixed(2)}, ${delta.changes.length} change(s))`);
}

function pageCheck(args: ContractArgs, after: UiTree): VerifyOutcome | undefined {
  if (args.package === undefined && args.activity === undefined) return undefined;
  if (args.package !== undefined) {
    if (after.packageName === '') return outcome('inconclusive', `wanted package ${args.package} but the screen does not report its package`);
    if (after.packageName !== args.package) return outcome('fail', `wanted package ${args.package}, the screen shows ${after.packageName}`, [], 'wrong-page');
  }
  if (args.activity !== undefined) {
    if (after.activity === '') return outcome('inconclusive', `wanted activity ${args.activity} but the screen does not report its activity`);
    if (!after.activity.includes(args.activity)) return outcome('fail', `wanted activity ${args.activity}, the screen shows ${after.activity}`, [], 'wrong-page');
  }
  return outcome('pass', `on ${after.packageName}${after.activity ? `/${after.activity}` : ''} as asked`);
}

function fillContract(unit: ControlUnit, args: ContractArgs, before: UiTree, after: UiTree, delta: Delta): VerifyOutcome {
  const field = memberWith(unit, before, (node) => node.editable);
  if (!field) return outcome('inconclusive', `fill "${unit.label}": the unit has no editable node`);
  const now = locateAfter(field, after, delta);
  if (!now) return outcome('inconclusive', `fill "${unit.label}": the field ${describeNode(field)} is not on the after screen`, [nodeRef(field, 'before')]);
  const evidence = [nodeRef(now)];
  if (now.password || field.password || unit.state.password) {
    return outcome('inconclusive', `fill "${unit.label}": password field, its text is masked and cannot be compared`, evidence, 'password');
  }
  if (args.value === undefined) return outcome('inconclusive', `fill "${unit.label}": no value given to compare with`, evidence);
  const wanted = normaliseValue(args.value);
  const shown = normaliseValue(now.text);
  const hint = normaliseValue(now.hint || field.hint || unit.state.hint || '');
  if (shown === wanted && wanted !== '' && wanted === hint) {
    return outcome('inconclusive', `fill "${unit.label}": the value equals the field's hint ${JSON.stringify(hint)}; typed text and hint look the same`, evidence, 'value-is-hint');
  }
  if (shown === wanted) return outcome('pass', `fill "${unit.label}": the field holds ${JSON.stringify(now.text)}`, evidence);
  if (shown !== '' && shown === hint) return outcome('fail', `fill "${unit.label}": the field shows its hint ${JSON.stringify(now.hint || hint)}, not ${JSON.stringify(args.value)}`, evidence, 'shows-hint');
  // Fields that format what was typed (phone numbers, card numbers) keep the digits.
  const wantedDigits = digitsOnly(wanted);
  if (wantedDigits.length >= 3 && wantedDigits.length >= wanted.replace(/[\s()+\-.]/g, '').length && digitsOnly(shown) === wantedDigits) {
    return outcome('pass', `fill "${unit.label}": the field holds ${JSON.stringify(now.text)} (same digits as ${JSON.stringify(args.value)})`, evidence);
  }
  return outcome('fail', `fill "${unit.label}": the field holds ${JSON.stringify(now.text)}, expected ${JSON.stringify(args.value)}`, evidence, 'value-mismatch');
}

function toggleContract(unit: ControlUnit, args: ContractArgs, before: UiTree, after: UiTree, delta: Delta): VerifyOutcome {
  const toggle = memberWith(unit, before, (node) => node.checkable);
  if (!toggle) return outcome('inconclusive', `toggle "${unit.label}": the unit has no checkable node`);
  const now = locateAfter(toggle, after, delta);
  if (!now) return outcome('inconclusive', `toggle "${unit.label}": ${describeNode(toggle)} is not on the after screen`, [nodeRef(toggle, 'before')]);
  const evidence = [nodeRef(toggle, 'before'), nodeRef(now)];
  if (args.checked !== undefined) {
    return now.checked === args.checked
      ? outcome('pass', `toggle "${unit.label}": ${args.checked ? 'checked' : 'unchecked'} as wanted`, evidence)
      : outcome('fail', `toggle "${unit.label}": still ${now.checked ? 'checked' : 'unchecked'}, wanted ${args.checked ? 'checked' : 'unchecked'}`, evidence, 'not-toggled');
  }
  return now.checked !== toggle.checked
    ? outcome('pass', `toggle "${unit.label}": flipped ${toggle.checked ? 'on → off' : 'off → on'}`, evidence)
    : outcome('fail', `toggle "${unit.label}": did not flip (still ${now.checked ? 'checked' : 'unchecked'})`, evidence, 'not-toggled');
}

function selectContract(unit: ControlUnit, args: ContractArgs, before: UiTree, after: UiTree, delta: Delta): VerifyOutcome {
  const located = memberNodes(unit, before).map((node) => locateAfter(node, after, delta)).filter((node): node is UiNode => node !== undefined);
  if (args.value !== undefined) {
    const wanted = { op: 'equals', value: normaliseValue(args.value), ignoreCase: true } as const;
    // The spinner (or the option row) now shows the value, or a node with that text is selected / checked.
    for (const node of located) {
      const end = subtreeEnd(after, node.index);
      for (let index = node.index; index < end; index++) {
        const candidate = after.nodes[index];
        if (candidate && matchString(wanted, normaliseValue(candidate.text))) {
          return outcome('pass', `select "${unit.label}": shows ${JSON.stringify(candidate.text)}`, [nodeRef(candidate)]);
        }
      }
    }
    const chosen = after.nodes.find((node) => (node.selected || node.checked) && matchString(wanted, normaliseValue(node.text || node.contentDesc)));
    if (chosen) return outcome('pass', `select "${unit.label}": ${describeNode(chosen)} is selected`, [nodeRef(chosen)]);
    if (delta.newSurface) return outcome('inconclusive', `select "${unit.label}": a picker opened; ${JSON.stringify(args.value)} is not chosen yet`, [], 'picker-open');
    return outcome('fail', `select "${unit.label}": ${JSON.stringify(args.value)} is neither shown nor selected`, located.map((node) => nodeRef(node)), 'value-mismatch');
  }
  const nowSelected = located.find((node) => node.selected || node.checked);
  if (nowSelected) return outcome('pass', `select "${unit.label}": ${describeNode(nowSelected)} is selected`, [nodeRef(nowSelected)]);
  if (delta.selectionChanges.length > 0 || delta.valueChanges.length > 0) return outcome('pass', `select "${unit.label}": the selection changed`);
  if (delta.label === 'no-change') return outcome('fail', `select "${unit.label}": nothing changed`, [], 'no-change');
  return outcome('inconclusive', `select "${unit.label}": the screen changed but no selection is visible`);
}

function descendantKeys(tree: UiTree, root: UiNode): Set<string> {
  const keys = new Set<string>();
  const end = subtreeEnd(tree, root.index);
  for (let index = root.index + 1; index < end; index++) {
    const node = tree.nodes[index];
    if (node && isComparedNode(node, tree)) keys.add(`${node.fingerprint}@${node.bounds.join(',')}`);
  }
  return keys;
}

function scrollContract(unit: ControlUnit, before: UiTree, after: UiTree, delta: Delta): VerifyOutcome {
  const container = memberWith(unit, before, (node) => node.scrollable);
  if (!container) return someChange(delta, `scroll "${unit.label}"`);
  const now = locateAfter(container, after, delta);
  if (!now) {
    return delta.label === 'new-page'
      ? outcome('fail', `scroll "${unit.label}": the screen turned into another page`, [], 'left-page')
      : outcome('inconclusive', `scroll "${unit.label}": the container ${describeNode(container)} is not on the after screen`, [nodeRef(container, 'before')]);
  }
  const keysBefore = descendantKeys(before, container);
  const keysAfter = descendantKeys(after, now);
  let moved = keysBefore.size !== keysAfter.size;
  if (!moved) for (const key of keysAfter) if (!keysBefore.has(key)) { moved = true; break; }
  return moved
    ? outcome('pass', `scroll "${unit.label}": the container's content moved`, [nodeRef(now)])
    : outcome('fail', `scroll "${unit.label}": end of list, the container's content did not move`, [nodeRef(now)], 'end-of-list');
}

function commitContract(unit: ControlUnit, delta: Delta): VerifyOutcome {
  const newErrors = delta.errorsOrBlocks.filter((blocker) => blocker.isNew);
  if (newErrors.length > 0) return outcome('fail', `commit "${unit.label}": ${newErrors[0]?.kind} "${newErrors[0]?.text}"`, [], 'blocked');
  if (delta.label === 'new-page') return outcome('pass', `commit "${unit.label}": moved to a new page`);
  if (delta.dismissedSurface) return outcome('pass', `commit "${unit.label}": the surface was dismissed`);
  if (delta.label === 'no-change') return outcome('fail', `commit "${unit.label}": nothing changed`, [], 'no-change');
  return outcome('inconclusive', `commit "${unit.label}": the page changed in part but stayed (${delta.changes.length} change(s)); not sealed`);
}

function navigateContract(unit: ControlUnit, args: ContractArgs, after: UiTree, delta: Delta): VerifyOutcome {
  return pageCheck(args, after) ?? someChange(delta, `navigate ${unit.label}`);
}

/**
 * The contract Δτ of a unit's type (DESIGN.md §1.4), checked on the observed change:
 * fill → the field holds the value (normalised; password fields inconclusive; never
 * the hint); toggle → checked flipped or equals `args.checked`; select → selected, or
 * the spinner shows the value; click → some change, or the page / expectation asked
 * for; scroll → the container's content changed (`code: 'end-of-list'` when not);
 * commit → new page or dismissed surface; navigate → package/activity as asked (else
 * some change); long-press → some change; finish → pass. Unit members are indices into
 * `before`; they are found again in `after` through the delta's matches.
 */
export function unitContract(unit: ControlUnit, args: ContractArgs, before: UiTree, after: UiTree, delta: Delta): VerifyOutcome {
  switch (unit.type) {
    case 'fill':
      return fillContract(unit, args, before, after, delta);
    case 'toggle':
      return toggleContract(unit, args, before, after, delta);
    case 'select':
      return selectContract(unit, args, before, after, delta);
    case 'click': {
      if (args.expectation) {
        const expected = evaluatePredicate(args.expectation, { after, before, delta });
        return { ...expected, reason: `click "${unit.label}": ${expected.reason}` };
      }
      return pageCheck(args, after) ?? someChange(delta, `click "${unit.label}"`);
    }
    case 'scroll':
      return scrollContract(unit, before, after, delta);
    case 'commit':
      return commitContract(unit, delta);
    case 'navigate':
      return navigateContract(unit, args, after, delta);
    case 'long-press':
      return someChange(delta, `long-press "${unit.label}"`);
    case 'finish':
      return outcome('pass', 'finish: nothing to check here (the task\'s own success check decides)');
    default:
      return assertNever(unit.type, 'unit type');
  }
}

/**
 * Combines the unit outcomes of a commitment and the intent's expectation: any fail →
 * fail, else any inconclusive → inconclusive, else pass. The reason names the first
 * deciding outcome.
 */
export function verifyCommitment(unitOutcomes: readonly VerifyOutcome[], expectationOutcome?: VerifyOutcome): VerifyOutcome {
  const all = expectationOutcome ? [...unitOutcomes, expectationOutcome] : [...unitOutcomes];
  const failed = all.find((item) => item.outcome === 'fail');
  if (failed) return { ...failed, reason: `commitment failed: ${failed.reason}` };
  const unsure = all.find((item) => item.outcome === 'inconclusive');
  if (unsure) return { ...unsure, reason: `commitment inconclusive: ${unsure.reason}` };
  return { outcome: 'pass', reason: all.length === 0 ? 'commitment passed (nothing to check)' : `commitment passed: ${all.map((item) => item.reason).join('; ')}`, evidence: all.flatMap((item) => item.evidence) };
}
