import { boundsArea, boundsIou, intersectBounds } from '../ui/bounds.js';
import type { ScrollDirection } from '../ui/scroll-direction.js';
import { systemUiPackage } from '../ui/parse-hierarchy.js';
import type { ControlUnit } from '../perception/control-unit.js';
import { isAdjustableClass } from '../perception/reduce-tree.js';
import type { Bounds, NodeIndex, UiNode, UiTree } from '../ui/ui-tree.js';
import { assertNever } from '../util/assert-never.js';
import { dialogSized, isComparedNode, matchIouThreshold, type Delta } from './compute-delta.js';
import { digitsOnly, matchString, subtreeEnd } from './find-nodes.js';
import { anchorSlackPx, looseText, namesLabel, permissionTie, sameLabel, textsUnder, tiedEvidence, unitIndices, unitLabels } from './tied-evidence.js';
import { isStateWord } from './state-word-swap.js';
import type { TieKind } from './tie-kinds.js';
import { describeNode, nodeRef, type EvidenceStrength, type NodeRef, type Outcome, type VerifyOutcome } from './verify-outcome.js';

/** Arguments a commitment gives a unit, as far as its contract needs them. */
export interface ContractArgs {
  /** `fill`: the text typed. `select`: the option chosen. */
  readonly value?: string;
  /**
   * `fill`: the text was typed at the cursor without clearing the field first (as `adb
   * shell input text` does in recorded demonstrations), so the field may hold this text
   * followed by `value`. The loop clears a field before typing and never sets it.
   */
  readonly priorText?: string;
  /**
   * `fill`: the typing was followed by Enter / Search (a recorded demonstration that did
   * both in one step), so the page may have moved on: a results page showing the value
   * counts. The loop types without submitting and never sets it.
   */
  readonly submitted?: boolean;
  /** `toggle`: the wanted final state; without it the contract wants a flip. */
  readonly checked?: boolean;
  /** The unit was long-pressed (a checklist row held to delete it): its contract is "something changed", whatever its type — a long press does not flip a switch. */
  readonly longPress?: boolean;
  /** `navigate` / `click`: the package the action should lead to. */
  readonly package?: string;
  /** `navigate` / `click`: the activity (contains) the action should lead to. */
  readonly activity?: string;
  /**
   * `scroll`: which way content was to move into view (`down` shows what is further down).
   * With it the content must have moved that way; without it, any move passes (weakly when
   * no item stayed in view to tell the way).
   */
  readonly direction?: ScrollDirection;
}

function outcome(value: Outcome, reason: string, evidence: readonly NodeRef[] = [], code?: string): VerifyOutcome {
  return code === undefined ? { outcome: value, reason, evidence } : { outcome: value, reason, evidence, code };
}

function pass(tie: TieKind, reason: string, strength: EvidenceStrength, evidence: readonly NodeRef[] = [], code?: string): VerifyOutcome {
  return { outcome: 'pass', reason, evidence, strength, tie, ...(code === undefined ? {} : { code }) };
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

/** Whether a node shows as chosen: `checked` and `selected` mean the same to a user (a radio is checked, a tab selected). */
export function isChosen(node: UiNode): boolean {
  return node.checked || node.selected;
}

/**
 * True when the only thing that changed is the reported activity: the hierarchy is the
 * same (a trampoline activity, or a dump taken before the new window drew).
 */
export function activityOnly(delta: Delta): boolean {
  return delta.activityChanged && !delta.packageChanged && delta.changes.length === 0 && delta.imageChanges === 0 && delta.rho >= 0.95;
}

const activityOnlyCode = 'activity-only';

/**
 * The code of a verdict on a unit whose effect may show only in pixels: an icon without text
 * or state that changed nothing in the hierarchy, a list or pager that holds only images.
 * The loop asks vision at once (acting again may undo the first action).
 */
export const pixelOnlyCode = 'pixel-only';

/** How the reason of a weak "the screen changed" pass ends; a tie found later replaces it (`verifyUnitStep`). */
export const untiedEnding = '; nothing ties it to the unit';

/**
 * Verdict for a unit whose effect is "something changed" (click, long-press, a field
 * tapped without a value): no change fails; a change with evidence tied to the unit is a
 * strong pass, any other change a weak one.
 */
function changeContract(unit: ControlUnit, before: UiTree, after: UiTree, delta: Delta, what: string): VerifyOutcome {
  if (delta.label === 'no-change') return outcome('fail', `${what}: nothing on screen changed (ρ=${delta.rho.toFixed(2)})`, [], 'no-change');
  if (activityOnly(delta)) return outcome('inconclusive', `${what}: the activity changed (${after.activity}) but nothing on screen did`, [], activityOnlyCode);
  // Back, Home and launch are keys, not views: their labels are ours, and a page that shows one does not name them.
  const tied = unit.navigation === undefined ? tiedEvidence(unit, before, after, delta) : undefined;
  return tied !== undefined
    ? pass(tied.kind, `${what}: ${tied.reason}`, 'strong')
    : pass('screen-changed', `${what}: the screen changed (${delta.label}, ρ=${delta.rho.toFixed(2)}, ${delta.changes.length} change(s)${delta.changes.length === 0 && delta.imageChanges > 0 ? `, only ${delta.imageChanges} image(s) came or went` : ''})${untiedEnding}`, 'weak');
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
  return pass('page-as-asked', `on ${after.packageName}${after.activity ? `/${after.activity}` : ''} as asked`, 'strong');
}

/** What a page shows for a typed value: the value, or for a web address its host (a browser's address bar shows "uci.edu"). */
function shownForms(value: string): string[] {
  const forms = [looseText(value)];
  const host = /^\s*(?:https?:\/\/)?(?:www\.)?([a-z0-9-]+(?:\.[a-z0-9-]+)+)/i.exec(value)?.[1];
  if (host && /[./]/.test(value)) forms.push(host.toLowerCase());
  return forms.filter((form) => form.length >= 2);
}

/** True when `text` holds `form` as a whole: not as the tail of a longer word or host name ("uci.edu" is not in "ics.uci.edu"). */
function holdsWhole(text: string, form: string): boolean {
  const loose = looseText(text);
  for (let at = loose.indexOf(form); at >= 0; at = loose.indexOf(form, at + 1)) {
    const before = loose[at - 1];
    if (before === undefined || /[\s/:"'(]/.test(before)) return true;
  }
  return false;
}

/** A node of the after screen that shows `value` (text or description, case- and space-insensitive). */
function showsValue(after: UiTree, value: string): UiNode | undefined {
  const forms = shownForms(value);
  if (forms.length === 0) return undefined;
  const shows = (text: string): boolean => text !== '' && forms.some((form) => holdsWhole(text, form));
  return after.nodes.find((node) => shows(node.text) || shows(node.contentDesc));
}

/** A node of `tree` over most of `field`'s place (or inside it) that shows `value`. */
function showsValueAt(tree: UiTree, value: string, field: UiNode): UiNode | undefined {
  const forms = shownForms(value);
  if (forms.length === 0) return undefined;
  const shows = (text: string): boolean => text !== '' && forms.some((form) => holdsWhole(text, form));
  return tree.nodes.find((node) => (shows(node.text) || shows(node.contentDesc)) && coversMostOf(node.bounds, field.bounds));
}

/** True when the two rectangles share at least half of the smaller one. */
function coversMostOf(a: Bounds, b: Bounds): boolean {
  const shared = boundsArea(intersectBounds(a, b));
  return shared > 0 && shared >= Math.min(boundsArea(a), boundsArea(b)) / 2;
}

/** Equal once the whitespace is ignored: text typed at the cursor joins what the field held with or without a space. */
function sameIgnoringSpaces(left: string, right: string): boolean {
  return left.replace(/\s+/g, '') === right.replace(/\s+/g, '');
}

/** A number as a slider shows it (its text is its value): "40", "40.0", "40%". */
function shownNumber(text: string): number | undefined {
  const match = /^\s*(-?\d+(?:\.\d+)?)\s*%?\s*$/.exec(text);
  return match ? Number(match[1]) : undefined;
}

/**
 * A slider set to a percentage: it passes when its node now reads that number (a 0–100
 * slider shows the percentage itself). Another number proves nothing either way — the
 * slider's scale is not in the tree — and a slider showing no number is not checked here.
 */
function sliderContract(unit: ControlUnit, slider: UiNode, args: ContractArgs, after: UiTree, delta: Delta): VerifyOutcome {
  const wanted = args.value === undefined ? undefined : Number(args.value);
  if (wanted === undefined || !Number.isFinite(wanted)) return outcome('inconclusive', `fill "${unit.label}": a slider set without a number`);
  const now = locateAfter(slider, after, delta);
  if (!now) return outcome('inconclusive', `fill "${unit.label}": the slider ${describeNode(slider)} is not on the after screen`, [nodeRef(slider, 'before')]);
  const shown = shownNumber(now.text);
  if (shown === undefined) return outcome('inconclusive', `fill "${unit.label}": the slider shows no value to compare`, [nodeRef(now)]);
  if (shown === wanted) return pass('slider-reads-value', `fill "${unit.label}": the slider reads ${now.text.trim()}`, 'strong', [nodeRef(now)]);
  return outcome('inconclusive', `fill "${unit.label}": the slider reads ${now.text.trim()}, not ${args.value}; its scale is not on the screen`, [nodeRef(now)]);
}

function fillContract(unit: ControlUnit, args: ContractArgs, before: UiTree, after: UiTree, delta: Delta): VerifyOutcome {
  const field = memberWith(unit, before, (node) => node.editable);
  const slider = field ? undefined : memberWith(unit, before, (node) => isAdjustableClass(node.className));
  if (slider) return sliderContract(unit, slider, args, after, delta);
  if (!field) return outcome('inconclusive', `fill "${unit.label}": the unit has no editable node`);
  // A field tapped without a value is a tap to focus it or to open its picker.
  if (args.value === undefined) {
    const focused = locateAfter(field, after, delta);
    if (focused?.focused && !field.focused) return pass('field-focused', `fill "${unit.label}": the field took the focus`, 'strong', [nodeRef(focused)]);
    if (delta.newSurface && !delta.packageChanged) {
      // Any step may open a dialog: a picker is the field's when it drops from the field or names it.
      const picker = delta.surfacesAdded.find((surface) => pickerOfField(unit, field, before, after, surface.root));
      return picker !== undefined
        ? pass('picker-opened', `fill "${unit.label}": its picker opened`, 'strong')
        : pass('surface-opened', `fill "${unit.label}": a surface opened, neither at the field nor naming it`, 'weak');
    }
    // A search box that is only a button opens the search page, with its own field focused. Every search page
    // opens so: the field is the box's when it is named like it.
    const input = delta.label === 'new-page' ? after.nodes.find((node) => node.editable && node.focused) : undefined;
    if (input) {
      const named = unitLabels(unit, before).some((label) => [input.hint, input.text, input.contentDesc].some((text) => text !== '' && (sameLabel(text, label) || namesLabel(text, label))));
      return pass(named ? 'page-field-focused' : 'some-field-focused', `fill "${unit.label}": it opened a page whose field ${describeNode(input)} has the focus${named ? '' : ', not named like it'}`, named ? 'strong' : 'weak', [nodeRef(input)]);
    }
    const changed = changeContract(unit, before, after, delta, `fill "${unit.label}" (tapped, no value)`);
    // Tapping a field does not turn the page by itself: without a focused field there, the tap's effect is unproven.
    if (changed.outcome === 'pass' && changed.strength === 'weak' && delta.label === 'new-page') {
      return outcome('inconclusive', `fill "${unit.label}" (tapped, no value): the page turned and no field has the focus`, [], 'page-turned');
    }
    return changed;
  }
  const now = locateAfter(field, after, delta);
  if (!now || (args.submitted === true && normaliseValue(now.text) !== normaliseValue(args.value))) {
    // Typing that was submitted (Enter / Search) leaves the page; the results page often shows what was typed.
    const shown = args.submitted === true ? showsValue(after, args.value) : undefined;
    if (shown && delta.label !== 'no-change') return pass('submitted-value-shown', `fill "${unit.label}": the typing was submitted and ${describeNode(shown)} shows the typed value`, 'strong', [nodeRef(shown)], 'value-shown-elsewhere');
    // Without a recorded submit, the page that replaced the field must show the typed value where the field was
    // (a search bar that now reads the query); the value elsewhere may be a suggestion or another page's text.
    const inPlace = !now && args.submitted !== true && delta.label !== 'no-change' ? showsValueAt(after, args.value, field) : undefined;
    if (inPlace && !showsValueAt(before, args.value, field)) {
      return pass('value-in-field-place', `fill "${unit.label}": the field left the screen and ${describeNode(inPlace)} in its place shows the typed value`, 'strong', [nodeRef(inPlace)], 'value-shown-elsewhere');
    }
    if (!now) return outcome('inconclusive', `fill "${unit.label}": the field ${describeNode(field)} is not on the after screen`, [nodeRef(field, 'before')]);
  }
  const evidence = [nodeRef(now)];
  if (now.password || field.password || unit.state.password) {
    return outcome('inconclusive', `fill "${unit.label}": password field, its text is masked and cannot be compared`, evidence, 'password');
  }
  const wanted = normaliseValue(args.value);
  const shown = normaliseValue(now.text);
  const hint = normaliseValue(now.hint || field.hint || unit.state.hint || '');
  if (shown === wanted && wanted !== '' && wanted === hint) {
    return outcome('inconclusive', `fill "${unit.label}": the value equals the field's hint ${JSON.stringify(hint)}; typed text and hint look the same`, evidence, 'value-is-hint');
  }
  const holds = shown === wanted || (args.priorText !== undefined && sameIgnoringSpaces(shown, normaliseValue(args.priorText + args.value)));
  // Typing changes a field, not the page: a page that turned while the field shows the value is another page's field.
  if (holds && (delta.packageChanged || delta.activityChanged) && args.submitted !== true) {
    return outcome('inconclusive', `fill "${unit.label}": the field holds ${JSON.stringify(now.text)} but the page turned (${delta.packageChanged ? 'another app' : 'another activity'}); typing does not turn pages`, evidence, 'page-turned');
  }
  if (shown === wanted) return pass('field-holds-value', `fill "${unit.label}": the field holds ${JSON.stringify(now.text)}`, 'strong', evidence);
  if (holds) {
    return pass('field-holds-value', `fill "${unit.label}": the field holds ${JSON.stringify(now.text)} (typed after ${JSON.stringify(args.priorText)}, not cleared)`, 'strong', evidence);
  }
  if (shown !== '' && shown === hint) return outcome('fail', `fill "${unit.label}": the field shows its hint ${JSON.stringify(now.hint || hint)}, not ${JSON.stringify(args.value)}`, evidence, 'shows-hint');
  // Fields that format what was typed (phone numbers, card numbers) keep the digits.
  const wantedDigits = digitsOnly(wanted);
  if (wantedDigits.length >= 3 && wantedDigits.length >= wanted.replace(/[\s()+\-.]/g, '').length && digitsOnly(shown) === wantedDigits) {
    return pass('field-holds-digits', `fill "${unit.label}": the field holds ${JSON.stringify(now.text)} (same digits as ${JSON.stringify(args.value)})`, 'strong', evidence);
  }
  return outcome('fail', `fill "${unit.label}": the field holds ${JSON.stringify(now.text)}, expected ${JSON.stringify(args.value)}`, evidence, 'value-mismatch');
}

/** The texts of a surface that appeared, for "does the prompt name the unit". */
function addedSurfaceTexts(after: UiTree, delta: Delta): string[] {
  return delta.surfacesAdded.flatMap((surface) => textsUnder(after, surface.root));
}

/**
 * The root of an after screen that is one confirmation dialog and nothing else: a dump of
 * the dialog's window alone (smaller than the screen), the page it covers not in it, so
 * no surface was added to the page.
 */
function loneDialog(after: UiTree): NodeIndex | undefined {
  // (The system bars are windows of their own in a dump, around any app's window.)
  const roots = after.roots.map((index) => after.nodes[index]).filter((node) => node !== undefined && node.packageName !== systemUiPackage);
  const root = roots[0];
  if (roots.length !== 1 || !root || !dialogSized(after, root.index)) return undefined;
  return isConfirmation(after, root.index) ? root.index : undefined;
}

function toggleContract(unit: ControlUnit, args: ContractArgs, before: UiTree, after: UiTree, delta: Delta): VerifyOutcome {
  const toggle = memberWith(unit, before, (node) => node.checkable);
  if (!toggle) return outcome('inconclusive', `toggle "${unit.label}": the unit has no checkable node`);
  const now = sameNamedAfter(toggle, before, after, locateAfter(toggle, after, delta));
  if (!now) {
    // A switch that asks first ("Turn off …?", "Enable this keyboard?") shows a confirmation instead of flipping,
    // in its own app and activity (a dialog of another window is not the switch's question).
    const confirmation = delta.packageChanged || delta.activityChanged ? undefined : (delta.surfacesAdded.find((surface) => isConfirmation(after, surface.root))?.root ?? loneDialog(after));
    if (confirmation !== undefined) {
      const labels = unitLabels(unit, before).map(looseText);
      const texts = delta.surfacesAdded.some((surface) => surface.root === confirmation) ? addedSurfaceTexts(after, delta) : textsUnder(after, confirmation);
      const named = texts.some((text) => labels.some((label) => label.length >= 2 && looseText(text).includes(label)));
      return pass(named ? 'confirmation-names-label' : 'confirmation-opened', `toggle "${unit.label}": it asked for confirmation (a ${named ? 'dialog naming it' : 'confirmation dialog'} opened); the surface rules take it from here`, named ? 'strong' : 'weak', [], 'raised-prompt');
    }
    // A section of a picker (the minutes of a time input) turns into the active field in its place.
    const inPlace = after.nodes.find((node) => boundsIou(node.bounds, toggle.bounds) >= matchIouThreshold && (node.focused || isChosen(node)));
    if (inPlace && !toggle.focused) return pass('picker-section-active', `toggle "${unit.label}": ${describeNode(inPlace)} in its place is now ${inPlace.focused ? 'focused' : 'chosen'}`, 'strong', [nodeRef(inPlace)]);
    return outcome('inconclusive', `toggle "${unit.label}": ${describeNode(toggle)} is not on the after screen`, [nodeRef(toggle, 'before')]);
  }
  const evidence = [nodeRef(toggle, 'before'), nodeRef(now)];
  if (args.checked !== undefined) {
    return now.checked === args.checked
      ? pass('checked-as-wanted', `toggle "${unit.label}": ${args.checked ? 'checked' : 'unchecked'} as wanted`, 'strong', evidence)
      : outcome('fail', `toggle "${unit.label}": still ${now.checked ? 'checked' : 'unchecked'}, wanted ${args.checked ? 'checked' : 'unchecked'}`, evidence, 'not-toggled');
  }
  if (now.checked !== toggle.checked && delta.label !== 'partial-change' && !labelInRow(unit, before, after, now)) {
    // The page turned: the switch matched at its place may be another page's, in another state of its own.
    return pass('switch-at-place-flipped', `toggle "${unit.label}": the page turned; the switch in its place reads ${now.checked ? 'on' : 'off'}, but its label is not beside it`, 'weak', evidence);
  }
  return now.checked !== toggle.checked
    ? pass('toggle-flipped', `toggle "${unit.label}": flipped ${toggle.checked ? 'on → off' : 'off → on'}`, 'strong', evidence)
    : outcome('fail', `toggle "${unit.label}": did not flip (still ${now.checked ? 'checked' : 'unchecked'})`, evidence, 'not-toggled');
}

/** The texts and descriptions of a node and everything under it, in order. */
function subtreeText(tree: UiTree, node: UiNode): string {
  return looseText(textsUnder(tree, node.index).join(' '));
}

/**
 * The after node that is `node` by name: the one matched at its place when it reads the same,
 * else the one checkable node of its class and resource-id that does (a chip, once checked,
 * moves to the first place of its row; the chip now in its old place is another). A switch
 * whose text is only a state word ("ON", "OFF") is found by its place instead.
 */
function sameNamedAfter(node: UiNode, before: UiTree, after: UiTree, placed: UiNode | undefined): UiNode | undefined {
  const name = subtreeText(before, node);
  const alike = (candidate: UiNode): boolean => candidate.checkable && candidate.className === node.className && candidate.resourceId === node.resourceId;
  // A switch reading "OFF" says its state, not which switch it is: matched by that text, it is the other
  // switch that still reads "OFF". It is the switch of its class and id in its place.
  if (isStateWord(name)) return after.nodes.find((candidate) => alike(candidate) && boundsIou(candidate.bounds, node.bounds) >= matchIouThreshold) ?? placed;
  if (name === '' || (placed && subtreeText(after, placed) === name)) return placed;
  const named = after.nodes.filter((candidate) => alike(candidate) && subtreeText(after, candidate) === name);
  return named.length === 1 ? named[0] : placed;
}

/** True when the surface at `root` is the field's picker: it drops from the field, or its texts name the field. */
function pickerOfField(unit: ControlUnit, field: UiNode, before: UiTree, after: UiTree, root: NodeIndex): boolean {
  const surface = after.nodes[root];
  if (!surface) return false;
  // A drop-down lines up with the field's left edge, under it or over it (an overflow menu lines up with the screen's right).
  const close = (a: number, b: number): boolean => Math.abs(a - b) <= anchorSlackPx;
  // (Places compare only on screens of one size: a dump of a lone window has its own.)
  const [left, top] = surface.bounds;
  if (after.width === before.width && close(left, field.bounds[0]) && (close(top, field.bounds[3]) || close(top, field.bounds[1])) && boundsArea(surface.bounds) < after.width * after.height * 0.9) return true;
  const labels = unitLabels(unit, before);
  const end = subtreeEnd(after, root);
  for (let index = root; index < end; index++) {
    const node = after.nodes[index];
    const text = node ? node.text || node.contentDesc : '';
    if (text !== '' && labels.some((label) => sameLabel(text, label) || namesLabel(text, label))) return true;
  }
  return false;
}

/** True when a text naming the unit sits in the row of `now` (the after screen's switch): the same setting, not another one in its place. */
function labelInRow(unit: ControlUnit, before: UiTree, after: UiTree, now: UiNode): boolean {
  const labels = unitLabels(unit, before).map(looseText).filter((label) => label !== '');
  return after.nodes.some((node) => {
    const text = looseText(node.text || node.contentDesc);
    const inRow = node.bounds[1] < now.bounds[3] && node.bounds[3] > now.bounds[1];
    return inRow && text !== '' && labels.includes(text);
  });
}

/** Button captions that decline: a confirmation offers one of them beside the button that goes ahead. */
const negativeCaption = /^(cancel|no|not now|don['’]?t allow|deny|decline|never|取消|否|拒绝|拒絕|不允许|不允許|キャンセル|拒否|abbrechen|ablehnen|annuler|refuser)$/i;

/** A confirmation dialog: two or three buttons, one of them declining, and no options to choose from. */
function isConfirmation(tree: UiTree, root: NodeIndex): boolean {
  const end = subtreeEnd(tree, root);
  const buttons: UiNode[] = [];
  for (let index = root; index < end; index++) {
    const node = tree.nodes[index];
    if (!node) continue;
    if (node.checkable) return false;
    if (node.clickable && (node.text || node.contentDesc)) buttons.push(node);
  }
  return buttons.length >= 2 && buttons.length <= 3 && buttons.some((button) => negativeCaption.test((button.text || button.contentDesc).trim()));
}

const optionClass = /RadioButton$|CheckedTextView$/;

function isOptionLike(node: UiNode): boolean {
  return node.checkable || optionClass.test(node.className);
}

/**
 * The other options of the option's group: the option-like nodes (or same-class nodes)
 * under the nearest ancestor that holds more than one of them, outside the option itself.
 */
function groupSiblings(option: UiNode, before: UiTree): UiNode[] {
  const alike = (node: UiNode): boolean => node.index !== option.index && (isOptionLike(option) ? isOptionLike(node) : node.className === option.className && node.clickable === option.clickable);
  for (let ancestor = option.parent; ancestor >= 0; ancestor = before.nodes[ancestor]?.parent ?? -1) {
    const end = subtreeEnd(before, ancestor);
    const optionEnd = subtreeEnd(before, option.index);
    const siblings: UiNode[] = [];
    for (let index = ancestor + 1; index < end; index++) {
      if (index >= option.index && index < optionEnd) continue;
      const node = before.nodes[index];
      if (node && alike(node)) siblings.push(node);
    }
    if (siblings.length > 0) return siblings;
  }
  return [];
}

/** The label an option goes by: the value asked for, else the option's own text. */
function optionLabel(unit: ControlUnit, option: UiNode, args: ContractArgs): string {
  return args.value ?? (option.text || option.contentDesc || unit.label);
}

function selectContract(unit: ControlUnit, args: ContractArgs, before: UiTree, after: UiTree, delta: Delta): VerifyOutcome {
  const primary = memberNodes(unit, before)[0];
  if (!primary) return outcome('inconclusive', `select "${unit.label}": the unit has no node`);
  if (/Spinner$/.test(primary.className)) return spinnerContract(unit, primary, args, before, after, delta);
  const option = memberWith(unit, before, isOptionLike) ?? primary;
  const label = optionLabel(unit, option, args);
  const now = locateAfter(option, after, delta);
  if (now) {
    if (isChosen(now) && !isChosen(option)) {
      return pass('option-chosen', `select "${unit.label}": ${describeNode(now)} is ${now.checked ? 'checked' : 'selected'}`, 'strong', [nodeRef(now)]);
    }
    // Only the unit's own group counts: another option of it that became chosen means the wrong one was taken.
    for (const sibling of groupSiblings(option, before)) {
      const later = locateAfter(sibling, after, delta);
      if (later && isChosen(later) && !isChosen(sibling)) {
        return outcome('fail', `select "${unit.label}": another option of its group became chosen: ${describeNode(later)}`, [nodeRef(later)], 'other-option');
      }
    }
    if (delta.label === 'no-change') return outcome('fail', `select "${unit.label}": nothing changed`, [], 'no-change');
    if (isChosen(now)) return pass('option-still-chosen', `select "${unit.label}": ${describeNode(now)} is still chosen`, 'weak', [nodeRef(now)]);
    return outcome('inconclusive', `select "${unit.label}": the screen changed but ${describeNode(now)} is not shown as chosen`, [nodeRef(now)]);
  }
  // The option is gone: a single-choice dialog or menu closes on the choice, and the page shows it (a row summary "Light").
  const shown = choiceShown(label, before, after, delta);
  // A single-choice list (radio options) closes on a choice, as Android's dialogs of choices do: the closing is
  // the answer, but a cancel closes it too, so without the choice on screen it ties nothing to the option.
  const options = groupSiblings(option, before).filter(isOptionLike);
  const otherShown = options.map((sibling) => choiceShown(sibling.text || sibling.contentDesc, before, after, delta)).find((node) => node !== undefined);
  if (shown) {
    // The page that shows the choice and another of its choices (a second setting's summary reading it) names
    // neither: had the other been taken, the page would look the same.
    if (otherShown) return pass('choice-shown', `select "${unit.label}": its list closed and ${describeNode(shown)} shows the choice, but ${describeNode(otherShown)} shows another of its choices`, 'weak', [nodeRef(shown)], 'choice-shown');
    return pass('choice-shown', `select "${unit.label}": its list closed and ${describeNode(shown)} shows the choice`, 'strong', [nodeRef(shown)], 'choice-shown');
  }
  if (delta.label === 'no-change') return outcome('fail', `select "${unit.label}": nothing changed`, [], 'no-change');
  if (otherShown) return outcome('inconclusive', `select "${unit.label}": its list closed and ${describeNode(otherShown)} shows another of its choices`, [nodeRef(otherShown)], 'choice-not-shown');
  if (options.length > 0 && !options.some((sibling) => locateAfter(sibling, after, delta))) {
    return pass('choice-list-closed', `select "${unit.label}": its list of choices closed (as a choice closes it), but ${JSON.stringify(label)} is not shown on the screen`, 'weak', [], 'choice-not-shown');
  }
  return outcome('inconclusive', `select "${unit.label}": its list closed but ${JSON.stringify(label)} is not shown on the screen`, [], 'choice-not-shown');
}

/** A node of the after screen whose text is the chosen label and that was not already on the before screen as it is. */
function choiceShown(label: string, before: UiTree, after: UiTree, delta: Delta): UiNode | undefined {
  const wanted = looseText(label);
  if (wanted === '') return undefined;
  const unchanged = new Set<NodeIndex>();
  const edited = new Set<NodeIndex>();
  for (const change of delta.changes) if (change.kind === 'text') edited.add(change.after);
  for (const [beforeIndex, afterIndex] of delta.matches) {
    if (!edited.has(afterIndex) && looseText(before.nodes[beforeIndex]?.text ?? '') === wanted) unchanged.add(afterIndex);
  }
  return after.nodes.find((node) => !unchanged.has(node.index) && (looseText(node.text) === wanted || looseText(node.contentDesc) === wanted));
}

function spinnerContract(unit: ControlUnit, spinner: UiNode, args: ContractArgs, before: UiTree, after: UiTree, delta: Delta): VerifyOutcome {
  if (args.value !== undefined) {
    const wanted = { op: 'equals', value: normaliseValue(args.value), ignoreCase: true } as const;
    const now = locateAfter(spinner, after, delta);
    if (now) {
      const end = subtreeEnd(after, now.index);
      for (let index = now.index; index < end; index++) {
        const candidate = after.nodes[index];
        if (candidate && matchString(wanted, normaliseValue(candidate.text))) return pass('spinner-shows-value', `select "${unit.label}": shows ${JSON.stringify(candidate.text)}`, 'strong', [nodeRef(candidate)]);
      }
    }
    if (delta.newSurface) return outcome('inconclusive', `select "${unit.label}": a picker opened; ${JSON.stringify(args.value)} is not chosen yet`, [], 'picker-open');
    if (delta.label === 'no-change') return outcome('fail', `select "${unit.label}": nothing changed`, [], 'no-change');
    return outcome('fail', `select "${unit.label}": ${JSON.stringify(args.value)} is not shown`, now ? [nodeRef(now)] : [], 'value-mismatch');
  }
  // A spinner tapped without a value opens its list: that is its effect.
  if (delta.newSurface) return pass('list-opened', `select "${unit.label}": its list opened`, 'strong');
  return changeContract(unit, before, after, delta, `select "${unit.label}"`);
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

function scrollContract(unit: ControlUnit, args: ContractArgs, before: UiTree, after: UiTree, delta: Delta): VerifyOutcome {
  const container = memberWith(unit, before, (node) => node.scrollable);
  if (!container) return changeContract(unit, before, after, delta, `scroll "${unit.label}"`);
  const now = locateAfter(container, after, delta);
  if (!now) {
    return delta.label === 'new-page'
      ? outcome('fail', `scroll "${unit.label}": the screen turned into another page`, [], 'left-page')
      : outcome('inconclusive', `scroll "${unit.label}": the container ${describeNode(container)} is not on the after screen`, [nodeRef(container, 'before')]);
  }
  const keysBefore = descendantKeys(before, container);
  const keysAfter = descendantKeys(after, now);
  // Nothing in the container to compare (a pager of photos, a web view): whether it moved shows only in pixels.
  if (keysBefore.size === 0 && keysAfter.size === 0) {
    return outcome('inconclusive', `scroll "${unit.label}": the container holds no text or state on either screen, so whether it moved shows only in pixels`, [nodeRef(now)], pixelOnlyCode);
  }
  let moved = keysBefore.size !== keysAfter.size;
  if (!moved) for (const key of keysAfter) if (!keysBefore.has(key)) { moved = true; break; }
  if (!moved) return outcome('fail', `scroll "${unit.label}": end of list, the container's content did not move`, [nodeRef(now)], 'end-of-list');
  if (args.direction === undefined) return pass('content-moved', `scroll "${unit.label}": the container's content moved`, 'strong', [nodeRef(now)]);
  const shift = contentShift(before, container, after, now, args.direction);
  const way = `${args.direction === 'down' || args.direction === 'up' ? 'further' : 'to the'} ${args.direction}`;
  if (shift === undefined) return pass('content-replaced', `scroll "${unit.label}" ${args.direction}: the container's content changed, and no item stayed in view to show which way it moved`, 'weak', [nodeRef(now)]);
  return shift > 0
    ? pass('content-moved', `scroll "${unit.label}" ${args.direction}: the items that stayed in view moved ${Math.round(shift)} px, showing what is ${way}`, 'strong', [nodeRef(now)])
    : outcome('fail', `scroll "${unit.label}" ${args.direction}: the items that stayed in view moved ${Math.round(-shift)} px the other way`, [nodeRef(now)], 'wrong-direction');
}

/**
 * An item as its row shows it: its fingerprint and the texts of the smallest ancestor below the
 * container `root` that shows another text besides its own (the row that holds it). A name a
 * list shows twice ("China" among the common areas and again under C, a planet that names
 * every seventh hour) is then two items, one scrolled out and the other in, not one that
 * moved the other way.
 */
function rowKey(tree: UiTree, node: UiNode, root: UiNode, texts: Map<NodeIndex, string[]>): string {
  const textsOf = (index: NodeIndex): string[] => {
    let found = texts.get(index);
    if (found === undefined) texts.set(index, (found = textsUnder(tree, index)));
    return found;
  };
  let row = node;
  while (row.parent >= 0 && row.parent !== root.index) {
    const parent = tree.nodes[row.parent];
    if (!parent) break;
    row = parent;
    if (textsOf(row.index).length >= 2) break;
  }
  return `${node.fingerprint}\u0000${row === node ? '' : textsOf(row.index).join('\u0001')}`;
}

/**
 * How far the items of a scrolled container that are in view on both screens moved, within
 * the container, the way a scroll `direction` moves them (content goes up to show what is
 * further down), in pixels: the median over items that occur once in the container on each
 * screen, each measured by an edge along the axis that the container cuts on neither screen
 * (a cut edge is the container's, and the container may itself have moved). Undefined when
 * no such item stayed in view.
 */
function contentShift(before: UiTree, container: UiNode, after: UiTree, now: UiNode, direction: ScrollDirection): number | undefined {
  const vertical = direction === 'down' || direction === 'up';
  /** Each item's leading and trailing edge along the axis, relative to the container; null where the container cuts it. */
  const placed = (tree: UiTree, root: UiNode): Map<string, readonly [number | null, number | null] | null> => {
    const seen = new Map<string, readonly [number | null, number | null] | null>();
    const texts = new Map<NodeIndex, string[]>();
    const end = subtreeEnd(tree, root.index);
    const [low, high] = vertical ? [root.bounds[1], root.bounds[3]] : [root.bounds[0], root.bounds[2]];
    for (let index = root.index + 1; index < end; index++) {
      const node = tree.nodes[index];
      if (!node || !isComparedNode(node, tree) || boundsArea(node.bounds) <= 0) continue;
      const [lead, trail] = vertical ? [node.bounds[1], node.bounds[3]] : [node.bounds[0], node.bounds[2]];
      const key = rowKey(tree, node, root, texts);
      seen.set(key, seen.has(key) ? null : [lead <= low ? null : lead - low, trail >= high ? null : trail - low]);
    }
    return seen;
  };
  const from = placed(before, container);
  const to = placed(after, now);
  const sign = direction === 'down' || direction === 'right' ? -1 : 1;
  const shifts: number[] = [];
  for (const [key, was] of from) {
    const is = to.get(key);
    if (!was || !is) continue;
    const moved = was[0] !== null && is[0] !== null ? is[0] - was[0] : was[1] !== null && is[1] !== null ? is[1] - was[1] : undefined;
    if (moved !== undefined && moved !== 0) shifts.push(moved * sign);
  }
  if (shifts.length === 0) return undefined;
  shifts.sort((left, right) => left - right);
  return shifts[Math.floor(shifts.length / 2)];
}

/** Of the page a surface covered (the compared nodes outside it), at least this share is still on the after screen. */
const coveredPageKeptShare = 0.5;

/** True when the before screen shows the page under the surface at `root` and most of it is still there after. */
function coveredPageKept(root: NodeIndex, before: UiTree, delta: Delta): boolean {
  const end = subtreeEnd(before, root);
  const matched = new Set(delta.matches.map(([beforeIndex]) => beforeIndex));
  let covered = 0;
  let kept = 0;
  for (const node of before.nodes) {
    if ((node.index >= root && node.index < end) || !isComparedNode(node, before)) continue;
    covered += 1;
    if (matched.has(node.index)) kept += 1;
  }
  return covered > 0 && kept >= covered * coveredPageKeptShare;
}

/** A page with a field to type in: an editor, which "Done" takes out of edit mode. */
function editorPage(tree: UiTree): boolean {
  return tree.nodes.some((node) => node.editable);
}

/** The tie of a commit whose dialog, dumped without the page under it, closed: nothing on screen shows where it led. */
export const dismissedPageNotInDump: TieKind = 'dismissed-page-not-in-dump';

function commitContract(unit: ControlUnit, before: UiTree, after: UiTree, delta: Delta): VerifyOutcome {
  const what = `commit "${unit.label}"`;
  if (delta.label === 'no-change') return outcome('fail', `${what}: nothing changed`, [], 'no-change');
  const newBlockers = delta.errorsOrBlocks.filter((blocker) => blocker.isNew);
  const error = newBlockers.find((blocker) => blocker.kind !== 'permission');
  if (error) return outcome('fail', `${what}: ${error.kind} "${error.text}"`, [], 'blocked');
  // A prompt the commit itself raised (a permission request, a confirmation) is a new surface, not a failure.
  const permission = newBlockers.find((blocker) => blocker.kind === 'permission');
  if (permission) {
    const named = permissionTie(unit, before, permission.text);
    return named !== undefined
      ? pass(named.kind, `${what}: ${named.reason}`, 'strong', [], 'raised-prompt')
      : pass('permission-prompt', `${what}: it raised a permission prompt ${JSON.stringify(permission.text)}; the surface rules take it from here`, 'weak', [], 'raised-prompt');
  }
  if (activityOnly(delta)) return outcome('inconclusive', `${what}: the activity changed (${after.activity}) but nothing on screen did`, [], activityOnlyCode);
  const own = unitIndices(unit, before);
  const sealed = delta.surfacesRemoved.find((surface) => own.has(surface.root) || [...own].some((index) => index > surface.root && index < subtreeEnd(before, surface.root)));
  if (sealed) {
    // The surface going away is tied to it, but "Cancel" closes it as well, back to the same page: only a change
    // on that page tied to the commit ("Add to cart" and the cart's count) tells the two apart. A dump of the
    // surface's window alone does not show that page.
    if (!coveredPageKept(sealed.root, before, delta)) {
      return pass(dismissedPageNotInDump, `${what}: its ${sealed.kind} was dismissed (the page it covered was not in the dump, so nothing shows where it led)`, 'weak');
    }
    const answered = tiedEvidence(unit, before, after, delta);
    return answered !== undefined
      ? pass(answered.kind, `${what}: its ${sealed.kind} was dismissed and ${answered.reason}`, 'strong')
      : pass('dismissed-to-covered-page', `${what}: its ${sealed.kind} was dismissed, back to the page it covered (as a cancel would be)`, 'weak');
  }
  const tied = tiedEvidence(unit, before, after, delta);
  if (tied !== undefined) return pass(tied.kind, `${what}: ${tied.reason}`, 'strong');
  const primary = before.nodes[unit.members[0]?.node ?? -1];
  const stayed = delta.label === 'partial-change';
  if (stayed && primary && delta.changes.some((change) => change.kind === 'removed' && change.before === primary.index)) {
    // An editor stays an editor, its fields on screen before and after, and only its "Done" goes. A dialog's
    // "OK" is gone too when the dialog closes, but "Cancel" closes it the same way: that ties nothing to "OK".
    return editorPage(before) && editorPage(after)
      ? pass('left-edit-mode', `${what}: the page left edit mode (its ${describeNode(primary)} is gone)`, 'strong', [nodeRef(primary, 'before')], 'sealed')
      : pass('commit-gone', `${what}: it is gone and the page stayed (as a cancel would leave it)`, 'weak', [nodeRef(primary, 'before')], 'sealed');
  }
  if (delta.label === 'new-page') return pass('new-page', `${what}: moved to a new page`, 'weak');
  if (delta.dismissedSurface) return pass('surface-dismissed', `${what}: a surface was dismissed`, 'weak');
  if (delta.newSurface) return pass('new-surface', `${what}: a new surface opened; the surface rules take it from here`, 'weak', [], 'raised-prompt');
  return outcome('inconclusive', `${what}: the page changed in part but stayed (${delta.changes.length} change(s)); not sealed`);
}

function navigateContract(unit: ControlUnit, args: ContractArgs, before: UiTree, after: UiTree, delta: Delta): VerifyOutcome {
  return pageCheck(args, after) ?? changeContract(unit, before, after, delta, `navigate ${unit.label}`);
}

/**
 * The contract Δτ of a unit's type (docs/architecture.md §2.3), checked on the observed change.
 * Every pass says how strong its evidence is (`strength`):
 * - fill → the field holds the value (normalised; password fields inconclusive; never the
 *   hint); a field that left the screen passes when the typed value shows on the new one;
 *   a field tapped without a value passes when it took the focus or a picker opened;
 * - toggle → checked flipped or equals `args.checked`; a confirmation dialog instead of
 *   the switch is a new surface (`code: 'raised-prompt'`);
 * - select → the option is checked or selected (the same to a user), or its list closed
 *   and the page shows the choice; another option of the same group chosen fails
 *   (`other-option`); a spinner shows the value, or opens its list when none was given;
 * - click, long-press (and any unit held with `args.longPress`) → some change, strong when tied to the unit (`tiedEvidence`); an
 *   activity change with an identical hierarchy is inconclusive (`activity-only`);
 * - commit → dismissed its surface (strong when the page it covered is back, weak when
 *   the dump held the surface alone), left edit mode (strong on an editor, a page with fields
 *   before and after; weak elsewhere, as a cancel would leave it), a new page or a raised prompt (a
 *   permission request is a new surface, not a failure); error toasts fail (`blocked`);
 * - scroll → the container's content changed (`code: 'end-of-list'` when not);
 * - navigate → package/activity as asked (else some change); finish → pass.
 * Unit members are indices into `before`; they are found again in `after` through the
 * delta's matches.
 */
export function unitContract(unit: ControlUnit, args: ContractArgs, before: UiTree, after: UiTree, delta: Delta): VerifyOutcome {
  if (args.longPress === true) return changeContract(unit, before, after, delta, `long-press "${unit.label}"`);
  switch (unit.type) {
    case 'fill':
      return fillContract(unit, args, before, after, delta);
    case 'toggle':
      return toggleContract(unit, args, before, after, delta);
    case 'select':
      return selectContract(unit, args, before, after, delta);
    case 'click':
      return pageCheck(args, after) ?? changeContract(unit, before, after, delta, `click "${unit.label}"`);
    case 'scroll':
      return scrollContract(unit, args, before, after, delta);
    case 'commit':
      return commitContract(unit, before, after, delta);
    case 'navigate':
      return navigateContract(unit, args, before, after, delta);
    case 'long-press':
      return changeContract(unit, before, after, delta, `long-press "${unit.label}"`);
    case 'finish':
      return pass('finish', 'finish: nothing to check here (the task\'s own success check decides)', 'weak');
    default:
      return assertNever(unit.type, 'unit type');
  }
}

/**
 * Combines the unit outcomes of a commitment and the intent's expectation: any fail →
 * fail, else any inconclusive → inconclusive, else pass. The reason names the first
 * deciding outcome; a pass is strong when the expectation or the last unit gave strong
 * evidence.
 */
export function verifyCommitment(unitOutcomes: readonly VerifyOutcome[], expectationOutcome?: VerifyOutcome): VerifyOutcome {
  const all = expectationOutcome ? [...unitOutcomes, expectationOutcome] : [...unitOutcomes];
  const failed = all.find((item) => item.outcome === 'fail');
  if (failed) return { ...failed, reason: `commitment failed: ${failed.reason}` };
  const unsure = all.find((item) => item.outcome === 'inconclusive');
  if (unsure) return { ...unsure, reason: `commitment inconclusive: ${unsure.reason}` };
  const strong = expectationOutcome?.strength === 'strong' || unitOutcomes.at(-1)?.strength === 'strong';
  const strength: EvidenceStrength | undefined = all.length === 0 ? undefined : strong ? 'strong' : 'weak';
  return {
    outcome: 'pass',
    reason: all.length === 0 ? 'commitment passed (nothing to check)' : `commitment passed: ${all.map((item) => item.reason).join('; ')}`,
    evidence: all.flatMap((item) => item.evidence),
    ...(strength === undefined ? {} : { strength }),
  };
}
