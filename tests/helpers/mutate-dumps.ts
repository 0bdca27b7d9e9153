// Seeded mutations of real UI dumps: the hostile inputs the parsers must turn into either
// a tree or a named error, never a crash. Shared by the mutation-corpus test and
// scripts/attack-senseact.ts (which runs more of them over a bigger corpus).

/** One generated input: its bytes as a file would hold them, and how it was made. */
export interface Mutant {
  /** `<seed file>#<n>:<operator>`, unique within one generation. */
  readonly name: string;
  readonly operator: string;
  /** The seed's dialect family: `xml` or `json`. */
  readonly family: 'xml' | 'json';
  /** File content; byte-level operators (encodings) give bytes, the rest text. */
  readonly content: string | Uint8Array;
}

/** A real dump a mutant starts from. */
export interface SeedDump {
  readonly name: string;
  readonly text: string;
}

/** mulberry32: a small seeded generator, enough for choosing mutations. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Random = () => number;
const pick = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
const between = (random: Random, low: number, high: number): number => low + Math.floor(random() * (high - low + 1));

const junk = ['<', '>', '"', "'", '&', '&#x110000;', '&#0;', '&bogus;', ']]>', '<!--', '<?', '\u0000', '\ufeff', '{', '}', '[', ']', ',', ':', 'null', '-1', '1e300', '\\', '\ud800', '</hierarchy>', '<hierarchy>', '<node', '/>'];
const absurdNumbers = ['99999999999999999999', '-2147483649', '4294967296', '1e309', 'NaN', '-0', '0x10', '1.5'];

// --- text operators (any dialect) ---------------------------------------------------------

function truncate(text: string, random: Random): string {
  return text.slice(0, between(random, 0, text.length - 1));
}

function deleteSlice(text: string, random: Random): string {
  const start = between(random, 0, text.length - 1);
  return text.slice(0, start) + text.slice(start + between(random, 1, 400));
}

function duplicateSlice(text: string, random: Random): string {
  const start = between(random, 0, text.length - 1);
  const slice = text.slice(start, start + between(random, 1, 600));
  const at = between(random, 0, text.length);
  return text.slice(0, at) + slice + text.slice(at);
}

function insertJunk(text: string, random: Random): string {
  let result = text;
  for (let count = between(random, 1, 4); count > 0; count--) {
    const at = between(random, 0, result.length);
    result = result.slice(0, at) + pick(random, junk) + result.slice(at);
  }
  return result;
}

function replaceNumber(text: string, random: Random): string {
  const digits = [...text.matchAll(/-?\d+/g)];
  if (digits.length === 0) return insertJunk(text, random);
  const match = pick(random, digits);
  return text.slice(0, match.index) + pick(random, absurdNumbers) + text.slice(match.index + match[0].length);
}

// --- XML operators ------------------------------------------------------------------------

const nodeTag = '<node index="0" text="" class="android.widget.FrameLayout" package="com.example" bounds="[0,0][10,10]">';

/** How deep the nesting operators go; tests pick depths around the parser's limit to stay fast. */
let nestingDepths: readonly number[] = [600, 3_000, 12_000, 25_000];

/** Wraps the first element under the root in `depth` nested nodes. */
function deepNest(text: string, random: Random): string {
  const depth = pick(random, nestingDepths);
  const afterRoot = text.indexOf('>', text.indexOf('<hierarchy')) + 1;
  const rootClose = text.lastIndexOf('</hierarchy>');
  if (afterRoot <= 0 || rootClose < afterRoot) return `<hierarchy rotation="0">${nodeTag.repeat(depth)}${'</node>'.repeat(depth)}</hierarchy>`;
  const tag = text.includes('<node') ? nodeTag : nodeTag.replace('<node', '<android.widget.FrameLayout');
  const close = text.includes('<node') ? '</node>' : '</android.widget.FrameLayout>';
  return text.slice(0, afterRoot) + tag.repeat(depth) + text.slice(afterRoot, rootClose) + close.repeat(depth) + text.slice(rootClose);
}

function absurdBounds(text: string, random: Random): string {
  const all = [...text.matchAll(/bounds="[^"]*"/g)];
  if (all.length === 0) return insertJunk(text, random);
  const replacement = pick(random, [
    'bounds="[0,0][99999999999,5]"',
    'bounds="[500,500][100,100]"',
    'bounds="[-2147483649,0][10,10]"',
    'bounds="[0,0][1e3,10]"',
    'bounds="[0,0]"',
    'bounds="[[0,0],[1,1]]"',
  ]);
  let result = text;
  for (let count = between(random, 1, 3); count > 0; count--) {
    const match = pick(random, all);
    result = result.slice(0, match.index) + replacement + result.slice(match.index + match[0].length);
  }
  return result;
}

function breakTags(text: string, random: Random): string {
  const choice = between(random, 0, 3);
  if (choice === 0) return text.replace(/<\/[^>]+>/, '');
  if (choice === 1) return text.replace(/"/, '');
  if (choice === 2) return `${text}${text}`;
  return text.replace(/<node|<android/, '<1node');
}

// --- DroidBot JSON operators --------------------------------------------------------------

type View = Record<string, unknown>;

function views(state: Record<string, unknown>): View[] {
  return Array.isArray(state['views']) ? (state['views'] as View[]) : [];
}

const jsonOperators: Record<string, (state: Record<string, unknown>, random: Random) => unknown> = {
  'duplicate-id': (state, random) => {
    const list = views(state);
    if (list.length > 1) {
      const from = between(random, 0, list.length - 1);
      const to = (from + between(random, 1, list.length - 1)) % list.length;
      list[to]!['temp_id'] = list[from]!['temp_id'];
    }
    return state;
  },
  'children-object': (state, random) => {
    const list = views(state);
    if (list.length > 0) pick(random, list)['children'] = { 0: 1 };
    return state;
  },
  'missing-parent': (state, random) => {
    const list = views(state);
    if (list.length > 1) delete list[between(random, 1, list.length - 1)]!['parent'];
    return state;
  },
  cycle: (state, random) => {
    const list = views(state);
    if (list.length > 2) {
      const child = list[between(random, 1, list.length - 1)]!;
      const childId = child['temp_id'];
      if (Array.isArray(child['children'])) (child['children'] as unknown[]).push(list[0]!['temp_id']);
      else child['children'] = [list[0]!['temp_id']];
      list[0]!['parent'] = childId;
    }
    return state;
  },
  'self-child': (state, random) => {
    const list = views(state);
    if (list.length > 0) {
      const view = pick(random, list);
      view['children'] = [view['temp_id']];
    }
    return state;
  },
  'absurd-bounds': (state, random) => {
    const list = views(state);
    if (list.length > 0) pick(random, list)['bounds'] = pick(random, [[[0, 0], [1e300, 5]], [[500, 500], [100, 100]], [[0, 0], [2 ** 31, 10]], [[0, 0]], 'x', [[0.5, 0], [1, 1]]]);
    return state;
  },
  'missing-child': (state, random) => {
    const list = views(state);
    if (list.length > 0) pick(random, list)['children'] = [987654321];
    return state;
  },
  'non-numeric-child': (state, random) => {
    const list = views(state);
    if (list.length > 0) pick(random, list)['children'] = ['1', null, { id: 2 }];
    return state;
  },
  'view-not-object': (state, random) => {
    const list = views(state);
    if (list.length > 0) list[between(random, 0, list.length - 1)] = pick(random, [null, 7, 'view', []]) as unknown as View;
    return state;
  },
  'id-not-number': (state, random) => {
    const list = views(state);
    if (list.length > 0) pick(random, list)['temp_id'] = pick(random, ['3', null, 1.5, -1]);
    return state;
  },
  'views-not-array': (state, random) => {
    state['views'] = pick(random, [{}, 'views', null, 12]);
    return state;
  },
  'deep-chain': (_state, random) => {
    const depth = pick(random, nestingDepths);
    const chain: View[] = [];
    for (let id = 0; id < depth; id++) {
      chain.push({ temp_id: id, parent: id === 0 ? -1 : id - 1, children: id + 1 < depth ? [id + 1] : [], class: 'android.widget.FrameLayout', bounds: [[0, 0], [100, 100]], package: 'com.example' });
    }
    return { views: chain, foreground_activity: 'com.example/.Main' };
  },
  'wrong-types': (state, random) => {
    const list = views(state);
    if (list.length > 0) {
      const view = pick(random, list);
      view[pick(random, ['text', 'class', 'package', 'content_description', 'resource_id', 'visible', 'enabled'])] = pick(random, [123, ['a'], { a: 1 }, true, null]);
    }
    return state;
  },
  'not-an-object': (_state, random) => pick(random, [[], 'state', 42, null]),
};

const textOperators: Record<string, (text: string, random: Random) => string> = {
  truncate,
  'delete-slice': deleteSlice,
  'duplicate-slice': duplicateSlice,
  'insert-junk': insertJunk,
  'replace-number': replaceNumber,
};

const xmlOperators: Record<string, (text: string, random: Random) => string> = {
  'deep-nest': deepNest,
  'absurd-bounds': absurdBounds,
  'break-tags': breakTags,
};

/** `text` as UTF-16 (little or big endian) with a byte-order mark, or UTF-8 with one. */
function encodeWithBom(text: string, encoding: 'utf16le' | 'utf16be' | 'utf8'): Uint8Array {
  if (encoding === 'utf8') return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text, 'utf8')]);
  const little = Buffer.from(text, 'utf16le');
  if (encoding === 'utf16le') return Buffer.concat([Buffer.from([0xff, 0xfe]), little]);
  const big = Buffer.from(little);
  big.swap16();
  return Buffer.concat([Buffer.from([0xfe, 0xff]), big]);
}

/**
 * `count` mutants of `seeds`, the same for the same `seed` and options: text damage
 * (truncation, deleted/duplicated slices, junk characters, absurd numbers), XML damage
 * (nesting `depths` deep, by default up to 25,000; absurd bounds, broken tags), structural
 * DroidBot damage (duplicate ids, cycles, missing parents, non-array children, chains
 * `depths` deep) and encodings
 * (UTF-16 LE/BE and UTF-8 with a byte-order mark).
 */
export function generateMutants(seeds: readonly SeedDump[], count: number, seed: number, options: { readonly depths?: readonly number[] } = {}): Mutant[] {
  nestingDepths = options.depths ?? [600, 3_000, 12_000, 25_000];
  const random = seededRandom(seed);
  const mutants: Mutant[] = [];
  // DroidBot states are few in a corpus but carry the structural attacks: draw them a third of the time.
  const json = seeds.filter((candidate) => candidate.text.trimStart().startsWith('{'));
  const xml = seeds.filter((candidate) => !candidate.text.trimStart().startsWith('{'));
  for (let n = 0; n < count; n++) {
    const source = json.length > 0 && (xml.length === 0 || random() < 1 / 3) ? pick(random, json) : pick(random, xml);
    const family = source.text.trimStart().startsWith('{') ? 'json' : 'xml';
    const roll = random();
    let operator: string;
    let content: string | Uint8Array;
    if (roll < 0.08) {
      const encoding = pick(random, ['utf16le', 'utf16be', 'utf8'] as const);
      operator = `bom-${encoding}`;
      content = encodeWithBom(source.text, encoding);
    } else if (roll < 0.5 && family === 'json') {
      operator = pick(random, Object.keys(jsonOperators));
      content = JSON.stringify(jsonOperators[operator]!(JSON.parse(source.text) as Record<string, unknown>, random));
    } else if (roll < 0.5) {
      operator = pick(random, Object.keys(xmlOperators));
      content = xmlOperators[operator]!(source.text, random);
    } else {
      operator = pick(random, Object.keys(textOperators));
      content = textOperators[operator]!(source.text, random);
    }
    mutants.push({ name: `${source.name}#${n}:${operator}`, operator, family, content });
  }
  return mutants;
}

/** Every operator `generateMutants` may apply. */
export const mutationOperators: readonly string[] = [...Object.keys(textOperators), ...Object.keys(xmlOperators), ...Object.keys(jsonOperators), 'bom-utf16le', 'bom-utf16be', 'bom-utf8'];
