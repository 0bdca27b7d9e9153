import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { assignShortIds } from '../../../src/perception/node-ids.js';
import { perceive, type Perception } from '../../../src/perception/perceive.js';
import { parseHierarchy } from '../../../src/ui/parse-hierarchy.js';
import { fixtureDumps } from './corpus.js';

const settings = readFileSync(path.join(fixtureDumps, 'Hemanth0411-Navi_Agent__settings__self_explore_2025-05-14_18-22-38_4_after_xml.xml'), 'utf8');
const unrelated = '<node index="9" text="Unrelated banner" resource-id="com.android.settings:id/banner" class="android.widget.Button" package="com.android.settings" content-desc="" checkable="false" checked="false" clickable="true" enabled="true" focusable="true" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[0,2700][1280,2800]" />';

function idsByNode(perception: Perception): Map<string, string> {
  return new Map(perception.nodes.map((node) => {
    const source = perception.tree.nodes[node.node]!;
    return [`${source.xpath}|${source.text}|${source.contentDesc}|${source.bounds.join(',')}`, node.id];
  }));
}

describe('node ids', () => {
  it('are n + 4 hex digits, deterministic, distinct for duplicates, and probe on collision', () => {
    const ids = assignShortIds(['a', 'b', 'a', 'c'], 'n');
    expect(ids).toEqual(assignShortIds(['a', 'b', 'a', 'c'], 'n'));
    expect(new Set(ids).size).toBe(4);
    for (const id of ids) expect(id).toMatch(/^n[0-9a-f]{4}$/);
    const many = assignShortIds(Array.from({ length: 5000 }, (_, i) => `fingerprint-${i}`), 'n');
    expect(new Set(many).size).toBe(5000);
  });

  it('do not change when an unrelated node is added elsewhere on the screen', () => {
    const before = perceive(parseHierarchy(settings));
    const at = settings.lastIndexOf('</node></hierarchy>');
    expect(at).toBeGreaterThan(0);
    const after = perceive(parseHierarchy(`${settings.slice(0, at)}${unrelated}${settings.slice(at)}`));
    expect(after.nodes.length).toBe(before.nodes.length + 1);
    const beforeIds = idsByNode(before);
    const afterIds = idsByNode(after);
    for (const [key, id] of beforeIds) expect(afterIds.get(key), key).toBe(id);
    expect(after.view).toContain('"Unrelated banner"');
  });

  it('do not change when another node changes its text', () => {
    const before = perceive(parseHierarchy(settings));
    const after = perceive(parseHierarchy(settings.replace('text="AndroidWifi"', 'text="HomeWifi"')));
    const changed = before.nodes.filter((node, index) => node.id !== after.nodes[index]!.id);
    expect(changed.length).toBeLessThanOrEqual(1);
    const unit = (perception: Perception) => perception.units.find((candidate) => candidate.label === 'Airplane mode')!.id;
    expect(unit(after)).toBe(unit(before));
  });
});
