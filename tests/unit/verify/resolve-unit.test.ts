import { describe, expect, it } from 'vitest';
import { perceive } from '../../../src/perception/perceive.js';
import { parseQuery } from '../../../src/verify/parse-predicate.js';
import { resolveUnit } from '../../../src/verify/resolve-unit.js';
import { readDump, screen } from './screens.js';

describe('resolveUnit (real Settings screen through perceive)', () => {
  const perception = perceive(screen(readDump('settings')));

  it('maps a label inside a row to the unit that holds it', () => {
    const resolved = resolveUnit(parseQuery('text="Airplane mode"'), perception);
    expect(resolved.units).toHaveLength(1);
    const unit = resolved.units[0]!;
    const tree = perception.tree;
    // The unit holds the label node itself or one of its ancestors.
    const label = tree.nodes.find((node) => node.text === 'Airplane mode')!;
    const ancestors = new Set<number>();
    for (let index = label.index; index >= 0; index = tree.nodes[index]!.parent) ancestors.add(index);
    expect(unit.members.some((member) => ancestors.has(member.node))).toBe(true);
  });

  it('returns every unit an ambiguous query hits, ranked, and a reason when nothing matches', () => {
    const titles = resolveUnit(parseQuery('id="title"'), perception);
    expect(titles.units.length).toBeGreaterThan(1);
    const missing = resolveUnit(parseQuery('text="Bluetooth"'), perception);
    expect(missing.units).toEqual([]);
    expect(missing.problem).toBeDefined();
  });
});
