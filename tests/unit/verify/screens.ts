import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseHierarchy } from '../../../src/ui/parse-hierarchy.js';
import type { UiTree } from '../../../src/ui/ui-tree.js';

// Real dumps from tests/fixtures/dump-corpus (each with its licence in licenses/) and
// text edits on them: the "after" screens of the verify tests are the real XML changed
// the way an action would change it.

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const dumpsDirectory = path.resolve(repoRoot, 'tests/fixtures/dump-corpus');

export const dumps = {
  /** Settings › Network & internet: rows with titles/summaries, one Airplane-mode switch, a RecyclerView. */
  settings: 'uiautomator-dump/Hemanth0411-Navi_Agent__settings__self_explore_2025-05-14_18-22-38_4_after_xml.xml',
  /** Clock's time picker dialog window: hour EditText "01", Cancel / OK. */
  timePicker: 'uiautomator-dump/Hemanth0411-Navi_Agent__deskclock__task_driven_2025-05-16_12-53-10_4_after_xml.xml',
  /** The Clock app's main screen. */
  clock: 'uiautomator-dump/Hemanth0411-Navi_Agent__deskclock__exploration_driven_2025-05-16_13-42-55_1.xml',
  /** A runtime permission dialog (permission controller). */
  permission: 'uiautomator-dump/Hemanth0411-Navi_Agent__permissioncontroller__self_explore_2025-05-07_12-53-54_3_after_xml.xml',
  /** Twitter home timeline, Appium page source, ~107 KB. */
  twitter: 'appium-uia2/Bioto-tron-ai__twitter__page_source.xml',
} as const;

export function readDump(name: keyof typeof dumps): string {
  return readFileSync(path.join(dumpsDirectory, dumps[name]), 'utf8');
}

export function screen(xml: string, options: { packageName?: string; activity?: string; activityStack?: readonly string[] } = {}): UiTree {
  return parseHierarchy(xml, { sourceName: 'test screen', ...options });
}

/** Start offset of the element whose start tag contains `anchor` (the n-th such tag, 0-based). */
function elementStart(xml: string, anchor: string, occurrence = 0): number {
  let at = -1;
  for (let seen = 0; seen <= occurrence; seen++) {
    at = xml.indexOf(anchor, at + 1);
    if (at < 0) throw new Error(`test edit: ${JSON.stringify(anchor)} (occurrence ${occurrence}) is not in the XML`);
  }
  return xml.lastIndexOf('<', at);
}

/** Sets `attribute="value"` in the start tag of the element containing `anchor`. */
export function setAttribute(xml: string, anchor: string, attribute: string, value: string, occurrence = 0): string {
  const start = elementStart(xml, anchor, occurrence);
  const end = xml.indexOf('>', start);
  const tag = xml.slice(start, end);
  const pattern = new RegExp(`(\\s${attribute}=")[^"]*(")`);
  if (!pattern.test(tag)) throw new Error(`test edit: the element with ${anchor} has no ${attribute}`);
  return xml.slice(0, start) + tag.replace(pattern, `$1${value}$2`) + xml.slice(end);
}

/** End offset (exclusive) of the element starting at `start`, subtree included. */
function elementEnd(xml: string, start: number): number {
  let depth = 0;
  let at = start;
  const tags = /<(\/?)([\w.$]+)[^>]*?(\/?)>/g;
  tags.lastIndex = at;
  for (let match = tags.exec(xml); match; match = tags.exec(xml)) {
    if (match[1] === '/') depth--;
    else if (match[3] !== '/') depth++;
    at = match.index + match[0].length;
    if (depth === 0) return at;
  }
  throw new Error('test edit: unbalanced XML');
}

/** Removes the element containing `anchor` with its subtree. */
export function removeElement(xml: string, anchor: string, occurrence = 0): string {
  const start = elementStart(xml, anchor, occurrence);
  return xml.slice(0, start) + xml.slice(elementEnd(xml, start));
}

/** Inserts `fragment` as the last child of the element containing `anchor`. */
export function appendChild(xml: string, anchor: string, fragment: string): string {
  const start = elementStart(xml, anchor);
  const end = elementEnd(xml, start);
  const close = xml.lastIndexOf('</', end - 1);
  return xml.slice(0, close) + fragment + xml.slice(close);
}

/** A `uiautomator dump` node with all attributes, for hand-made screens. */
export function node(attributes: Record<string, string | boolean>, children = ''): string {
  const defaults: Record<string, string | boolean> = {
    index: '0', text: '', 'resource-id': '', class: 'android.widget.TextView', package: 'com.example.app', 'content-desc': '',
    checkable: false, checked: false, clickable: false, enabled: true, focusable: false, focused: false, scrollable: false,
    'long-clickable': false, password: false, selected: false, bounds: '[0,0][100,100]', hint: '',
  };
  const merged = { ...defaults, ...attributes };
  const text = Object.entries(merged).map(([key, value]) => `${key}="${String(value).replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;')}"`).join(' ');
  return children === '' ? `<node ${text} />` : `<node ${text}>${children}</node>`;
}

/** A whole `uiautomator dump` document around some nodes. */
export function hierarchy(...nodes: string[]): string {
  return `<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="0">${nodes.join('')}</hierarchy>`;
}

/** First node whose attributes satisfy `test` (throws when none: a test setup error). */
export function nodeWhere(tree: UiTree, test: (node: UiTree['nodes'][number]) => boolean): UiTree['nodes'][number] {
  const found = tree.nodes.find(test);
  if (!found) throw new Error('test setup: no node satisfies the condition');
  return found;
}

/** A framework alert dialog as it appears inside the app window. */
export const alertDialog = node({ class: 'android.widget.FrameLayout', 'resource-id': 'android:id/parentPanel', package: 'com.android.settings', bounds: '[100,1000][1180,1600]' },
  node({ text: 'Turn on airplane mode?', 'resource-id': 'android:id/alertTitle', package: 'com.android.settings', bounds: '[150,1050][1130,1150]' })
  + node({ text: 'OK', 'resource-id': 'android:id/button1', class: 'android.widget.Button', clickable: true, focusable: true, package: 'com.android.settings', bounds: '[900,1450][1130,1550]' }));
