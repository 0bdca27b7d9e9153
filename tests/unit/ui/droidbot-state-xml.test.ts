// droidBotStateXml: a DroidBot state written as uiautomator XML. The states are SYNTHETIC
// (hand-made here), plus the real DroidBot state of tests/fixtures/autodroid (MIT).
import { readFile } from 'node:fs/promises';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { droidBotStateXml } from '../../../src/ui/droidbot-state-xml.js';
import { parseHierarchy } from '../../../src/ui/parse-hierarchy.js';
import type { UiTree } from '../../../src/ui/ui-tree.js';

const repoRoot = path.resolve(import.meta.dirname, '..', '..', '..');

interface View { temp_id: number; parent: number; children: number[]; bounds: [[number, number], [number, number]]; class: string; text?: string | null; content_description?: string | null; resource_id?: string | null; package?: string; visible?: boolean; checked?: boolean; clickable?: boolean }

function view(id: number, parent: number, children: number[], fields: Partial<View> = {}): View {
  return { temp_id: id, parent, children, bounds: [[0, id * 100], [1080, id * 100 + 90]], class: 'android.widget.TextView', package: 'com.example.notes', ...fields };
}

/** A page: a frame holding a title, a hidden panel (with a button inside) and a list row. */
function page(): { views: View[]; foreground_activity: string } {
  return {
    foreground_activity: 'com.example.notes/.NotesActivity',
    views: [
      view(0, -1, [1, 2, 4], { class: 'android.widget.FrameLayout', bounds: [[0, 0], [1080, 2000]] }),
      view(1, 0, [], { text: 'Notes <all> & "more"' }),
      view(2, 0, [3], { class: 'android.widget.LinearLayout', visible: false }),
      view(3, 2, [], { class: 'android.widget.Button', text: 'Hidden', clickable: true }),
      view(4, 0, [], { text: 'line one\nline two\u0007', checked: true, resource_id: 'com.example.notes:id/row' }),
    ],
  };
}

function xmlOf(data: unknown): string {
  const converted = droidBotStateXml(data);
  if ('problem' in converted) throw new Error(`${converted.path}: ${converted.problem}`);
  return converted.xml;
}

/** What a dump shows of a node, ancestors by their class. */
function shown(tree: UiTree): string[] {
  return tree.nodes.map((node) => [node.className, node.text, node.contentDesc, node.resourceId, node.packageName, node.bounds.join(','), node.checked, node.clickable, node.enabled, node.selected, node.password, node.depth, node.siblingIndex, tree.nodes[node.parent]?.className ?? '-'].join('|'));
}

/** The nodes of `tree` displayed, their ancestors too: what `uiautomator dump` writes. */
function displayed(tree: UiTree): UiTree {
  const hidden = new Set<number>();
  for (const node of tree.nodes) if (!node.displayed || hidden.has(node.parent)) hidden.add(node.index);
  return { ...tree, nodes: tree.nodes.filter((node) => !hidden.has(node.index)) };
}

describe('droidBotStateXml', () => {
  it('writes each displayed view as a node, nested as its children say, and leaves a hidden view out with its subtree', () => {
    const xml = xmlOf(page());
    expect(xml.startsWith(`<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="0"><node index="0" text="" resource-id="" class="android.widget.FrameLayout"`)).toBe(true);
    expect(xml).not.toContain('Hidden');
    expect(xml).not.toContain('LinearLayout');
    const tree = parseHierarchy(xml, { sourceName: 'page.xml' });
    expect(tree.nodes.map((node) => node.text || node.className)).toEqual(['android.widget.FrameLayout', 'Notes <all> & "more"', 'line one\nline two?']);
    // The row keeps its place among the frame's children (index 2), as a dump keeps it past a hidden sibling.
    expect(tree.nodes[2]).toMatchObject({ siblingIndex: 2, parent: 0, checked: true, resourceId: 'com.example.notes:id/row', bounds: [0, 400, 1080, 490] });
  });

  it('escapes markup, writes line breaks as character references and characters XML cannot hold as ?', () => {
    const xml = xmlOf(page());
    expect(xml).toContain('text="Notes &lt;all&gt; &amp; &quot;more&quot;"');
    expect(xml).toContain('text="line one&#10;line two?"');
  });

  it('a view shown again is written again: only visible: false hides it', () => {
    const state = page();
    state.views[2] = { ...state.views[2]!, visible: true };
    const tree = parseHierarchy(xmlOf(state), { sourceName: 'page.xml' });
    expect(tree.nodes.map((node) => node.text || node.className)).toContain('Hidden');
  });

  it('the real DroidBot state reads as the parse of its JSON, restricted to displayed nodes', async () => {
    const file = path.join(repoRoot, 'tests/fixtures/droidbot-output/calendar/states/state_2023-10-20_134316.json');
    const text = await readFile(file, 'utf8');
    const fromJson = displayed(parseHierarchy(text, { sourceName: file }));
    const fromXml = parseHierarchy(xmlOf(JSON.parse(text)), { sourceName: 'converted.xml' });
    expect(fromXml.nodes.length).toBeGreaterThan(20);
    // The JSON parse takes its package from the foreground activity, which the XML cannot carry.
    expect(shown(fromXml)).toEqual(shown({ ...fromJson, nodes: fromJson.nodes.map((node, at) => ({ ...node, parent: fromJson.nodes.findIndex((other) => other.index === node.parent), index: at })) }));
  });

  it('a state that does not hold together gives its problem and path, not XML', () => {
    const state = page();
    state.views[0] = { ...state.views[0]!, children: [1, 2, 4, 9] };
    expect(droidBotStateXml(state)).toEqual({ path: 'views[0].children[3]', problem: 'view 9 is referenced as a child but not present in views[]' });
    expect(droidBotStateXml({ nodes: [] })).toMatchObject({ path: 'views' });
  });
});
