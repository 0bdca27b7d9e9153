// Tokens per `observe` of `senseact mcp` on the real dumps of tests/fixtures/dump-corpus
// (uiautomator dumps and Appium page sources), side by side with mobile-mcp's element list
// for the same screens (scripts/mobile-mcp-element-list.ts), counted with the project's
// tokenizer (estimateTokens: gpt-tokenizer's o200k encoding).
//
// Ours: the text content an MCP host shows its model (screen line, the planner view, the
// SCG edges), and the structured result (JSON) for hosts that pass that on instead.
// Same actionable elements: every element mobile-mcp lists whose node is actionable
// (clickable, long-clickable, checkable, editable or scrollable) must be reachable in
// ours: a unit of the view holds it, or holds its nearest actionable ancestor or one of its
// descendants (a row and its label are one unit). Elements of the system bars
// (com.android.systemui, dropped by the reduction unless it is the foreground) are counted
// apart, as are units the view's row budget leaves out ("… N more rows").
// Run: npx tsx scripts/measure-observe-tokens.ts [--corpus <dir>] [--list]
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { renderObserveText } from '../src/mcp/render-tool-text.js';
import { screenData } from '../src/mcp/screen-data.js';
import { estimateTokens } from '../src/model/estimate-tokens.js';
import { perceive } from '../src/perception/perceive.js';
import { parseHierarchy } from '../src/ui/parse-hierarchy.js';
import type { UiTree } from '../src/ui/ui-tree.js';
import { mobileMcpElementList, mobileMcpNodes } from './mobile-mcp-element-list.js';
import { viewCoverage, type Coverage } from './view-coverage.js';

const repoRoot = path.resolve(import.meta.dirname, '..');
const argv = process.argv.slice(2);
const corpusAt = argv.indexOf('--corpus');
const corpus = corpusAt >= 0 && argv[corpusAt + 1] ? path.resolve(argv[corpusAt + 1]!) : path.join(repoRoot, 'tests', 'fixtures', 'dump-corpus');
const list = argv.includes('--list');
const dialects = ['uiautomator-dump', 'appium-uia2'];


function actionable(tree: UiTree, index: number): boolean {
  const node = tree.nodes[index];
  return node !== undefined && (node.clickable || node.longClickable || node.checkable || node.editable || node.scrollable);
}

const rows: { file: string; ours: number; structured: number; theirs: number; elements: number; actionable: number; cover: Record<Coverage, number> }[] = [];
for (const dialect of dialects) {
  const folder = path.join(corpus, dialect);
  for (const name of readdirSync(folder).filter((file) => file.endsWith('.xml')).sort()) {
    const xml = readFileSync(path.join(folder, name), 'utf8');
    const tree = parseHierarchy(xml, { sourceName: name });
    const perception = perceive(tree);
    const data = screenData({ xml, perception }, 0);
    const theirs = mobileMcpElementList(tree);
    const listed = mobileMcpNodes(tree);
    const cover: Record<Coverage, number> = { present: 0, 'system-bar': 0, 'row-budget': 0, missing: 0 };
    let actionableCount = 0;
    for (const index of listed) {
      if (!actionable(tree, index)) continue;
      actionableCount += 1;
      cover[viewCoverage(perception, index, { actionable })] += 1;
    }
    rows.push({ file: `${dialect}/${name}`, ours: estimateTokens(renderObserveText(data)), structured: estimateTokens(JSON.stringify(data)), theirs: estimateTokens(theirs), elements: listed.length, actionable: actionableCount, cover });
  }
}

const sum = (pick: (row: (typeof rows)[number]) => number): number => rows.reduce((total, row) => total + pick(row), 0);
const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};
if (list) {
  for (const row of rows) console.log(`${row.file}\tours ${row.ours}\tstructured ${row.structured}\tmobile-mcp ${row.theirs}\tratio ${(row.ours / row.theirs).toFixed(3)}\tactionable ${row.actionable} (present ${row.cover.present}, system bar ${row.cover['system-bar']}, row budget ${row.cover['row-budget']}, missing ${row.cover.missing})`);
}
const ours = sum((row) => row.ours);
const structured = sum((row) => row.structured);
const theirs = sum((row) => row.theirs);
console.log(`screens: ${rows.length} real dumps (${dialects.join(', ')}) from ${path.relative(repoRoot, corpus) || corpus}`);
console.log(`tokens per observe, mean: senseact text ${(ours / rows.length).toFixed(0)}, senseact structured JSON ${(structured / rows.length).toFixed(0)}, mobile-mcp element list ${(theirs / rows.length).toFixed(0)}`);
console.log(`screens at or under 0.2x (text): ${rows.filter((row) => row.ours <= 0.2 * row.theirs).length} of ${rows.length}`);
console.log(`ratio (total tokens): text ${(ours / theirs).toFixed(3)}x, structured ${(structured / theirs).toFixed(3)}x; median per screen: text ${median(rows.map((row) => row.ours / row.theirs)).toFixed(3)}x, worst screen ${Math.max(...rows.map((row) => row.ours / row.theirs)).toFixed(3)}x`);
const actionableTotal = sum((row) => row.actionable);
console.log(`actionable elements mobile-mcp lists: ${actionableTotal}; in our view: ${sum((row) => row.cover.present)}; system bars (dropped): ${sum((row) => row.cover['system-bar'])}; left out by the row budget: ${sum((row) => row.cover['row-budget'])}; missing: ${sum((row) => row.cover.missing)}`);
