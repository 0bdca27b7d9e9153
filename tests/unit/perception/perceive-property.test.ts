import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { UnitId } from '../../../src/perception/control-unit.js';
import { findLostActionables } from '../../../src/perception/find-lost-actionables.js';
import { perceive } from '../../../src/perception/perceive.js';
import { toPerceptionJson } from '../../../src/perception/perception-json.js';
import type { Scg } from '../../../src/perception/scg.js';
import { parseHierarchy } from '../../../src/ui/parse-hierarchy.js';
import { fakeDump, type FakeNode } from '../ui/dump-builder.js';

const classes = ['android.widget.FrameLayout', 'android.widget.LinearLayout', 'android.widget.TextView', 'android.widget.Button', 'android.widget.EditText', 'android.widget.Switch', 'android.widget.CheckBox', 'android.widget.Spinner', 'androidx.recyclerview.widget.RecyclerView', 'android.widget.ImageView'];
const words = ['', '', 'Save', 'Name', 'On', 'Wi-Fi', 'OK', 'Delete', 'Email', 'Add'];

/** A random view tree inside `box`: children get random sub-rectangles (sometimes spilling off screen). */
function nodeArbitrary(box: readonly [number, number, number, number], depth: number): fc.Arbitrary<FakeNode> {
  const [l, t, r, b] = box;
  const rectangle = fc.tuple(fc.integer({ min: l, max: r }), fc.integer({ min: t, max: b }), fc.integer({ min: 0, max: r - l }), fc.integer({ min: 0, max: b - t + 300 }))
    .map(([x, y, w, h]) => [x, y, Math.min(r, x + w), y + h] as const);
  return fc.record({
    class: fc.constantFrom(...classes),
    text: fc.constantFrom(...words),
    desc: fc.constantFrom(...words),
    clickable: fc.boolean(),
    longClickable: fc.integer({ min: 0, max: 4 }).map((n) => n === 0),
    checkable: fc.integer({ min: 0, max: 5 }).map((n) => n === 0),
    scrollable: fc.integer({ min: 0, max: 6 }).map((n) => n === 0),
    bounds: rectangle,
  }).chain((node) => (depth === 0
    ? fc.constant<FakeNode>(node)
    : fc.array(nodeArbitrary(node.bounds, depth - 1), { maxLength: 3 }).map((children): FakeNode => ({ ...node, children }))));
}

const screenArbitrary = fc.array(nodeArbitrary([0, 0, 1080, 2400], 3), { minLength: 1, maxLength: 4 })
  .map((children) => fakeDump({ bounds: [0, 0, 1080, 2400], children }));

function acyclic(scg: Scg): boolean {
  const next = new Map<UnitId, UnitId[]>();
  for (const [from, to] of scg.edges) (next.get(from) ?? next.set(from, []).get(from)!).push(to);
  const state = new Map<UnitId, 1 | 2>();
  const visit = (unit: UnitId): boolean => {
    if (state.get(unit) === 2) return true;
    if (state.get(unit) === 1) return false;
    state.set(unit, 1);
    const ok = (next.get(unit) ?? []).every(visit);
    state.set(unit, 2);
    return ok;
  };
  return scg.units.every((unit) => visit(unit.id));
}

describe('perceive on random view trees', () => {
  it('loses no actionable node, gives distinct ids, builds an acyclic SCG, and is deterministic', () => {
    fc.assert(fc.property(screenArbitrary, fc.constantFrom(1 as const, 2 as const), fc.boolean(), fc.boolean(), (xml, level, useBounds, mergeSwitch) => {
      const tree = parseHierarchy(xml);
      const perception = perceive(tree, { level, useBounds, mergeSwitch });
      expect(findLostActionables(perception).lost).toEqual([]);
      const ids = perception.units.map((unit) => unit.id);
      expect(new Set(ids).size).toBe(ids.length);
      expect(acyclic(perception.scg)).toBe(true);
      for (const unit of perception.units) {
        if (unit.tap === null) continue;
        expect(unit.tap[0]).toBeGreaterThanOrEqual(0);
        expect(unit.tap[1]).toBeGreaterThanOrEqual(0);
        expect(unit.tap[0]).toBeLessThan(tree.width);
        expect(unit.tap[1]).toBeLessThan(tree.height);
      }
      expect(JSON.stringify(toPerceptionJson(perceive(parseHierarchy(xml), { level, useBounds, mergeSwitch })))).toBe(JSON.stringify(toPerceptionJson(perception)));
    }), { numRuns: Number(process.env['PERCEIVE_PROPERTY_RUNS'] ?? 150), ...(process.env['PERCEIVE_PROPERTY_RUNS'] ? {} : { seed: 20261122 }) });
  });
});
