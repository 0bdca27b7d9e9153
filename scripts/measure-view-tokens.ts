// Tokens of the planner's reduced view (perceive(...).view, what the planner and the ReAct
// baselines read) on real screens, and whether every actionable element is still in it:
//   npx tsx scripts/measure-view-tokens.ts [--transitions <dir>] [--list] [--json out.json] [--baseline before.json]
// Screens: the real dumps of tests/fixtures/dump-corpus (uiautomator dumps and Appium page
// sources), tests/fixtures/dumps (*.xml), and the before screen of every transition in
// <dir>/transitions.jsonl (default tests/fixtures/transitions; each distinct screen once).
// Tokens are the project's o200k estimate (estimateTokens), with the default row budget.
// Actionable elements kept: every node that is clickable, long-clickable, checkable,
// editable or scrollable, on screen with an area, must reach the view's text: the id of a
// unit that holds it (or its nearest actionable ancestor, or one of its descendants: a row
// and its label are one unit) appears in the text. Nodes of the system bars (dropped unless
// they are the foreground) and units the row budget leaves out ("… N more rows", listed in
// plannerView.hiddenUnits) are counted apart. With --baseline (the --json of an earlier run,
// e.g. before a change of the view), the tokens are compared screen by screen and every
// element the earlier view had must still be in this one. Exit 1 when an element is missing
// from the view (or, with --baseline, lost since it).
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { estimateTokens } from '../src/model/estimate-tokens.js';
import { perceive } from '../src/perception/perceive.js';
import { parseHierarchy } from '../src/ui/parse-hierarchy.js';
import type { UiTree } from '../src/ui/ui-tree.js';
import { repoRoot } from './corpus-option.js';
import { viewCoverage, type Coverage } from './view-coverage.js';

const { values } = parseArgs({ options: { transitions: { type: 'string' }, list: { type: 'boolean', default: false }, json: { type: 'string' }, baseline: { type: 'string' } } });
const transitionsDir = values.transitions === undefined ? path.join(repoRoot, 'tests', 'fixtures', 'transitions') : path.resolve(values.transitions);
if (!existsSync(path.join(transitionsDir, 'transitions.jsonl'))) {
  console.error(`${path.join(transitionsDir, 'transitions.jsonl')} does not exist: pass --transitions <dir> holding transitions.jsonl and its xml/ folder`);
  process.exit(2);
}

interface Screen {
  readonly corpus: string;
  readonly name: string;
  readonly xml: string;
}

function fixtureScreens(): Screen[] {
  const screens: Screen[] = [];
  const corpus = path.join(repoRoot, 'tests', 'fixtures', 'dump-corpus');
  for (const dialect of ['uiautomator-dump', 'appium-uia2']) {
    for (const name of readdirSync(path.join(corpus, dialect)).filter((file) => file.endsWith('.xml')).sort()) screens.push({ corpus: 'fixtures', name: `dump-corpus/${dialect}/${name}`, xml: readFileSync(path.join(corpus, dialect, name), 'utf8') });
  }
  const dumps = path.join(repoRoot, 'tests', 'fixtures', 'dumps');
  for (const name of readdirSync(dumps).filter((file) => file.endsWith('.xml')).sort()) screens.push({ corpus: 'fixtures', name: `dumps/${name}`, xml: readFileSync(path.join(dumps, name), 'utf8') });
  return screens;
}

function transitionScreens(dir: string): Screen[] {
  const seen = new Set<string>();
  const screens: Screen[] = [];
  for (const line of readFileSync(path.join(dir, 'transitions.jsonl'), 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    const before = (JSON.parse(line) as { before?: unknown }).before;
    if (typeof before !== 'string' || seen.has(before)) continue;
    seen.add(before);
    screens.push({ corpus: 'transitions', name: before, xml: readFileSync(path.join(dir, before), 'utf8') });
  }
  return screens;
}

function actionable(tree: UiTree, index: number): boolean {
  const node = tree.nodes[index];
  if (node === undefined || !(node.clickable || node.longClickable || node.checkable || node.editable || node.scrollable)) return false;
  const [left, top, right, bottom] = node.bounds;
  return right > left && bottom > top && right > 0 && bottom > 0 && left < tree.width && top < tree.height;
}

interface Row {
  readonly corpus: string;
  readonly name: string;
  readonly tokens: number;
  readonly actionable: number;
  readonly cover: Record<Coverage, number>;
  readonly missing: string[];
  /** Tree indices of the actionable elements the view's text holds. */
  readonly presentNodes: number[];
}

const rows: Row[] = [];
for (const screen of [...fixtureScreens(), ...transitionScreens(transitionsDir)]) {
  const tree = parseHierarchy(screen.xml, { sourceName: screen.name });
  const perception = perceive(tree);
  const shownIds = new Set([...perception.view.matchAll(/\[(n[0-9a-z]+)\]/g)].map((match) => match[1]!));
  const cover: Record<Coverage, number> = { present: 0, 'system-bar': 0, 'row-budget': 0, missing: 0 };
  const missing: string[] = [];
  const presentNodes: number[] = [];
  let count = 0;
  tree.nodes.forEach((node, index) => {
    if (!actionable(tree, index)) return;
    count += 1;
    const where = viewCoverage(perception, index, { actionable, shownIds });
    cover[where] += 1;
    if (where === 'present') presentNodes.push(index);
    if (where === 'missing') missing.push(`${node.className} ${JSON.stringify(node.text || node.contentDesc || node.resourceId)} ${node.bounds.join(',')}`);
  });
  rows.push({ corpus: screen.corpus, name: screen.name, tokens: estimateTokens(perception.view), actionable: count, cover, missing, presentNodes });
}

const percentile = (values: readonly number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
};
const summary = (name: string, part: readonly Row[]) => {
  const tokens = part.map((row) => row.tokens);
  const total = (pick: (row: Row) => number): number => part.reduce((sum, row) => sum + pick(row), 0);
  return {
    corpus: name,
    screens: part.length,
    meanTokens: total((row) => row.tokens) / Math.max(1, part.length),
    p50Tokens: percentile(tokens, 50),
    p95Tokens: percentile(tokens, 95),
    actionable: total((row) => row.actionable),
    present: total((row) => row.cover.present),
    systemBar: total((row) => row.cover['system-bar']),
    rowBudget: total((row) => row.cover['row-budget']),
    missing: total((row) => row.cover.missing),
  };
};
const summaries = [summary('fixtures', rows.filter((row) => row.corpus === 'fixtures')), summary('transitions', rows.filter((row) => row.corpus === 'transitions')), summary('all', rows)];

if (values.list) for (const row of rows) console.log(`${row.corpus}\t${row.name}\t${row.tokens} tokens\tactionable ${row.actionable} (present ${row.cover.present}, system bar ${row.cover['system-bar']}, row budget ${row.cover['row-budget']}, missing ${row.cover.missing})${row.missing.length > 0 ? `\tmissing: ${row.missing.join('; ')}` : ''}`);
console.log(`reduced view on real screens (o200k tokens, default row budget); transitions from ${path.relative(repoRoot, transitionsDir) || transitionsDir}`);
for (const entry of summaries) {
  console.log(`${entry.corpus.padEnd(11)} ${String(entry.screens).padStart(5)} screens  mean ${entry.meanTokens.toFixed(1).padStart(6)}  p50 ${String(entry.p50Tokens).padStart(5)}  p95 ${String(entry.p95Tokens).padStart(5)}  actionable ${entry.actionable}: in the view ${entry.present}, system bars ${entry.systemBar}, row budget ${entry.rowBudget}, missing ${entry.missing}`);
}
for (const row of rows.filter((entry) => entry.missing.length > 0).slice(0, 10)) console.log(`missing in ${row.corpus} ${row.name}: ${row.missing.slice(0, 3).join('; ')}`);
if (values.json !== undefined) writeFileSync(values.json, `${JSON.stringify({ summaries, screens: rows.map((row) => ({ corpus: row.corpus, name: row.name, tokens: row.tokens, ...row.cover, presentNodes: row.presentNodes })) }, null, 2)}\n`);
const lost = values.baseline === undefined ? 0 : compareWithBaseline(values.baseline);
process.exit(rows.some((row) => row.missing.length > 0) || lost > 0 ? 1 : 0);

/** Prints the change of tokens against an earlier run's --json and the elements lost since; returns how many were lost. */
function compareWithBaseline(file: string): number {
  const before = JSON.parse(readFileSync(file, 'utf8')) as { summaries: ReturnType<typeof summary>[]; screens: { corpus: string; name: string; presentNodes: number[] }[] };
  const earlier = new Map(before.screens.map((screen) => [`${screen.corpus}/${screen.name}`, screen]));
  let lostCount = 0;
  let compared = 0;
  for (const row of rows) {
    const old = earlier.get(`${row.corpus}/${row.name}`);
    if (old === undefined) continue;
    compared += 1;
    const now = new Set(row.presentNodes);
    const gone = old.presentNodes.filter((node) => !now.has(node));
    lostCount += gone.length;
    if (gone.length > 0) console.log(`lost since the baseline in ${row.corpus} ${row.name}: nodes ${gone.join(', ')}`);
  }
  for (const entry of summaries) {
    const old = before.summaries.find((candidate) => candidate.corpus === entry.corpus);
    if (old === undefined) continue;
    const change = (now: number, then: number): string => `${then.toFixed(1)} -> ${now.toFixed(1)} (${(((now - then) / then) * 100).toFixed(1)}%)`;
    console.log(`against ${path.basename(file)}: ${entry.corpus} mean ${change(entry.meanTokens, old.meanTokens)}, p95 ${change(entry.p95Tokens, old.p95Tokens)}`);
  }
  console.log(`actionable elements the baseline's view held: ${before.screens.reduce((sum, screen) => sum + screen.presentNodes.length, 0)} on ${compared} screens compared; lost since: ${lostCount}`);
  return lostCount;
}
