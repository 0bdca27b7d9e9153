import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { safeParseHierarchy } from '../../../src/ui/parse-hierarchy.js';
import { fakeDump, type FakeNode } from './dump-builder.js';

const fixtures = path.resolve(import.meta.dirname, '../../fixtures/dumps');
const xmlFixture = readFileSync(path.join(fixtures, 'Hemanth0411-Navi_Agent__settings__self_explore_2025-05-14_18-22-38_4_after_xml.xml'), 'utf8');
const appiumFixture = readFileSync(path.join(fixtures, 'Bioto-tron-ai__nexuslauncher__page_source.xml'), 'utf8');
const jsonFixture = readFileSync(path.join(fixtures, 'MobileLLM-AutoDroid__simplemobiletools-calendar__visualize_state_2023-10-20_134316.json'), 'utf8');

describe('parseHierarchy on cut-off input', () => {
  for (const [name, source] of [['uiautomator dump', xmlFixture], ['Appium page source', appiumFixture], ['DroidBot JSON', jsonFixture]] as const) {
    it(`rejects every truncation of a ${name} with a HierarchyParseError and a position`, () => {
      const content = source.trimEnd();
      const step = Math.max(7, Math.floor(content.length / 400));
      for (let cut = 1; cut < content.length; cut += step) {
        const result = safeParseHierarchy(content.slice(0, cut), { sourceName: 'cut' });
        expect(result.success, `cut at ${cut} parsed`).toBe(false);
        if (!result.success) expect(result.error.message).toMatch(/^cut(:\d+:\d+)?: /);
      }
      expect(safeParseHierarchy(content).success).toBe(true);
    });
  }
});

const text = fc.string({ unit: fc.constantFrom('a', 'Z', ' ', '&', '<', '>', '"', "'", 'é', '中', '😀', '\n'), maxLength: 12 });
const node: fc.Memo<FakeNode> = fc.memo((depth) => fc.record({
  class: fc.constantFrom('android.widget.TextView', 'android.widget.Button', 'android.view.ViewGroup'),
  text,
  desc: text,
  clickable: fc.boolean(),
  bounds: fc.tuple(fc.integer({ min: -50, max: 1000 }), fc.integer({ min: -50, max: 2000 }), fc.integer({ min: 0, max: 1000 }), fc.integer({ min: 0, max: 2000 })),
  children: depth <= 1 ? fc.constant([]) : fc.array(node(depth - 1), { maxLength: 3 }),
}));

function flatten(nodes: readonly FakeNode[], out: FakeNode[] = []): FakeNode[] {
  for (const each of nodes) {
    out.push(each);
    flatten(each.children ?? [], out);
  }
  return out;
}

describe('parseHierarchy round trip', () => {
  it('reads back every node of a generated dump in pre-order with its class, texts, flags and bounds', () => {
    fc.assert(fc.property(fc.array(node(4), { minLength: 1, maxLength: 3 }), (roots) => {
      const result = safeParseHierarchy(fakeDump(...roots));
      expect(result.success).toBe(true);
      if (!result.success) return;
      const expected = flatten(roots);
      expect(result.value.nodes.map((parsed) => [parsed.className, parsed.text, parsed.contentDesc, parsed.clickable, [...parsed.bounds]]))
        .toEqual(expected.map((each) => [each.class, each.text, each.desc, each.clickable, [...each.bounds]]));
      expect(result.value.roots).toHaveLength(roots.length);
    }), { numRuns: 200, seed: 7 });
  });
});
