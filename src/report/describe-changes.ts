import type { Bounds, UiNode, UiTree } from '../ui/ui-tree.js';
import { nodeText } from './screen-drawing.js';

/** One change between the before and after screen, as a person would say it. */
export interface ChangeLine {
  readonly text: string;
  /** Where it is: on the after screen, or on the before screen for a removed node. */
  readonly bounds?: Bounds;
  readonly screen: 'before' | 'after';
}

/** A change as the delta (delta.json, or `computeDelta`) lists it; indices refer to the before / after tree. */
interface ChangeRecord {
  readonly kind: string;
  readonly before?: number;
  readonly after?: number;
  readonly field?: string;
  readonly from?: unknown;
  readonly to?: unknown;
}

/** Flags whose flips read as a state of the control. */
const flagWords: Readonly<Record<string, readonly [string, string]>> = {
  checked: ['off', 'on'],
  selected: ['not selected', 'selected'],
  enabled: ['disabled', 'enabled'],
  focused: ['not focused', 'focused'],
};

/**
 * The delta's atomic changes as readable lines, the telling ones first: value and state
 * flips ("'Wi-Fi' switch off → on"), then text edits ("text 'Alarm' → 'Alarm 2'"), then
 * what appeared ("+ button 'Save'") and went ("− text '8:30 AM'"). Labels come from the
 * node, else from the row it sits in (a switch's label is its row's text). Records it
 * cannot read are skipped. Pure.
 */
export function describeChanges(changes: readonly unknown[], before: UiTree | undefined, after: UiTree | undefined): ChangeLine[] {
  const rank = (change: ChangeRecord): number => (change.kind in flagWords ? (change.kind === 'focused' ? 2 : 0) : change.kind === 'text' ? 1 : 3);
  const records = changes.filter(isChangeRecord).sort((a, b) => rank(a) - rank(b));
  const lines: ChangeLine[] = [];
  for (const change of records) {
    const afterNode = change.after === undefined ? undefined : after?.nodes[change.after];
    const beforeNode = change.before === undefined ? undefined : before?.nodes[change.before];
    const words = flagWords[change.kind];
    if (words !== undefined && afterNode !== undefined && after !== undefined) {
      const [off, on] = words;
      lines.push({ text: `${describeNode(after, afterNode)} ${change.from === true ? on : off} → ${change.to === true ? on : off}`, bounds: afterNode.bounds, screen: 'after' });
    } else if (change.kind === 'text' && afterNode !== undefined && after !== undefined) {
      const secret = afterNode.password || beforeNode?.password === true;
      const what = `${change.field === 'contentDesc' ? 'description' : 'text'} of ${describeNode(after, afterNode, { ownText: false })}`;
      lines.push({ text: secret ? `${what} changed (a password field)` : `${what}: ${quote(String(change.from ?? ''))} → ${quote(String(change.to ?? ''))}`, bounds: afterNode.bounds, screen: 'after' });
    } else if (change.kind === 'added' && afterNode !== undefined && after !== undefined) {
      lines.push({ text: `+ ${describeNode(after, afterNode)}`, bounds: afterNode.bounds, screen: 'after' });
    } else if (change.kind === 'removed' && beforeNode !== undefined && before !== undefined) {
      lines.push({ text: `− ${describeNode(before, beforeNode)}`, bounds: beforeNode.bounds, screen: 'before' });
    }
  }
  return lines;
}

function isChangeRecord(value: unknown): value is ChangeRecord {
  return typeof value === 'object' && value !== null && typeof (value as { kind?: unknown }).kind === 'string';
}

/** `'Wi-Fi' switch`, `button 'Save'`, `field 'Title'`: the role, and the label where one is found. */
function describeNode(tree: UiTree, node: UiNode, options: { ownText?: boolean } = {}): string {
  const role = roleOf(node);
  const own = options.ownText === false ? '' : nodeText(node);
  // A field is named by its hint (what it asks for), else by its id, before any text of its row:
  // the first text under a field's parent is as often a button beside it as its label.
  const label = own !== '' ? own : node.editable ? fieldName(tree, node) : rowLabel(tree, node);
  if (label === '') return `${role}${node.resourceId === '' ? '' : ` ${node.resourceId.slice(node.resourceId.indexOf('/') + 1)}`}`;
  // A control named by its row reads best label first: 'Wi-Fi' switch.
  return own === '' || role === 'switch' || role === 'checkbox' || role === 'tab' ? `${quote(label)} ${role}` : `${role} ${quote(label)}`;
}

/** A field's hint; else nothing when it has an id (the caller names it by the id); else the text of its row. */
function fieldName(tree: UiTree, node: UiNode): string {
  if (node.hint.trim() !== '') return node.hint;
  return node.resourceId === '' ? rowLabel(tree, node) : '';
}

function roleOf(node: UiNode): string {
  const simple = node.className.slice(node.className.lastIndexOf('.') + 1);
  if (/Switch|ToggleButton/.test(simple)) return 'switch';
  if (/CheckBox|CheckedTextView/.test(simple)) return 'checkbox';
  if (/RadioButton/.test(simple)) return 'radio button';
  if (/Tab/.test(simple) || /tab/i.test(node.resourceId)) return 'tab';
  if (node.editable || /EditText/.test(simple)) return 'field';
  if (/Button/.test(simple)) return 'button';
  if (/ImageView|Image/.test(simple)) return 'image';
  if (node.checkable) return 'toggle';
  if (node.clickable) return 'item';
  return node.text !== '' ? 'text' : 'node';
}

/** The text of the row a control sits in: the first labelled node under its parent or grandparent. */
function rowLabel(tree: UiTree, node: UiNode): string {
  let container = tree.nodes[node.parent];
  for (let level = 0; level < 2 && container !== undefined; level++) {
    const label = firstText(tree, container, node.index);
    if (label !== '') return label;
    container = tree.nodes[container.parent];
  }
  return '';
}

function firstText(tree: UiTree, root: UiNode, skip: number): string {
  const stack = [...root.children].reverse();
  while (stack.length > 0) {
    const index = stack.pop();
    if (index === undefined || index === skip) continue;
    const node = tree.nodes[index];
    if (node === undefined) continue;
    const text = nodeText(node);
    if (text !== '') return text;
    for (let child = node.children.length - 1; child >= 0; child--) stack.push(node.children[child] ?? -1);
  }
  return '';
}

function quote(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return `'${flat.length > 60 ? `${flat.slice(0, 59)}…` : flat}'`;
}
