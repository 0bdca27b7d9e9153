// Measures the verification core and the certificate memory (docs/architecture.md §2.6–2.8):
//   1. computeDelta on a real ~100 KB Appium dump (Twitter) vs. a modified copy:
//      median time, and the ratio to one parseHierarchy of the same tree in the same run.
//   2. The predicate round-trip property (parse → print → parse) on generated expressions.
//   3. CertificateMemory: load time of 100,000 certificates, top-5 retrieval median.
// Run: npx tsx scripts/bench-verify.ts [--runs 300] [--certificates 100000] [--corpus <dir>]
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import fc from 'fast-check';
import { CertificateMemory } from '../src/memory/certificate-memory.js';
import { parseHierarchy } from '../src/ui/parse-hierarchy.js';
import { certificateVersion, type Certificate } from '../src/verify/certificate.js';
import { computeDelta } from '../src/verify/compute-delta.js';
import { parsePredicate } from '../src/verify/parse-predicate.js';
import { printPredicate } from '../src/verify/print-predicate.js';
import { predicateArbitrary } from '../tests/unit/verify/predicate-arbitrary.js';
import { corpusFolder } from './corpus-option.js';

const dumpPath = path.join(corpusFolder('tests/fixtures/dump-corpus'), 'appium-uia2/Bioto-tron-ai__twitter__page_source.xml');

function option(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  const value = at >= 0 ? Number(process.argv[at + 1]) : fallback;
  return Number.isFinite(value) && value > 0 ? value : fallback;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** CPU time (user + system) of this process in ms: less sensitive than wall time to other processes on a busy machine. */
function cpuMs(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

function time(runs: number, body: () => void): number[] {
  for (let warm = 0; warm < Math.min(20, runs); warm++) body();
  const samples: number[] = [];
  for (let run = 0; run < runs; run++) {
    const start = performance.now();
    body();
    samples.push(performance.now() - start);
  }
  return samples;
}

/** Sets an attribute in the start tag of the first element containing `anchor`. */
function setAttribute(xml: string, anchor: string, attribute: string, value: string): string {
  const at = xml.indexOf(anchor);
  if (at < 0) throw new Error(`bench setup: ${anchor} is not in ${dumpPath}`);
  const start = xml.lastIndexOf('<', at);
  const end = xml.indexOf('>', start);
  const tag = xml.slice(start, end).replace(new RegExp(`(\\s${attribute}=")[^"]*(")`), `$1${value}$2`);
  return xml.slice(0, start) + tag + xml.slice(end);
}

/** The "after" screen: the real XML edited as an action would change it (tab switch, text edit, a row gone). */
function modify(xml: string): string {
  let edited = setAttribute(xml, 'content-desc="Following"', 'selected', 'true');
  edited = setAttribute(edited, 'content-desc="For you"', 'selected', 'false');
  edited = setAttribute(edited, ' text="+275', 'text', 'Edited headline');
  // Drop the last leaf that shows a text (a row scrolled away).
  const leaves = [...edited.matchAll(/<[\w.$]+ [^>]*? text="[^"]+"[^>]*\/>/g)];
  const last = leaves.at(-1);
  if (!last) throw new Error(`bench setup: no text leaf in ${dumpPath}`);
  return edited.slice(0, last.index) + edited.slice(last.index + last[0].length);
}

function benchDelta(runs: number): void {
  const beforeXml = readFileSync(dumpPath, 'utf8');
  const afterXml = modify(beforeXml);
  const before = parseHierarchy(beforeXml, { sourceName: dumpPath });
  const after = parseHierarchy(afterXml, { sourceName: `${dumpPath} (modified)` });
  const delta = computeDelta(before, after);
  const parseMedian = median(time(runs, () => { parseHierarchy(beforeXml); }));
  const deltaMedian = median(time(runs, () => { computeDelta(before, after); }));
  console.log('== delta (real Appium dump, Twitter) ==');
  console.log(`tree: ${(beforeXml.length / 1024).toFixed(1)} KB, ${before.nodes.length} nodes (${delta.beforeCount} compared); after: ${after.nodes.length} nodes`);
  console.log(`delta: label=${delta.label} rho=${delta.rho.toFixed(3)} changes=${delta.changes.length} (${[...new Set(delta.changes.map((change) => change.kind))].join(', ')})`);
  console.log(`computeDelta median: ${deltaMedian.toFixed(3)} ms over ${runs} runs (target <= 3 ms: ${deltaMedian <= 3 ? 'met' : 'MISSED'})`);
  console.log(`parseHierarchy median (same tree, same run): ${parseMedian.toFixed(3)} ms`);
  console.log(`ratio delta / parse: ${(deltaMedian / parseMedian).toFixed(3)}`);
}

function benchRoundTrip(runs: number): void {
  let count = 0;
  let failures = 0;
  fc.assert(fc.property(predicateArbitrary, (value) => {
    const first = parsePredicate(printPredicate(value));
    const second = parsePredicate(printPredicate(first));
    const identity = JSON.stringify(first) === JSON.stringify(second) && JSON.stringify(first) === JSON.stringify(value);
    if (!identity) failures++;
    count++;
    return identity;
  }), { numRuns: runs, seed: 7 });
  console.log('== predicate round-trip property ==');
  console.log(`generated expressions: ${count}; parse → print → parse identity: ${failures === 0 ? 'holds on all' : `FAILED on ${failures}`}`);
}

const verbs = ['turn on', 'turn off', 'open', 'set', 'add', 'delete', 'rename', 'search for', 'enable', 'disable', 'share', 'sort', 'create', 'edit', 'archive', 'mute', 'pin', 'move', 'change', 'clear', 'show', 'hide', 'select', 'save'];
const objects = ['wi-fi', 'bluetooth', 'alarm', 'dark theme', 'contact', 'note', 'reminder', 'playlist', 'timer', 'label', 'location', 'notifications', 'event', 'photo', 'message', 'bookmark',
  'ringtone', 'wallpaper', 'font size', 'language', 'account', 'password', 'email', 'calendar', 'task', 'album', 'song', 'video', 'download', 'history', 'cache', 'battery saver',
  'airplane mode', 'hotspot', 'vpn', 'keyboard', 'backup', 'folder', 'file', 'draft', 'comment', 'profile', 'status', 'address', 'phone number', 'birthday', 'recipe', 'list'];
const pages = ['Settings', 'Alarm', 'Home', 'Edit', 'Notes', 'Details', 'Search', 'Inbox', 'Compose', 'Profile', 'Library', 'Downloads'];

/** Deterministic pseudo-random numbers (mulberry32) so every run writes the same memory. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = Math.imul(state ^ (state >>> 15), 1 | state);
    mixed = (mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed)) ^ mixed;
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
}

function syntheticCertificate(index: number, apps: number): Certificate {
  const next = random(index * 2654435761);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
  const verb = pick(verbs);
  const object = pick(objects);
  const packageName = `com.example.app${index % apps}`;
  const page = pick(pages);
  const scope = `${page}Activity "${page}"`;
  const detail = next() < 0.5 ? `to ${Math.floor(next() * 60)} minutes` : `"${pick(objects)} ${Math.floor(next() * 100)}"`;
  const intent = `${verb} the ${object} ${detail}`;
  const outcome = next() < 0.2 ? 'fail' : 'pass';
  return {
    version: certificateVersion,
    id: `c${index.toString(16).padStart(8, '0')}`,
    intent,
    package: packageName,
    scope,
    key: `${packageName} | ${scope} | ${intent}`,
    state: ['form with 2 fields', `toggle "${object}"`],
    prereq: [`"${object}" unchecked`],
    action: { unitType: 'toggle', label: object },
    effect: { label: outcome === 'fail' ? 'no-change' : 'partial-change', summary: `checked "${object}" off → on`, errors: [], outcome },
    confidence: next() < 0.25 ? 'low' : 'high',
  };
}

/** Writes the synthetic memory file; the lines go out of scope before the load is timed. */
async function writeMemoryFile(file: string, count: number, apps: number): Promise<number> {
  const lines: string[] = [];
  for (let index = 0; index < count; index++) lines.push(JSON.stringify(syntheticCertificate(index, apps)));
  const text = `${lines.join('\n')}\n`;
  await writeFile(file, text);
  return Buffer.byteLength(text);
}

async function benchMemory(count: number, queries: number): Promise<void> {
  const apps = 20;
  const directory = await mkdtemp(path.join(tmpdir(), 'senseact-bench-memory-'));
  const file = path.join(directory, 'certificates.jsonl');
  try {
    const bytes = await writeMemoryFile(file, count, apps);
    const start = performance.now();
    const startCpu = cpuMs();
    const memory = await CertificateMemory.open(file);
    const loadMs = performance.now() - start;
    const loadCpu = cpuMs() - startCpu;
    const buildStart = performance.now();
    const buildCpuStart = cpuMs();
    memory.buildIndexes();
    const buildMs = performance.now() - buildStart;
    const buildCpu = cpuMs() - buildCpuStart;
    const samples: number[] = [];
    const cpuSamples: number[] = [];
    let returned = 0;
    for (let query = 0; query < queries; query++) {
      const probe = syntheticCertificate(count + query, apps);
      const beginCpu = cpuMs();
      const begin = performance.now();
      const found = memory.retrieve({ packageName: probe.package, scope: probe.scope, intent: probe.intent }, 5);
      samples.push(performance.now() - begin);
      cpuSamples.push(cpuMs() - beginCpu);
      returned += found.length;
    }
    const retrieveMedian = median(samples);
    console.log('== certificate memory ==');
    console.log(`file: ${(bytes / 1048576).toFixed(1)} MB, ${count} certificates over ${apps} apps; loaded ${memory.size}, warnings ${memory.warnings.length}`);
    console.log(`load (read, JSON.parse, schema check every record): ${loadMs.toFixed(0)} ms wall, ${loadCpu.toFixed(0)} ms CPU (target <= 2000 ms: ${loadMs <= 2000 ? 'met' : 'MISSED'} on wall time)`);
    console.log(`building the BM25 index of all ${apps} apps (otherwise done per app on its first retrieval): ${buildMs.toFixed(0)} ms wall, ${buildCpu.toFixed(0)} ms CPU; load + index: ${(loadMs + buildMs).toFixed(0)} ms wall`);
    console.log(`retrieve top-5 median: ${retrieveMedian.toFixed(3)} ms wall, ${median(cpuSamples).toFixed(3)} ms CPU, over ${queries} queries, ${(returned / queries).toFixed(1)} results/query (target <= 5 ms: ${retrieveMedian <= 5 ? 'met' : 'MISSED'})`);
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

console.log(`machine: ${cpus().length} cores, load average ${loadavg().map((value: number) => value.toFixed(1)).join(' ')} (timings scale with contention)`);
const runs = option('runs', 300);
benchDelta(runs);
benchRoundTrip(option('properties', 2000));
await benchMemory(option('certificates', 100_000), option('queries', 500));
