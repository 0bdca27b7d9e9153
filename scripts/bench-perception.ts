// Measures perception (docs/architecture.md §2.2) over a dump corpus (default: tests/fixtures/dump-corpus):
//   1. every file parses and reduces (ok / failed);
//   2. nothing a user could act on is lost (findLostActionables, levels 1 and 2);
//   3. size: o200k tokens of the planner view vs the raw dump (mean and p95 of the ratio);
//   4. speed: parse + reduce + units + SCG + view per screen (median, p95), and the ratio
//      to a bare fast-xml-parser parse of the same XML files in the same run.
// Run: npx tsx scripts/bench-perception.ts [--runs 30] [--corpus <dir>]
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { XMLParser } from 'fast-xml-parser';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { findLostActionables } from '../src/perception/find-lost-actionables.js';
import { perceive } from '../src/perception/perceive.js';
import { parseHierarchy } from '../src/ui/parse-hierarchy.js';
import { corpusFolder, repoRoot } from './corpus-option.js';

const corpus = corpusFolder('tests/fixtures/dump-corpus');

function option(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  const value = at >= 0 ? Number(process.argv[at + 1]) : fallback;
  return Number.isFinite(value) && value > 0 ? value : fallback;
}

function files(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true })
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((entry) => {
      const full = path.join(directory, entry.name);
      if (entry.isDirectory()) return files(full);
      return /\.(xml|json)$/.test(entry.name) ? [full] : [];
    });
}

function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const position = (sorted.length - 1) * q;
  const low = Math.floor(position);
  const high = Math.ceil(position);
  return sorted[low]! + (sorted[high]! - sorted[low]!) * (position - low);
}

const mean = (values: readonly number[]): number => values.reduce((sum, value) => sum + value, 0) / values.length;
const fixed = (value: number, digits = 3): string => value.toFixed(digits);

const runs = option('runs', 30);
const inputs = files(corpus).map((file) => ({ file, name: path.relative(corpus, file), text: readFileSync(file, 'utf8') }));

// 1 + 2: parse, reduce, coverage.
let ok = 0;
const failed: string[] = [];
const coverage = { 1: { checked: 0, lost: 0, hijacked: 0, units: 0 }, 2: { checked: 0, lost: 0, hijacked: 0, units: 0 } };
const ratios: number[] = [];
const viewTokens: number[] = [];
const rawTokens: number[] = [];
for (const input of inputs) {
  try {
    const tree = parseHierarchy(input.text, { sourceName: input.name });
    for (const level of [1, 2] as const) {
      const result = findLostActionables(perceive(tree, { level }));
      coverage[level].checked += result.checked;
      coverage[level].lost += result.lost.length;
      coverage[level].hijacked += result.hijacked.length;
      coverage[level].units += perceive(tree, { level }).units.filter((unit) => unit.tap !== null).length;
      for (const lost of result.lost) console.log(`lost (level ${level}) ${input.name}: ${lost.reason}`);
    }
    const view = perceive(tree).view;
    const viewCount = encode(view).length;
    const rawCount = encode(input.text).length;
    viewTokens.push(viewCount);
    rawTokens.push(rawCount);
    ratios.push(viewCount / rawCount);
    ok++;
  } catch (error) {
    failed.push(`${input.name}: ${error instanceof Error ? error.message : String(error)}`);
  }
}
console.log(`corpus: ${inputs.length} files in ${path.relative(repoRoot, corpus)}`);
console.log(`parse + reduce: ${ok} ok, ${failed.length} failed`);
for (const line of failed) console.log(`  FAILED ${line}`);
for (const level of [1, 2] as const) {
  console.log(`actionable nodes (level ${level}): ${coverage[level].checked} checked, ${coverage[level].lost} lost; units: ${coverage[level].units}, tap point taken by a nested unit: ${coverage[level].hijacked}`);
}
console.log(`tokens (o200k), level 2 view vs raw dump: mean ratio ${fixed(mean(ratios) * 100, 2)}%, p95 ratio ${fixed(quantile(ratios, 0.95) * 100, 2)}%, aggregate ${fixed((viewTokens.reduce((a, b) => a + b, 0) / rawTokens.reduce((a, b) => a + b, 0)) * 100, 2)}% (view mean ${fixed(mean(viewTokens), 0)} tokens, raw mean ${fixed(mean(rawTokens), 0)})`);

// 4: speed. Per file: median over `runs` of the full pipeline and of a bare fast-xml-parser parse.
const xmlParser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', preserveOrder: true });
const pipeline = (text: string): number => {
  const start = performance.now();
  const perception = perceive(parseHierarchy(text));
  const elapsed = performance.now() - start;
  if (perception.view.length === 0) throw new Error('empty view');
  return elapsed;
};
const parseOnly = (text: string): number => {
  const start = performance.now();
  parseHierarchy(text);
  return performance.now() - start;
};
const bare = (text: string): number => {
  const start = performance.now();
  xmlParser.parse(text);
  return performance.now() - start;
};
const timed = inputs.filter((input) => !failed.some((line) => line.startsWith(`${input.name}:`)));
for (let warm = 0; warm < 5; warm++) for (const input of timed) { pipeline(input.text); parseOnly(input.text); if (input.name.endsWith('.xml')) bare(input.text); }
const rows = timed.map((input) => {
  const full: number[] = [];
  const ours: number[] = [];
  const theirs: number[] = [];
  for (let run = 0; run < runs; run++) {
    full.push(pipeline(input.text));
    ours.push(parseOnly(input.text));
    if (input.name.endsWith('.xml')) theirs.push(bare(input.text));
  }
  return { name: input.name, bytes: Buffer.byteLength(input.text), full: quantile(full, 0.5), parse: quantile(ours, 0.5), fxp: theirs.length > 0 ? quantile(theirs, 0.5) : undefined };
});
const report = (label: string, selected: typeof rows): void => {
  const withXml = selected.filter((row) => row.fxp !== undefined);
  const fullRatios = withXml.map((row) => row.full / row.fxp!);
  const parseRatios = withXml.map((row) => row.parse / row.fxp!);
  console.log(`${label} (${selected.length} screens, ${runs} runs each, per-screen medians):`);
  console.log(`  pipeline (parse + reduce + units + SCG + view): median ${fixed(quantile(selected.map((row) => row.full), 0.5))} ms, p95 ${fixed(quantile(selected.map((row) => row.full), 0.95))} ms, max ${fixed(Math.max(...selected.map((row) => row.full)))} ms`);
  if (withXml.length > 0) {
    console.log(`  bare fast-xml-parser parse of the ${withXml.length} XML screens: median ${fixed(quantile(withXml.map((row) => row.fxp!), 0.5))} ms, p95 ${fixed(quantile(withXml.map((row) => row.fxp!), 0.95))} ms`);
    console.log(`  ratio pipeline / fast-xml-parser: median ${fixed(quantile(fullRatios, 0.5), 2)}x, p95 ${fixed(quantile(fullRatios, 0.95), 2)}x`);
    console.log(`  ratio our parseHierarchy alone / fast-xml-parser: median ${fixed(quantile(parseRatios, 0.5), 2)}x, p95 ${fixed(quantile(parseRatios, 0.95), 2)}x`);
  }
};
report('all screens', rows);
report('10–100 KB screens', rows.filter((row) => row.bytes >= 10_000 && row.bytes <= 100_000));
