import { XMLParser } from 'fast-xml-parser';
import type { Simulator } from '../../../src/sim/index.js';

/** One `<node>` of a uiautomator dump, attributes as strings, plus parsed bounds and depth. */
export interface DumpNode {
  readonly attrs: Record<string, string>;
  readonly bounds: [number, number, number, number];
  readonly depth: number;
  readonly window: number;
}

const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', preserveOrder: true, parseAttributeValue: false, trimValues: false });

type Ordered = Record<string, unknown> & { ':@'?: Record<string, string> };

/** Flattens a `uiautomator-dump` XML string into nodes (pre-order). */
export function dumpNodes(xml: string): DumpNode[] {
  const doc = parser.parse(xml) as Ordered[];
  const hierarchy = doc.find((entry) => 'hierarchy' in entry);
  if (hierarchy === undefined) throw new Error('no <hierarchy> in XML');
  const out: DumpNode[] = [];
  const walk = (items: Ordered[], depth: number, window: number): void => {
    items.forEach((item, i) => {
      const tag = Object.keys(item).find((k) => k !== ':@');
      if (tag === undefined || tag === '#text') return;
      const attrs = item[':@'] ?? {};
      const m = /^\[(-?\d+),(-?\d+)\]\[(-?\d+),(-?\d+)\]$/.exec(attrs['bounds'] ?? '');
      if (m === null) throw new Error(`bad bounds ${attrs['bounds']}`);
      out.push({ attrs, bounds: [Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4])], depth, window: depth === 0 ? i : window });
      walk((item[tag] as Ordered[]) ?? [], depth + 1, depth === 0 ? i : window);
    });
  };
  walk((hierarchy['hierarchy'] as Ordered[]) ?? [], 0, 0);
  return out;
}

/** Attribute name → exact value or regex (e.g. `{ text: 'OK' }`, `{ checked: 'true' }`). */
export type NodeQuery = Readonly<Record<string, string | RegExp>>;

function matches(node: DumpNode, query: NodeQuery): boolean {
  return Object.entries(query).every(([key, want]) => {
    const value = node.attrs[key] ?? '';
    return typeof want === 'string' ? value === want || (key === 'resource-id' && value.endsWith(`/${want}`)) : want.test(value);
  });
}

/** All nodes on screen matching the query (resource-id may be given as the entry name). */
export function findAll(sim: Simulator, query: NodeQuery): DumpNode[] {
  return dumpNodes(sim.pageSource('uiautomator-dump')).filter((n) => matches(n, query));
}

/** The first node matching; throws with the screen's texts when none does. */
export function find(sim: Simulator, query: NodeQuery): DumpNode {
  const nodes = dumpNodes(sim.pageSource('uiautomator-dump'));
  const found = nodes.find((n) => matches(n, query));
  if (found === undefined) {
    const seen = nodes.map((n) => n.attrs['text'] || n.attrs['content-desc']).filter(Boolean).join(' | ');
    throw new Error(`no node matches ${JSON.stringify(query, (_k, v: unknown) => (v instanceof RegExp ? String(v) : v))} on ${sim.currentPackage()}${sim.currentActivity()}; visible: ${seen}`);
  }
  return found;
}

export function center(node: DumpNode): [number, number] {
  return [Math.floor((node.bounds[0] + node.bounds[2]) / 2), Math.floor((node.bounds[1] + node.bounds[3]) / 2)];
}

/** Taps the centre of the first node matching the query. */
export function tapOn(sim: Simulator, query: NodeQuery): void {
  const [x, y] = center(find(sim, query));
  sim.tap(x, y);
}

export function exists(sim: Simulator, query: NodeQuery): boolean {
  return findAll(sim, query).length > 0;
}
