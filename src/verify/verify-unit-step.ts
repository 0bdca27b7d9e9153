import type { ControlUnit } from '../perception/control-unit.js';
import { splitComponentName } from '../ui/component-name.js';
import { isLauncherPackage } from '../ui/launcher.js';
import type { UiTree } from '../ui/ui-tree.js';
import { computeDelta, type Delta } from './compute-delta.js';
import { dismissalControl, namedToSave } from './dismissal-control.js';
import { evaluateExpectation, staleExpectationCode } from './evaluate-expectation.js';
import { isFilled } from './evaluate-predicate.js';
import { findBlockers } from './find-blockers.js';
import { subtreeEnd } from './find-nodes.js';
import { dialogOnly } from './page-trail.js';
import type { Predicate } from './predicate.js';
import { pagePrints, samePageSimilarity, similarity, type TransitionRecall } from './transition-memory.js';
import { dialogValueTie } from './tied-evidence.js';
import { dismissedPageNotInDump, normaliseValue, pixelOnlyCode, unitContract, untiedEnding, type ContractArgs } from './unit-contract.js';
import type { VerifyOutcome } from './verify-outcome.js';

/** What one executed unit is verified on: the unit as perceived before, its arguments, both screens. */
export interface UnitStepInput {
  /** The unit as perception typed it on `before` (its members index `before`). */
  readonly unit: ControlUnit;
  /** The commitment's arguments for the unit (value, wanted checked state, package). */
  readonly args: ContractArgs;
  /**
   * The intent's expectation, when this unit is the whole commitment (then the
   * expectation speaks about this unit's effect); omit it otherwise.
   */
  readonly expectation?: Predicate;
  readonly before: UiTree;
  readonly after: UiTree;
  /** The delta of `before` → `after`, when the caller has it already. */
  readonly delta?: Delta;
  /** The transitions verified before this step (`TransitionMemory`): a weak pass they record is strong. */
  readonly memory?: TransitionRecall;
  /**
   * When `before` is a dialog dumped without the page under it: the page the run was on
   * when it opened the dialog (`PageTrail.note`). A commit that closed the dialog is tied
   * to it when that page did not show the value the dialog's field held and the screen
   * after does (`dialog-value-shown`), or when the screen after is that page changed
   * (`opened-from-changed`).
   */
  readonly openedFrom?: UiTree;
  /**
   * The page the run came to `before` from (`PageTrail.note`): the page under a dialog
   * dumped alone, else the page before it on the trail. Back that led to a page like it
   * is tied to Back (`went-back`), and so is a control that says it leaves the screen
   * (`control-went-back`). Without it, nothing is known under `before`, and Back that left
   * the app's page for the home screen is tied to Back (`left-for-home`).
   */
  readonly cameFrom?: UiTree;
}

/**
 * The verdict on one executed unit (a `VerifyOutcome` the loop, skills and verify-replay
 * share). Codes callers act on: `pixel-only` (no change on a unit whose effect may show
 * only in pixels: ask vision at once, do not tap again), `already-selected` (a tap on
 * what was already chosen changed nothing, as it should).
 */
export type UnitStepVerdict = VerifyOutcome;

export { pixelOnlyCode };
/** The code of a unit whose expected effect did not appear (its expectation failed). */
export const expectationFailedCode = 'expectation-failed';
/** The code of a pass on a tap at what was already chosen. */
export const alreadySelectedCode = 'already-selected';

/**
 * True when the unit already shows what the commitment wants, so acting would change
 * nothing and the loop does not act: a select whose option is already chosen (checked
 * or selected: the same to a user), a toggle already in the wanted `checked` state, a
 * field that already holds the value.
 */
export function alreadyInWantedState(unit: ControlUnit, args: ContractArgs): boolean {
  switch (unit.type) {
    case 'select':
      return args.value === undefined && (unit.state.selected === true || unit.state.checked === true);
    case 'toggle':
      return args.checked !== undefined && unit.state.checked === args.checked;
    case 'fill':
      return args.value !== undefined && args.priorText === undefined && unit.state.password !== true
        && normaliseValue(unit.state.value ?? '') === normaliseValue(args.value);
    default:
      return false;
  }
}

/**
 * True for a unit whose effect may show only in pixels: a tap target (click, long-press,
 * commit) with no text anywhere in it and no checkable or editable state (an icon: a
 * star, a shutter, a like).
 * Its description may name it; its state is not in the hierarchy.
 */
export function isPixelOnlyUnit(unit: ControlUnit, before: UiTree): boolean {
  if (unit.type !== 'click' && unit.type !== 'long-press' && unit.type !== 'commit') return false;
  if (unit.affordances.includes('checkable') || unit.affordances.includes('editable')) return false;
  for (const member of unit.members) {
    const end = subtreeEnd(before, member.node);
    for (let index = member.node; index < end; index++) {
      const node = before.nodes[index];
      if (!node || node.text.trim() !== '' || node.checkable || node.editable || node.selected) return false;
    }
  }
  return unit.members.length > 0;
}

/** A unit that shows as chosen (a selected tab, a checked radio): tapping it again changes nothing, and that is right. */
function shownAsChosen(unit: ControlUnit): boolean {
  return (unit.type === 'click' || unit.type === 'select') && (unit.state.selected === true || unit.state.checked === true);
}

/** The contract verdict with the expectation's evidence taken into account (see `verifyUnitStep`). */
function withExpectation(unit: ControlUnit, contract: VerifyOutcome, expected: VerifyOutcome): VerifyOutcome {
  if (expected.code === staleExpectationCode) return { ...contract, reason: `${contract.reason}; ${expected.reason}` };
  if (expected.outcome === 'fail') return { ...expected, reason: `${unit.type} "${unit.label}": expectation failed: ${expected.reason}`, code: expectationFailedCode };
  if (expected.outcome === 'inconclusive') {
    return contract.outcome === 'fail' ? contract : { ...expected, reason: `${unit.type} "${unit.label}": expectation inconclusive: ${expected.reason}` };
  }
  // The expectation holds with new evidence: it is what the change was meant to be.
  return { outcome: 'pass', reason: `${unit.type} "${unit.label}": ${expected.reason}`, evidence: [...contract.evidence, ...expected.evidence], strength: 'strong', tie: 'expectation' };
}

/**
 * Units whose contract is only "something changed": the expectation says what should
 * have changed, so it is judged with the unit. The typed units (fill, toggle, select,
 * scroll, commit) have contracts of their own; their intent's expectation is judged over
 * the whole commitment (`verifyIntent`).
 */
function expectationJudgedWithUnit(unit: ControlUnit): boolean {
  return unit.type === 'click' || unit.type === 'long-press' || unit.type === 'navigate';
}

/**
 * Verifies one executed unit (docs/architecture.md §2.6) from the screens before and after it: the
 * unit type's contract Δτ (`unitContract`), then
 * - for a click, long-press or navigate, the intent's expectation, judged as evidence of
 *   change (`evaluateExpectation`): one that held before the action verifies nothing, so
 *   a tap that changed nothing still fails; one that fails fails the unit (its expected
 *   effect did not appear); one with fresh evidence makes the pass strong;
 * - a tap on what was already chosen (the current tab, a checked radio) that changed
 *   nothing passes (`code: 'already-selected'`);
 * - no change on a pixel-only unit (`isPixelOnlyUnit`) fails with `code: 'pixel-only'`:
 *   its effect may be in pixels only, and tapping again may undo it;
 * - a dialog's commit whose page now shows the value the dialog's field held, which the
 *   page it was opened from (`openedFrom`) did not, is strong (`tie: 'dialog-value-shown'`),
 *   and so is one whose screen after is that page changed, on the same tab
 *   (`tie: 'opened-from-changed'`); an editor's commit that left for the page the run came
 *   from (`cameFrom`), back changed on the same tab, is strong too (`tie: 'came-from-changed'`),
 *   and so is an editor's commit, or one named to save, whose screen after carries the
 *   device's activity stack less the one activity on top (`tie: 'editor-finished'`);
 * - Back that led to a page like the one the run came from (`cameFrom`) is strong
 *   (`tie: 'went-back'`), and so is Back whose screen after carries the device's activity
 *   stack less the activity on top (`tie: 'activity-finished'`), Back with no page under it
 *   on the trail that left the app's page for the home screen (`tie: 'left-for-home'`), and
 *   Home that left an app for the home screen (`tie: 'home-screen'`); the keys' labels are
 *   ours, so no page names them;
 * - so is a control that says it leaves the screen (a Cancel, a Close, the app bar's up
 *   button, a dialog's only button: `dismissalControl`) and led to the page the run came
 *   from (`tie: 'control-went-back'`);
 * - a weak pass that `memory` records (the control led from this page to this page in
 *   verified steps before, every time, or three times in four and twice at least) is
 *   strong (`tie: 'known-transition'`); so is one on a page where the control was never
 *   acted, when it led to a page like this from other pages and no other control reached
 *   one (`tie: 'known-destination'`).
 * Pure: the control loop, skills and `senseact verify-replay` all call this one function,
 * so they cannot drift apart.
 */
export function verifyUnitStep(input: UnitStepInput): UnitStepVerdict {
  const { unit, before, after } = input;
  const delta = input.delta ?? computeDelta(before, after);
  const contract = unitContract(unit, input.args, before, after, delta);
  let verdict = input.expectation && (expectationJudgedWithUnit(unit) || input.args.longPress === true) ? withExpectation(unit, contract, evaluateExpectation(input.expectation, { before, after, delta })) : contract;
  if (verdict.outcome === 'fail' && delta.label === 'no-change') {
    if (shownAsChosen(unit)) {
      verdict = { outcome: 'pass', reason: `${unit.type} "${unit.label}" was already chosen and still is`, evidence: verdict.evidence, code: alreadySelectedCode, strength: 'strong', tie: 'already-chosen' };
    } else if (verdict.code === 'no-change' && isPixelOnlyUnit(unit, before)) {
      verdict = { ...verdict, reason: `${verdict.reason}; it is an icon without text or state, so its effect may show only in pixels`, code: pixelOnlyCode };
    }
  }
  if (input.openedFrom) verdict = withDialogValue(verdict, input.openedFrom, input.before, input.after);
  else if (input.cameFrom) verdict = withEditorSaved(verdict, unit, input.cameFrom, before, input.after, delta);
  verdict = withEditorFinished(verdict, unit, before, after);
  if (unit.navigation === 'back' || unit.navigation === 'home') verdict = withNavigation(verdict, unit.navigation, input);
  else verdict = withDismissal(verdict, input);
  return input.memory ? withMemory(verdict, input.memory, input) : verdict;
}

/**
 * A weak pass on a dialog's commit, the dialog dumped without the page under it, is strong
 * when the page it was opened from now shows the value the dialog's field held (not shown
 * before: `dialog-value-shown`), or when the screen after is that page, changed
 * (`opened-from-changed`: the contact list without the contact deleted, the alarm list with
 * the alarm set). Cancel returns to that page as it was; a page that switched its tab is
 * another view of the app, not that page changed.
 */
function withDialogValue(verdict: VerifyOutcome, openedFrom: UiTree, dialog: UiTree, after: UiTree): VerifyOutcome {
  if (verdict.outcome !== 'pass' || verdict.strength !== 'weak' || verdict.tie !== dismissedPageNotInDump) return verdict;
  const shown = dialogValueTie(dialog, after, openedFrom);
  if (shown !== undefined) return { ...verdict, reason: `${verdict.reason}; ${shown.reason}`, strength: 'strong', tie: shown.kind };
  const changes = changedSince(openedFrom, after);
  if (changes === undefined) return verdict;
  return { ...verdict, reason: `${verdict.reason}; the page it was opened from is back, changed (${changes} change(s))`, strength: 'strong', tie: 'opened-from-changed' };
}

/**
 * A weak pass on an editor's commit (a page with a field holding a value: "Save" on a new
 * contact) that left for the page the run came from (`cameFrom`), back changed on the same
 * tab (the list with the new contact), is strong (`came-from-changed`): Cancel or Back
 * returns to that page as it was. A commit elsewhere ("OK" on a settings page) leads back to
 * a page that changes for other reasons as often (on the DroidBot runs: 10 wrong-effect
 * passes), so only an editor's counts.
 */
function withEditorSaved(verdict: VerifyOutcome, unit: ControlUnit, cameFrom: UiTree, before: UiTree, after: UiTree, delta: Delta): VerifyOutcome {
  if (verdict.outcome !== 'pass' || verdict.strength !== 'weak' || unit.type !== 'commit' || delta.label !== 'new-page') return verdict;
  if (!holdsFilledField(before)) return verdict;
  const changes = changedSince(cameFrom, after);
  if (changes === undefined) return verdict;
  return { ...verdict, reason: `${verdict.reason}; the editor left for the page the run came from, back changed (${changes} change(s))`, strength: 'strong', tie: 'came-from-changed' };
}

/** True when the screen holds a field with a value typed or chosen in it (not a password): an editor. */
function holdsFilledField(screen: UiTree): boolean {
  return screen.nodes.some((node) => node.editable && !node.password && isFilled(node));
}

/**
 * A weak pass on an editor's commit ("Save" on a new event: a field holds a value, or the
 * commit is named to save) is strong when the device's activity stack after is the one before
 * less the activity on top (`editor-finished`): saving finishes the editor's activity, wherever
 * the run came from. Only one activity: a commit that closed more than its own did something
 * else (a dialog's OK on a details page whose stack fell back to the app's first page is
 * another step's effect). Another commit ("OK", "Yes" on a dialog) that finished an activity
 * is not tied.
 */
function withEditorFinished(verdict: VerifyOutcome, unit: ControlUnit, before: UiTree, after: UiTree): VerifyOutcome {
  if (verdict.outcome !== 'pass' || verdict.strength !== 'weak' || unit.type !== 'commit') return verdict;
  // The stacks first: a screen without one (an XML dump, a device whose shell is closed) needs no walk over its nodes.
  const finished = after.activityStack.length === before.activityStack.length - 1 ? finishedActivity(before, after) : undefined;
  if (finished === undefined || !(holdsFilledField(before) || namedToSave(unit))) return verdict;
  return { ...verdict, reason: `${changeSeen(verdict)}; the editor's commit finished ${finished}, the activity on top (the device's activity stack)`, strength: 'strong', tie: 'editor-finished' };
}

/** How many changes `after` shows on `page` when it is that page changed on the same tab (no surface came or went, no tab switched); else undefined. */
function changedSince(page: UiTree, after: UiTree): number | undefined {
  const since = computeDelta(page, after);
  const samePageChanged = since.label === 'partial-change' && !since.newSurface && !since.dismissedSurface && since.selectionChanges.length === 0;
  return samePageChanged ? since.changes.length : undefined;
}

/**
 * A weak pass on Back or Home tied to the key: Back that led to a page like the one the run
 * came from (Back pops the page, or closes the dialog: `went-back`), Back that finished the
 * activity on top, by the device's activity stack (`activity-finished`), Back with no page under
 * it on the trail that left the app's page for the home screen (`left-for-home`: Back does
 * that on an app's last page only; below any other, it shows the page under it), and Home
 * that left an app for the home screen (`home-screen`), are strong. Back that reached the
 * home screen from a page the trail holds a page under is not: it should have led there.
 */
function withNavigation(verdict: VerifyOutcome, key: 'back' | 'home', input: UnitStepInput): VerifyOutcome {
  if (verdict.outcome !== 'pass' || verdict.strength !== 'weak') return verdict;
  const seen = changeSeen(verdict);
  const { before, after } = input;
  if (key === 'back' && returnedToCameFrom(input)) {
    return { ...verdict, reason: `${seen}; it returned to the page the run came from`, strength: 'strong', tie: 'went-back' };
  }
  const finished = key === 'back' ? finishedActivity(before, after) : undefined;
  if (finished !== undefined) {
    return { ...verdict, reason: `${seen}; the device's activity stack shows it finished ${finished}, the activity on top, and the one under it is on top again`, strength: 'strong', tie: 'activity-finished' };
  }
  if (key === 'back' && input.cameFrom === undefined && leftForHome(before, after)) {
    return { ...verdict, reason: `${seen}; with no page under it on the trail, it left ${before.packageName} for the home screen (${after.packageName}), as Back does on an app's last page`, strength: 'strong', tie: 'left-for-home' };
  }
  if (key === 'home' && !isLauncherPackage(before.packageName) && isLauncherPackage(after.packageName)) {
    return { ...verdict, reason: `${seen}; it left ${before.packageName || 'the app'} for the home screen (${after.packageName})`, strength: 'strong', tie: 'home-screen' };
  }
  return verdict;
}

/**
 * The activity `before` had on top when the device's activity stack after is the one before
 * less its top (or several from the top); undefined otherwise, or when either screen carries
 * no stack (DroidBot records it, a device observation reads it when its shell allows, an XML
 * dump has none). Back finishes the task's top
 * activity in every app, and the one under it shows as it was left. A dialog dumped alone
 * after it counts only when the activity finished was another app's (a file picker, a
 * chooser: the dialog that started it shows again); after the app's own page, another
 * control that finished it shows a dialog as often (a slider's), which Back does not.
 */
function finishedActivity(before: UiTree, after: UiTree): string | undefined {
  const under = after.activityStack;
  const stack = before.activityStack;
  if (under.length === 0 || stack.length <= under.length) return undefined;
  if (dialogOnly(after) && splitComponentName(stack[0]!).packageName === splitComponentName(under[0]!).packageName) return undefined;
  const rest = stack.slice(stack.length - under.length);
  return rest.every((activity, index) => activity === under[index]) ? stack[0] : undefined;
}

/**
 * True when `before` is a page of an app (not a dialog dumped alone, not a permission or "not
 * responding" dialog over it) and `after` the home screen shown whole (no dialog over it):
 * what Back on the app's last page does.
 */
function leftForHome(before: UiTree, after: UiTree): boolean {
  const onAppPage = before.packageName !== '' && !isLauncherPackage(before.packageName) && !dialogOnly(before) && !findBlockers(before).some((blocker) => blocker.kind !== 'error-toast');
  return onAppPage && isLauncherPackage(after.packageName) && !dialogOnly(after);
}

/**
 * A weak pass on a control that says it leaves the screen (`dismissalControl`: a Cancel, a
 * Close, the app bar's up button, a dialog's only button) is strong when it led to the page
 * the run came from, as Back is (`control-went-back`). Other controls are not: a page the
 * run came from is as likely the effect of another control on the same screen (a Back
 * beside it).
 */
function withDismissal(verdict: VerifyOutcome, input: UnitStepInput): VerifyOutcome {
  if (verdict.outcome !== 'pass' || verdict.strength !== 'weak') return verdict;
  const kind = dismissalControl(input.unit, input.before);
  if (kind === undefined || !returnedToCameFrom(input)) return verdict;
  const control = kind === 'up' ? 'the app bar\'s up button' : kind === 'only' ? 'the dialog\'s only control' : 'a control named to leave the screen';
  return { ...verdict, reason: `${changeSeen(verdict)}; ${control} returned to the page the run came from`, strength: 'strong', tie: 'control-went-back' };
}

/** True when the screen after is a page like the one the run came to `before` from (`cameFrom`). */
function returnedToCameFrom({ cameFrom, after }: UnitStepInput): boolean {
  return cameFrom !== undefined && similarity(pagePrints(cameFrom), pagePrints(after)) >= samePageSimilarity;
}

/** A weak pass's reason without its `untiedEnding`: what was seen, to which a tie is added. */
function changeSeen(verdict: VerifyOutcome): string {
  return verdict.reason.endsWith(untiedEnding) ? verdict.reason.slice(0, -untiedEnding.length) : verdict.reason;
}

/**
 * A weak pass the memory records is strong: this control led from this page to this page
 * before (every time, or three times in four), or, on a page it was never acted on, it led
 * to a page like this from other pages and no other control ever reached one like it.
 */
function withMemory(verdict: VerifyOutcome, memory: TransitionRecall, input: UnitStepInput): VerifyOutcome {
  if (verdict.outcome !== 'pass' || verdict.strength !== 'weak') return verdict;
  const { same, other, elsewhere } = memory.recall(input.unit, input.before, input.after);
  if (same === 0) return verdict;
  const times = same === 1 ? 'once' : `${same} times`;
  const others = other === 0 ? 'and never another' : `and another ${other === 1 ? 'once' : `${other} times`}`;
  const seen = changeSeen(verdict);
  if (elsewhere === true) {
    return { ...verdict, reason: `${seen}; from other pages this control led to this page ${times} before (verified), ${others}, and no other control led to it`, strength: 'strong', tie: 'known-destination' };
  }
  return { ...verdict, reason: `${seen}; this control had the same effect from this page ${times} before (verified), ${others}`, strength: 'strong', tie: 'known-transition' };
}
