// DroidBot states are checked, not trusted: a damaged state is a named error with the view's
// path, a well-formed one (real, from DroidTask) reads as before, and any depth is walked
// without recursion.
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { boundsArea, isInvertedBounds } from '../../../src/ui/bounds.js';
import { maxHierarchyDepth } from '../../../src/ui/droidbot-state.js';
import { HierarchyParseError } from '../../../src/ui/hierarchy-parse-error.js';
import { parseHierarchy } from '../../../src/ui/parse-hierarchy.js';

const repoRoot = path.resolve(import.meta.dirname, '../../..');
const real = readFileSync(path.join(repoRoot, 'tests/fixtures/autodroid/state_2023-10-20_134316.json'), 'utf8');
type View = Record<string, unknown>;

function damaged(mutate: (views: View[]) => void): string {
  const state = JSON.parse(real) as { views: View[] };
  mutate(state.views);
  return JSON.stringify(state);
}

function problem(source: string): string {
  try {
    parseHierarchy(source, { sourceName: 'state.json' });
  } catch (error) {
    if (HierarchyParseError.isInstance(error)) return error.message;
    throw error;
  }
  throw new Error('expected a HierarchyParseError');
}

function chain(depth: number): string {
  return JSON.stringify({ views: Array.from({ length: depth }, (_, id) => ({ temp_id: id, parent: id - 1, children: id + 1 < depth ? [id + 1] : [], class: 'android.widget.FrameLayout', bounds: [[0, 0], [10, 10]] })) });
}

describe('parseHierarchy: damaged DroidBot states', () => {
  it('reads the real state whole: 117 views, 117 nodes (positive control)', () => {
    const tree = parseHierarchy(real);
    expect(tree.nodes).toHaveLength(117);
    expect(new Set(tree.nodes.map((node) => node.xpath)).size).toBeGreaterThan(10);
  });

  it('names each kind of damage with the view path', () => {
    expect(problem(damaged((views) => { views[5]!['temp_id'] = views[3]!['temp_id']; }))).toContain('state.json: views[5].temp_id: duplicate id 3: views[3] has it too');
    expect(problem(damaged((views) => { views[1]!['children'] = { 0: 2 }; }))).toMatch(/state\.json: views\[1\]\.children: .*expected array/);
    expect(problem(damaged((views) => { delete views[4]!['parent']; }))).toMatch(/views\[4\]\.parent: .*expected number/);
    expect(problem(damaged((views) => { views[4]!['parent'] = 9999; }))).toContain('views[4].parent: parent 9999 is not in views[]');
    expect(problem(damaged((views) => { views[2]!['bounds'] = [[0, 0], [1e300, 10]]; }))).toMatch(/views\[2\]\.bounds\[1\]\[0\]: invalid bounds .*within 32 bits/);
    expect(problem(damaged((views) => { views[2]!['text'] = 42; }))).toMatch(/views\[2\]\.text: .*expected string/);
    expect(problem(damaged((views) => { views[4]!['children'] = [...(views[4]!['children'] as number[]), 5]; }))).toMatch(/views\[4\]\.children\[\d+\]: view 5 is also a child of view 4/);
    expect(problem(damaged((views) => { views[0]!['children'] = [...(views[0]!['children'] as number[]), 5]; }))).toContain('views[0].children[1]: view 5 is listed as a child, but its parent is 4');
  });

  it('refuses a cycle, and a view that is its own child', () => {
    const cycle = JSON.stringify({ views: [
      { temp_id: 0, parent: -1, children: [], bounds: [[0, 0], [10, 10]] },
      { temp_id: 1, parent: 2, children: [2], bounds: [[0, 0], [10, 10]] },
      { temp_id: 2, parent: 1, children: [1], bounds: [[0, 0], [10, 10]] },
    ] });
    expect(problem(cycle)).toContain('view 1 cannot be reached from a root (1 root(s)): its ancestors form a cycle');
    expect(problem(JSON.stringify({ views: [{ temp_id: 0, parent: 0, children: [0], bounds: [[0, 0], [1, 1]] }] }))).toContain('lists itself as its child');
  });

  it('reads a chain as deep as the limit, and names one a level deeper (XML alike)', () => {
    const tree = parseHierarchy(chain(maxHierarchyDepth));
    expect(tree.nodes).toHaveLength(maxHierarchyDepth);
    expect(tree.nodes.at(-1)!.depth).toBe(maxHierarchyDepth - 1);
    expect(problem(chain(maxHierarchyDepth + 1))).toContain(`views[${maxHierarchyDepth}]: the views nest deeper than ${maxHierarchyDepth} levels`);
    expect(problem(chain(25_000))).toContain('nest deeper than');
    const nested = (depth: number): string => `<hierarchy rotation="0">${'<node class="a" bounds="[0,0][1,1]">'.repeat(depth)}${'</node>'.repeat(depth)}</hierarchy>`;
    expect(parseHierarchy(nested(maxHierarchyDepth)).nodes).toHaveLength(maxHierarchyDepth);
    expect(problem(nested(maxHierarchyDepth + 1))).toMatch(/state\.json:1:\d+: the elements nest deeper than 1000 levels/);
  });

  it('keeps inverted DroidBot bounds as recorded, with zero area, as in XML (DroidTask writes them for views scrolled partly off screen)', () => {
    const tree = parseHierarchy(damaged((views) => { views[2]!['bounds'] = [[0, 311], [-2160, 1972]]; }));
    const clipped = tree.nodes.filter((node) => isInvertedBounds(node.bounds));
    expect(clipped.map((node) => node.bounds)).toEqual([[0, 311, -2160, 1972]]);
    expect(boundsArea(clipped[0]!.bounds)).toBe(0);
    expect(tree.nodes).toHaveLength(117);
    // Negative control: bounds that are no coordinates at all still name the view.
    expect(problem(damaged((views) => { views[2]!['bounds'] = [[0, 311], [-2160.5, 1972]]; }))).toMatch(/views\[2\]\.bounds\[1\]\[0\]: invalid bounds \[\[0,311\],\[-2160\.5,1972\]\]/);
  });

  it('keeps inverted XML bounds (real dumps hold them) but refuses coordinates beyond 32 bits', () => {
    expect(parseHierarchy('<hierarchy rotation="0"><node class="a" bounds="[500,500][10,10]"/></hierarchy>').nodes[0]!.bounds).toEqual([500, 500, 10, 10]);
    expect(problem('<hierarchy rotation="0"><node class="a" bounds="[0,0][99999999999,5]"/></hierarchy>')).toContain('invalid bounds "[0,0][99999999999,5]" on <node> (expected [left,top][right,bottom] with integers within 32 bits)');
  });

  it('reads a view that was never laid out, whose bounds are the two ends of the 32-bit range, and refuses one step past either end', () => {
    // DroidBot records such views as they come ([[2147483647,2147483647],[-2147483648,-2147483648]]: 13 state files of
    // the public DroidBot runs we measure on, 4 of DroidTask's); a converter writes them into XML as they are.
    const never: [[number, number], [number, number]] = [[2 ** 31 - 1, 2 ** 31 - 1], [-(2 ** 31), -(2 ** 31)]];
    const tree = parseHierarchy(damaged((views) => { views[2]!['bounds'] = never; }));
    expect(tree.nodes).toHaveLength(117);
    expect(tree.nodes.filter((node) => isInvertedBounds(node.bounds)).map((node) => node.bounds)).toEqual([[2147483647, 2147483647, -2147483648, -2147483648]]);
    const xml = (bounds: string): string => `<hierarchy rotation="0"><node class="a" bounds="[0,0][100,100]"><node class="b" bounds="${bounds}"/></node></hierarchy>`;
    const fromXml = parseHierarchy(xml('[2147483647,2147483647][-2147483648,-2147483648]'));
    expect(fromXml.nodes[1]!.bounds).toEqual([2147483647, 2147483647, -2147483648, -2147483648]);
    expect(boundsArea(fromXml.nodes[1]!.bounds)).toBe(0);
    // Negative controls: one past the low end, one past the high end.
    expect(problem(xml('[0,0][-2147483649,5]'))).toContain('invalid bounds "[0,0][-2147483649,5]"');
    expect(problem(xml('[0,0][2147483648,5]'))).toContain('invalid bounds "[0,0][2147483648,5]"');
    expect(problem(damaged((views) => { views[2]!['bounds'] = [[0, 0], [-(2 ** 31) - 1, 5]]; }))).toMatch(/views\[2\]\.bounds\[1\]\[0\]: invalid bounds/);
  });
});
