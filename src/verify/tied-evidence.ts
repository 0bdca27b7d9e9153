import { boundsArea, intersectBounds } from '../ui/bounds.js';
import type { ControlUnit } from '../perception/control-unit.js';
import type { Bounds, NodeIndex, UiNode, UiTree } from '../ui/ui-tree.js';
import { pageTitle } from './page-title.js';
import { resourceNamedBy, roleNamedBy, spacedWords } from './role-apps.js';
import type { Delta } from './compute-delta.js';
import { subtreeEnd } from './find-nodes.js';
import { denseScript, stateWordSwap } from './state-word-swap.js';
import type { Surface } from './find-surfaces.js';
import type { TieKind } from './tie-kinds.js';

/** A heading counts when it sits in this top share of the screen. */
export const headingAreaShare = 0.3;
/** A new surface this close (px) to the tapped control counts as opened from it (a popup menu anchored at an overflow icon). */
export const anchorSlackPx = 48;
/** A window wider than this share of the screen is a dialog, not a menu dropped from a control. */
const maxMenuWidthShare = 0.8;
/** Labels shorter than this match only exactly (no "contains"). */
const minContainedLabel = 4;

/**
 * A label's length for the length thresholds: characters, with a character of a dense
 * script counted twice, so that "设置" (settings) weighs like a word of four letters.
 */
function labelLength(text: string): number {
  let length = 0;
  for (const character of text) length += denseScript.test(character) ? 2 : 1;
  return length;
}

/** Text compared loosely: NFKC, lower case, whitespace collapsed, a trailing ellipsis dropped. */
export function looseText(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').replace(/(…|\.\.\.)$/, '').trim();
}

/** True when two labels name the same thing: equal, or one contains the other and covers half of it. */
export function sameLabel(left: string, right: string): boolean {
  const a = looseText(left);
  const b = looseText(right);
  if (a === '' || b === '') return false;
  if (a === b) return true;
  const [shorter, longer] = a.length <= b.length ? [a, b] : [b, a];
  return labelLength(shorter) >= minContainedLabel && longer.includes(shorter) && shorter.length * 2 >= longer.length;
}

/** The before-tree indices of the unit's members and everything under them. */
export function unitIndices(unit: ControlUnit, before: UiTree): Set<NodeIndex> {
  const indices = new Set<NodeIndex>();
  for (const member of unit.members) {
    const end = subtreeEnd(before, member.node);
    for (let index = member.node; index < end; index++) indices.add(index);
  }
  return indices;
}

/** The names the unit goes by on screen: its label and its members' texts and descriptions. */
export function unitLabels(unit: ControlUnit, before: UiTree): string[] {
  const labels = new Set<string>();
  const add = (text: string): void => {
    const trimmed = text.trim();
    if (trimmed.length >= 2 && trimmed.length <= 120) labels.add(trimmed);
  };
  add(unit.label);
  for (const index of unitIndices(unit, before)) {
    const node = before.nodes[index];
    if (node) {
      add(node.text);
      add(node.contentDesc);
    }
  }
  return [...labels];
}

function near(surface: Bounds, control: Bounds): boolean {
  const grown: Bounds = [control[0] - anchorSlackPx, control[1] - anchorSlackPx, control[2] + anchorSlackPx, control[3] + anchorSlackPx];
  return boundsArea(intersectBounds(surface, grown)) > 0;
}

/** A window dropped from (or up from) the control: an edge of it meets the control's, and a side lines up with the control's. */
function anchored(window: Bounds, control: Bounds): boolean {
  const close = (a: number, b: number): boolean => Math.abs(a - b) <= anchorSlackPx;
  const vertical = close(window[1], control[1]) || close(window[1], control[3]) || close(window[3], control[1]);
  const horizontal = close(window[0], control[0]) || close(window[2], control[2]);
  return vertical && horizontal;
}

/** The title and message texts of a surface (its buttons and options left out: "Cancel" names no subject). */
function surfaceTexts(tree: UiTree, surface: Surface): string[] {
  return textsUnder(tree, surface.root, (node) => !clickableNearby(tree, node, 1));
}

/** The texts (or descriptions) of the nodes under `root` that `keep` accepts (all of them without it: a menu's entries too). */
export function textsUnder(tree: UiTree, root: NodeIndex, keep: (node: UiNode) => boolean = () => true): string[] {
  const texts: string[] = [];
  const end = subtreeEnd(tree, root);
  for (let index = root; index < end; index++) {
    const node = tree.nodes[index];
    if (node && (node.text || node.contentDesc) && keep(node)) texts.push(node.text || node.contentDesc);
  }
  return texts;
}

function clickableNearby(tree: UiTree, node: UiNode, levels: number): boolean {
  let current: UiNode | undefined = node;
  for (let level = 0; current && level <= levels; level++) {
    if (current.clickable || current.selected) return true;
    current = current.parent >= 0 ? tree.nodes[current.parent] : undefined;
  }
  return false;
}

/** Short texts (a heading, a field hint) that name the label with a few more words: "Search Apps" names "Apps". */
const maxNamingWords = 4;

/** True when `text` names `label`: the same label, or a short text holding the label as whole words. */
export function namesLabel(text: string, label: string): boolean {
  const loose = looseText(text);
  const wanted = looseText(label);
  if (wanted === '' || loose === '') return false;
  if (loose === wanted) return true;
  const words = loose.split(' ');
  if (labelLength(wanted) < 3 || words.length > maxNamingWords) return false;
  return ` ${loose} `.includes(` ${wanted} `);
}

const digitWords = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'];

/** Single digits spelled out, as package names spell them ("5miles" is com.thirdrock.fivemiles). */
function spellDigits(text: string): string {
  return text.replace(/(?<!\d)\d(?!\d)/g, (digit) => digitWords[Number(digit)] ?? digit);
}

/** The resource-id name (after `package:id/`) of the unit's primary node; '' without one. */
function idName(unit: ControlUnit, before: UiTree): string {
  const primary = before.nodes[unit.members[0]?.node ?? -1];
  return primary ? primary.resourceId.slice(primary.resourceId.indexOf('/') + 1) : '';
}

/** The words of the unit's label and of its primary node's resource-id name (`addToDoItemFAB` → add to do item fab). */
function unitWords(unit: ControlUnit, before: UiTree): string {
  const primary = before.nodes[unit.members[0]?.node ?? -1];
  return spacedWords(`${unit.label} ${primary?.contentDesc ?? ''} ${idName(unit, before)}`);
}

/** Words of resource-id names that say what a control is, not what it does. */
const genericIdWords = new Set(['button', 'image', 'view', 'layout', 'root', 'container', 'item', 'text', 'icon', 'action', 'menu', 'main', 'content', 'frame', 'holder', 'title', 'label', 'widget', 'wrapper', 'panel', 'bar', 'toolbar', 'list']);

/** The telling words (5+ letters, not generic) of the resource-id name of the unit's primary node. */
function idWords(unit: ControlUnit, before: UiTree): string[] {
  return spacedWords(idName(unit, before)).split(/[^a-z]+/).filter((word) => word.length >= 5 && !genericIdWords.has(word));
}

/** True when `text` holds `label` as whole words (not inside a longer word). */
function holdsWord(text: string, label: string): boolean {
  const loose = looseText(text);
  const wanted = looseText(label);
  for (let at = loose.indexOf(wanted); at >= 0; at = loose.indexOf(wanted, at + 1)) {
    const previous = loose[at - 1];
    const next = loose[at + wanted.length];
    if ((previous === undefined || !/[\p{L}\p{N}]/u.test(previous)) && (next === undefined || !/[\p{L}\p{N}]/u.test(next))) return true;
  }
  return false;
}

const settingsPackage = 'com.android.settings';
/** "Settings" as labels say it ("Enable in Settings", "在設定中啟用"): the control names the system Settings app. */
const settingsWords = /\bsettings\b|設定|设置|einstellungen|paramètres|ajustes|impostazioni|configurações/i;

const addWords = /\b(add|new|create|compose|write|plus)\b|新建|添加|新增/;

function addLike(unit: ControlUnit, before: UiTree): boolean {
  return addWords.test(unitWords(unit, before));
}

/** Same text at nearly the same place on the before screen: a carry-over, not something the action brought. */
function carriedOver(node: UiNode, before: UiTree): boolean {
  const text = looseText(node.text || node.contentDesc);
  return before.nodes.some((old) => looseText(old.text || old.contentDesc) === text && boundsArea(intersectBounds(old.bounds, node.bounds)) * 2 >= Math.max(boundsArea(node.bounds), 1));
}

/** Text edits on the before nodes that share `parent`: many of them are a re-render (a clock face switching to minutes), not one control answering. */
function siblingEdits(delta: Delta, before: UiTree, parent: NodeIndex): number {
  let count = 0;
  for (const change of delta.changes) if (change.kind === 'text' && before.nodes[change.before]?.parent === parent) count += 1;
  return count;
}

/** Sibling text edits beyond which the unit's own edit is part of a re-render. */
const maxSiblingEdits = 2;

/** True when the before node's text or description changed too: what is there now is another item, not the same one. */
function renamedInPlace(delta: Delta, beforeIndex: NodeIndex): boolean {
  return delta.changes.some((change) => change.kind === 'text' && change.before === beforeIndex);
}

function mentions(texts: readonly string[], labels: readonly string[]): string | undefined {
  for (const label of labels) {
    const wanted = looseText(label);
    if (wanted.length < 2) continue;
    if (texts.some((text) => sameLabel(text, label) || (labelLength(wanted) >= minContainedLabel && looseText(text).includes(wanted)))) return label;
  }
  return undefined;
}

/** Evidence that ties a change to the acted unit: its kind (a stable name) and the reason in words. */
export interface Tie {
  readonly kind: TieKind;
  readonly reason: string;
}

function tie(kind: TieKind, reason: string): Tie {
  return { kind, reason };
}

/**
 * Evidence that ties an observed change to the tapped unit (docs/architecture.md §2.6 `strong`),
 * or undefined when only "something changed": the unit's own text or state changed; a
 * node named like it became selected (its tab); the new page's title is its label, or
 * the new page is headed by it (a list row opening its item); a dialog or menu opened at
 * it or naming it; the list of a setting's choices, the value its row showed chosen; a
 * heading or summary that now names it (a filter "Women" → "T-shirt - Women"); the app it
 * names was opened (the Settings app for "Enable in Settings"), or the app of the role its
 * words ask for (the browser for "Privacy policy", the file picker for "Import"); the
 * permission prompt it raised asks for what its words use (contacts for "Search for contacts").
 * Returns the tie (its kind and the reason).
 */
export function tiedEvidence(unit: ControlUnit, before: UiTree, after: UiTree, delta: Delta): Tie | undefined {
  const primaryNode = before.nodes[unit.members[0]?.node ?? -1];
  const context: TieContext = {
    unit,
    before,
    after,
    delta,
    own: unitIndices(unit, before),
    labels: unitLabels(unit, before),
    ownLabels: new Set([unit.label, primaryNode?.text ?? '', primaryNode?.contentDesc ?? ''].map((text) => text.trim()).filter((text) => text !== '')),
  };
  for (const find of tieFinders) {
    const found = find(context);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** What every tie reads: the unit, both screens and their delta, and the names the unit goes by. */
interface TieContext {
  readonly unit: ControlUnit;
  readonly before: UiTree;
  readonly after: UiTree;
  readonly delta: Delta;
  /** The unit's nodes on the before screen. */
  readonly own: ReadonlySet<NodeIndex>;
  /** Its labels, with the texts of what it contains. */
  readonly labels: readonly string[];
  /** The unit's own name: its label and its primary node's text and description (not texts of what it contains). */
  readonly ownLabels: ReadonlySet<string>;
}

/** The ties in the order they are tried: the first that holds decides. */
const tieFinders: readonly ((context: TieContext) => Tie | undefined)[] = [
  ownChangeTie,
  namedSelectionTie,
  titleTie,
  tappedFieldTie,
  surfaceTie,
  chosenValueTie,
  displayTie,
  summaryTie,
  headingTie,
  addEditorTie,
  activityTie,
  appTie,
  promptTie,
];

/** The unit's own text turned by a state word ("Open" → "Close"), or its own checked / selected flag came on. */
function ownChangeTie({ before, delta, own }: TieContext): Tie | undefined {
  // On a page that turned, a node matched at the unit's place is another page's node, not the unit.
  if (delta.label !== 'partial-change') return undefined;
  for (const change of delta.changes) {
    if (change.kind === 'text' || change.kind === 'checked' || change.kind === 'selected') {
      if (!own.has(change.before)) continue;
      // A count inside the label ("Show 415 results") ticks with whatever else changed.
      if (change.kind === 'text' && change.from.replace(/\d+/g, '#') === change.to.replace(/\d+/g, '#')) continue;
      // Losing the selection is what tapping a neighbour does; the unit's own answer is to become chosen.
      if (change.kind !== 'text' && !change.to) continue;
      // A node in the unit's place that also reads otherwise is another item drawn there (a dial re-drawn
      // with other numbers), matched by position: its state says nothing of the unit.
      if (change.kind !== 'text' && renamedInPlace(delta, change.before)) continue;
      if (change.kind === 'text' && siblingEdits(delta, before, before.nodes[change.before]?.parent ?? -1) > maxSiblingEdits) continue;
      // Text that changes otherwise than by a state word (a search hint rotating on a timer, a row re-used for
      // another item) changes as often on another step's screen: only "Open" turning "Close" is the unit answering.
      if (change.kind === 'text' && !stateWordSwap(change.from, change.to)) continue;
      return change.kind === 'text'
        ? tie('own-text-changed', `its own ${change.field === 'text' ? 'text' : 'description'} changed (${JSON.stringify(change.from)} → ${JSON.stringify(change.to)})`)
        : tie('own-state-changed', `its own ${change.kind} changed`);
    }
  }
  return undefined;
}

/** A node named like the unit became selected (its tab). */
function namedSelectionTie({ after, delta, labels }: TieContext): Tie | undefined {
  for (const change of delta.changes) {
    if (change.kind === 'selected' && change.to) {
      const node = after.nodes[change.after];
      const label = node ? mentions([node.text, node.contentDesc], labels) : undefined;
      if (label !== undefined) return tie('named-node-selected', `${JSON.stringify(label)} became selected`);
    }
  }
  return undefined;
}

/** The page changed its title to the unit's label. */
function titleTie({ before, after, labels }: TieContext): Tie | undefined {
  const titleAfter = pageTitle(after);
  if (titleAfter === '' || looseText(titleAfter) === looseText(pageTitle(before))) return undefined;
  const label = labels.find((candidate) => sameLabel(candidate, titleAfter));
  return label === undefined ? undefined : tie('title-names-label', `the new page is titled ${JSON.stringify(titleAfter)}`);
}

/** A text that turned into a field where it was, holding the same text and the focus (a browser's address bar). */
function tappedFieldTie({ unit, before, after, ownLabels }: TieContext): Tie | undefined {
  const tappedField = after.nodes.find((node) => node.editable && node.focused && boundsArea(intersectBounds(node.bounds, unit.bounds)) > 0 && [...ownLabels].some((label) => looseText(label) !== '' && looseText(node.text) === looseText(label)));
  if (!tappedField || before.nodes.some((node) => node.editable && node.focused && looseText(node.text) === looseText(tappedField.text))) return undefined;
  return tie('tapped-text-field-focused', `its text is now a field with the focus, holding ${JSON.stringify(tappedField.text)}`);
}

/** A dialog, menu or sheet opened that names the unit, or a menu that drops from it. */
function surfaceTie({ unit, before, after, delta, own, labels }: TieContext): Tie | undefined {
  for (const surface of delta.surfacesAdded) {
    const root = after.nodes[surface.root];
    if (!root) continue;
    const label = mentions(surfaceTexts(after, surface), labels);
    if (label !== undefined) return tie('surface-names-label', `a ${surface.kind} naming ${JSON.stringify(label)} opened`);
    // A menu drops from the control that opened it (as a popup, or a small window of its own); a dialog is
    // centred and says nothing of where it came from: one nearly as wide as the screen lines up with every
    // control at a screen edge (a permission dialog "anchored" at a toolbar icon).
    const menuWide = root.bounds[2] - root.bounds[0] <= maxMenuWidthShare * after.width;
    const atControl = (surface.kind === 'popup' && near(root.bounds, unit.bounds)) || (surface.kind === 'window' && menuWide && anchored(root.bounds, unit.bounds));
    // Menus of the toolbar drop at the same corner: one whose entries name another control of the screen
    // ("Rotate right" under "Rotate") is that control's menu, not this one's.
    if (atControl && !namesAnotherControl(textsUnder(after, surface.root), before, own)) return tie('surface-at-control', `a ${surface.kind} opened at it`);
  }
  return undefined;
}

/**
 * A setting's row that shows its current value ("Font size" / "Large") opened the list of
 * its choices with that value chosen: the list another row opens has its own value chosen.
 * The dump may hold the list's window alone, without a title naming the row.
 */
function chosenValueTie({ before, after, delta, own, ownLabels }: TieContext): Tie | undefined {
  if (delta.label === 'no-change') return undefined;
  // The texts the row shows besides its name: its value.
  const names = new Set([...ownLabels].map(looseText));
  const values = new Set<string>();
  for (const index of own) {
    const text = looseText(before.nodes[index]?.text ?? '');
    if (text !== '' && !names.has(text)) values.add(text);
  }
  if (values.size === 0) return undefined;
  const added = new Set<NodeIndex>();
  for (const change of delta.changes) if (change.kind === 'added') added.add(change.after);
  const choices = after.nodes.filter((node) => node.checkable && added.has(node.index));
  const chosen = choices.filter((node) => node.checked);
  const choice = chosen[0];
  if (choices.length < 2 || chosen.length !== 1 || !choice || !values.has(looseText(choice.text || choice.contentDesc))) return undefined;
  return tie('choices-show-its-value', `a list of choices opened with ${JSON.stringify(choice.text || choice.contentDesc)}, the value it showed, chosen`);
}

/** True when one of `texts` holds, as whole words, the label (four letters or more) of a clickable control of `before` other than the unit. */
function namesAnotherControl(texts: readonly string[], before: UiTree, own: ReadonlySet<NodeIndex>): boolean {
  for (const node of before.nodes) {
    if (own.has(node.index) || !clickableNearby(before, node, 1)) continue;
    const label = node.text || node.contentDesc;
    if (labelLength(looseText(label)) >= minContainedLabel && texts.some((text) => holdsWord(text, label))) return true;
  }
  return false;
}

/**
 * A display that now reads the unit's label (the hour of a clock face, the chosen date); not
 * one of many nodes re-drawn at once (a dial turning from hours to minutes reads every number anew).
 */
function displayTie({ before, delta, own, labels }: TieContext): Tie | undefined {
  for (const change of delta.changes) {
    if (change.kind !== 'text' || own.has(change.before)) continue;
    if (siblingEdits(delta, before, before.nodes[change.before]?.parent ?? -1) > maxSiblingEdits) continue;
    const label = labels.find((candidate) => looseText(change.to) === looseText(candidate) && looseText(change.from) !== looseText(candidate));
    if (label !== undefined) return tie('display-reads-label', `${JSON.stringify(change.from)} now reads ${JSON.stringify(change.to)}`);
  }
  return undefined;
}

/** A heading or summary that now names the choice ("Amazon.com: T-shirt" → "Amazon.com: T-shirt - Women"). */
function summaryTie({ delta, own, ownLabels }: TieContext): Tie | undefined {
  for (const change of delta.changes) {
    if (change.kind !== 'text' || own.has(change.before)) continue;
    const label = [...ownLabels].find((candidate) => /\p{L}.*\p{L}/u.test(candidate) && looseText(candidate).length >= 3 && holdsWord(change.to, candidate) && !holdsWord(change.from, candidate));
    if (label !== undefined) return tie('summary-names-label', `${JSON.stringify(change.from)} now reads ${JSON.stringify(change.to)}, naming it`);
  }
  return undefined;
}

/** New text at the top of the screen that names the unit (a row opening the page it names), or a field named like it that took the focus. */
function headingTie({ before, after, delta, labels, ownLabels }: TieContext): Tie | undefined {
  if (delta.label === 'no-change') return undefined;
  const newNodes = new Set<NodeIndex>();
  for (const change of delta.changes) if (change.kind === 'added' || change.kind === 'text') newNodes.add(change.after);
  for (const index of newNodes) {
    const node = after.nodes[index];
    const text = node ? node.text || node.contentDesc || node.hint : '';
    if (!node || text === '' || carriedOver(node, before)) continue;
    const heading = node.bounds[1] < after.height * headingAreaShare && !clickableNearby(after, node, 3);
    // A row "Have an account? Sign in" opens the page headed "Sign in".
    // (Two words at least: one word of a label, "Internet" of "Network & internet", names something else.)
    if (heading && looseText(text).split(' ').length >= 2 && labels.some((candidate) => looseText(candidate).endsWith(looseText(text)))) return tie('heading-ends-label', `the new screen is headed by ${JSON.stringify(text)}, the end of its label`);
    const label = labels.find((candidate) => namesLabel(text, candidate));
    if (label === undefined) continue;
    // A field that took the focus and is named like the control itself ("Search" → "Search YouTube"). Not
    // like a text the control holds: a card that holds the field shows the field's hint, and any tap that
    // focuses that field (the field's own) would be tied to the card.
    if (node.editable && node.focused) {
      if ([...ownLabels].some((candidate) => namesLabel(text, candidate))) return tie('named-field-focused', `a field named ${JSON.stringify(text)} took the focus`);
      continue;
    }
    // Elsewhere on the screen the label ties nothing: a button or a tab of the same name is on many pages
    // ("Sign In", "Search", "Nearby"), so another action's page shows it as often (wrong-effect control).
    if (heading) return tie('heading-names-label', `the new screen is headed by ${JSON.stringify(text)}`);
  }
  return undefined;
}

/** "Add" / "New note": a fresh editor, its empty field taking the typing. */
function addEditorTie({ unit, before, after, delta }: TieContext): Tie | undefined {
  if (!addLike(unit, before)) return undefined;
  const field = after.nodes.find((node) => node.editable && node.focused && (node.text === '' || node.text === node.hint));
  if (field && (delta.label === 'new-page' || delta.newSurface)) return tie('add-opened-editor', `it opened an editor with the focus in an empty field (${field.hint || field.resourceId || field.className})`);
  return undefined;
}

/** It opened an activity named like its label or its resource-id. */
function activityTie({ unit, before, after, delta, labels }: TieContext): Tie | undefined {
  if (!delta.activityChanged) return undefined;
  // "Activity" is in every activity's name: it names nothing.
  const simple = after.activity.slice(after.activity.lastIndexOf('.') + 1).toLowerCase().replace(/activity/g, '');
  const label = labels.find((candidate) => {
    const word = candidate.toLowerCase().replace(/[^a-z0-9]/g, '');
    return word.length >= 4 && simple.includes(word);
  });
  if (label !== undefined) return tie('activity-names-label', `it opened ${after.activity}, named like it`);
  // The control's resource-id names it too: settingButton opens SettingActivity, menu_user_profile_root ProfileActivity.
  // A word of the app's package names the app, not the control: in a contacts app every row, button and
  // activity says "contact", so a contact row's id would tie it to the editor another button opened.
  const appName = after.packageName.toLowerCase();
  const word = idWords(unit, before).find((candidate) => simple.includes(candidate) && !appName.includes(candidate));
  return word === undefined ? undefined : tie('activity-names-id', `it opened ${after.activity}, named like its id (${word})`);
}

/**
 * It opened the app of the role its words ask for (`roleNamedBy`: the browser for "Learn
 * more", the dialer for "Call contact"), or the app its label names (the Settings app for
 * "Enable in Settings").
 */
function appTie({ unit, before, after, delta, labels }: TieContext): Tie | undefined {
  if (!delta.packageChanged) return undefined;
  const role = roleNamedBy(after.packageName, wordsOf(unit, before, labels));
  if (role !== undefined) return tie('app-role-named', `it opened ${role} (${after.packageName}), which its words ask for`);
  if (after.packageName === settingsPackage && labels.some((text) => settingsWords.test(text))) {
    return tie('app-names-label', `it opened the Settings app, which its label names`);
  }
  // The app's own name is the package's last part (com.google.android.youtube): "google" names the vendor.
  const packageWords = [after.packageName.toLowerCase().split('.').at(-1) ?? ''];
  const label = labels.find((candidate) => {
    const word = spellDigits(candidate.toLowerCase()).replace(/[^a-z0-9]/g, '');
    return word.length >= 3 && packageWords.some((part) => part === word || (part.length >= 4 && (word.includes(part) || part.includes(word))));
  });
  return label === undefined ? undefined : tie('app-names-label', `it opened ${after.packageName}, the app its label names`);
}

/** A control's labels and its primary node's resource-id name: the words `role-apps` reads. */
function wordsOf(unit: ControlUnit, before: UiTree, labels: readonly string[]): string[] {
  return [...labels, idName(unit, before)];
}

/**
 * The permission prompt `prompt` (its message) raised by the action asks for what the
 * control's words use (`resourceNamedBy`: "Import" → files and media, "Add contact birthdays"
 * → contacts).
 */
export function permissionTie(unit: ControlUnit, before: UiTree, prompt: string, labels: readonly string[] = unitLabels(unit, before)): Tie | undefined {
  const resource = resourceNamedBy(prompt, wordsOf(unit, before, labels));
  return resource === undefined ? undefined : tie('permission-names-resource', `it raised the permission prompt for ${resource} (${JSON.stringify(prompt)}), which its words use`);
}

/** A permission prompt the action raised that asks for what the control's words use (`permissionTie`). */
function promptTie({ unit, before, delta, labels }: TieContext): Tie | undefined {
  const prompt = delta.errorsOrBlocks.find((blocker) => blocker.kind === 'permission' && blocker.isNew);
  return prompt === undefined ? undefined : permissionTie(unit, before, prompt.text, labels);
}

/**
 * A dialog dumped without the page under it, closed by its commit: the page it was opened
 * from (`openedFrom`, the run's `PageTrail`) did not show the value its field held, and the
 * screen after shows it now ("Rename note" → the page titled with the new name). Cancel
 * would leave the page as it was, and another step's screen shows another value.
 */
export function dialogValueTie(dialog: UiTree, after: UiTree, openedFrom: UiTree): Tie | undefined {
  for (const field of dialog.nodes) {
    if (!field.editable) continue;
    const value = looseText(field.text);
    if (labelLength(value) < 3 || value === looseText(field.hint)) continue;
    const shows = (tree: UiTree): boolean => tree.nodes.some((node) => holdsWord(node.text, value) || holdsWord(node.contentDesc, value));
    if (shows(after) && !shows(openedFrom)) return tie('dialog-value-shown', `the page it was opened from now shows ${JSON.stringify(field.text.trim())}, the value its dialog's field held`);
  }
  return undefined;
}
