import { describe, expect, it } from 'vitest';
import { findLostActionables } from '../../../src/perception/find-lost-actionables.js';
import { perceive } from '../../../src/perception/perceive.js';
import { toPerceptionJson } from '../../../src/perception/perception-json.js';
import { parseHierarchy } from '../../../src/ui/parse-hierarchy.js';
import { corpusDumps, readDumps } from './corpus.js';

const dumps = readDumps(corpusDumps);

describe('the real dump corpus', () => {
  it('has the dumps the data README promises (both XML dialects and DroidBot JSON)', () => {
    expect(dumps.length).toBeGreaterThanOrEqual(80);
    const dialects = new Set(dumps.map(([, text]) => parseHierarchy(text).dialect));
    expect([...dialects].sort()).toEqual(['appium-uia2', 'droidbot', 'uiautomator-dump']);
  });

  for (const level of [1, 2] as const) {
    it(`every file parses and reduces at level ${level}, and nothing a user could act on is lost`, () => {
      let checked = 0;
      const lost: string[] = [];
      for (const [name, text] of dumps) {
        const perception = perceive(parseHierarchy(text, { sourceName: name }), { level });
        expect(perception.view.startsWith('app ')).toBe(true);
        const coverage = findLostActionables(perception);
        checked += coverage.checked;
        for (const item of coverage.lost) lost.push(`${name}: ${item.reason}`);
      }
      expect(lost).toEqual([]);
      expect(checked).toBeGreaterThan(1000);
    });
  }

  it('level 2 keeps fewer nodes than level 1, and level 1 fewer than the source', () => {
    let source = 0;
    let sparse = 0;
    let merged = 0;
    for (const [, text] of dumps) {
      const tree = parseHierarchy(text);
      source += tree.nodes.length;
      sparse += perceive(tree, { level: 1 }).nodes.length;
      merged += perceive(tree, { level: 2 }).nodes.length;
    }
    expect(sparse).toBeLessThan(source);
    expect(merged).toBeLessThan(sparse);
  });

  it('is deterministic: the same input gives byte-identical JSON twice', () => {
    for (const [name, text] of dumps.slice(0, 40)) {
      const first = JSON.stringify(toPerceptionJson(perceive(parseHierarchy(text, { sourceName: name }))));
      const second = JSON.stringify(toPerceptionJson(perceive(parseHierarchy(text, { sourceName: name }))));
      expect(second).toBe(first);
    }
  });

  it('gives every kept node and every unit a distinct id of the form n + 4 hex digits', () => {
    for (const [, text] of dumps) {
      const perception = perceive(parseHierarchy(text));
      const ids = perception.nodes.map((node) => node.id);
      expect(new Set(ids).size).toBe(ids.length);
      for (const id of ids) expect(id).toMatch(/^n[0-9a-f]{4}$/);
      const unitIds = perception.units.map((unit) => unit.id);
      expect(new Set(unitIds).size).toBe(unitIds.length);
    }
  });

  it('the lost-actionable check fails when a unit taps somewhere else (it is not vacuous)', () => {
    const [, text] = dumps.find(([name]) => name.includes('settings__self_explore'))!;
    const perception = perceive(parseHierarchy(text));
    const broken = { ...perception, units: perception.units.map((unit) => (unit.tap ? { ...unit, tap: [0, 0] as const } : unit)) };
    expect(findLostActionables(broken).lost.length).toBeGreaterThan(0);
    const dropped = { ...perception, units: perception.units.filter((unit) => unit.type !== 'toggle') };
    expect(findLostActionables(dropped).lost.some((item) => item.reason.includes('is in no unit'))).toBe(true);
  });
});
