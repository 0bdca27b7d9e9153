// Compares simulator screens with real device dumps (default tests/fixtures/dump-corpus): nodes per
// screen, depth, attribute coverage (non-empty text / content-desc / resource-id,
// clickable share) and the share of nodes the perception reducer removes (level 1
// `sparse` and level 2 `merge`). Statistics cover the app's own windows: system bars
// and the keyboard are left out on both sides (most real dumps hold one window only).
//
// Run: npx tsx scripts/sim-fidelity.ts [--corpus <dir>]
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { perceive } from '../src/perception/perceive.js';
import { Simulator } from '../src/sim/index.js';
import { parseHierarchy } from '../src/ui/parse-hierarchy.js';
import type { UiTree } from '../src/ui/ui-tree.js';
import { corpusFolder } from './corpus-option.js';

const dumpsDir = corpusFolder('tests/fixtures/dump-corpus');
const excludedPackages = new Set(['com.android.systemui', 'com.google.android.inputmethod.latin']);

interface Stats {
  readonly name: string;
  readonly nodes: number;
  readonly depth: number;
  readonly text: number;
  readonly desc: number;
  readonly resourceId: number;
  readonly clickable: number;
  readonly removedL1: number;
  readonly removedL2: number;
}

function stats(name: string, tree: UiTree): Stats {
  const own = tree.nodes.filter((n) => !excludedPackages.has(n.packageName));
  const count = Math.max(1, own.length);
  const share = (predicate: (n: (typeof own)[number]) => boolean): number => own.filter(predicate).length / count;
  const minDepth = own.reduce((m, n) => Math.min(m, n.depth), Number.POSITIVE_INFINITY);
  const kept = (level: 1 | 2): number => perceive(tree, { level, removeSystemBar: true }).nodes.filter((k) => !excludedPackages.has(tree.nodes[k.node]?.packageName ?? '')).length;
  return {
    name,
    nodes: own.length,
    depth: own.reduce((m, n) => Math.max(m, n.depth - minDepth + 1), 0),
    text: share((n) => n.text !== ''),
    desc: share((n) => n.contentDesc !== ''),
    resourceId: share((n) => n.resourceId !== ''),
    clickable: share((n) => n.clickable),
    removedL1: 1 - kept(1) / count,
    removedL2: 1 - kept(2) / count,
  };
}

type Driver = (sim: Simulator) => void;
const tapText = (text: string): Driver => (sim) => {
  const xml = sim.pageSource('uiautomator-dump');
  const escaped = text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const m = new RegExp(`(?:text|content-desc)="${escaped}"[^>]*bounds="\\[(\\d+),(\\d+)\\]\\[(\\d+),(\\d+)\\]"`).exec(xml);
  if (m === null) throw new Error(`sim-fidelity: "${text}" is not on screen (${sim.currentPackage()}${sim.currentActivity()})`);
  sim.tap(Math.floor((Number(m[1]) + Number(m[3])) / 2), Math.floor((Number(m[2]) + Number(m[4])) / 2));
};

const simScreens: { name: string; pkg: string; steps: Driver[] }[] = [
  { name: 'launcher/home', pkg: 'com.google.android.apps.nexuslauncher', steps: [] },
  { name: 'clock/alarms', pkg: 'com.google.android.deskclock', steps: [] },
  { name: 'clock/alarm-expanded', pkg: 'com.google.android.deskclock', steps: [tapText('Expand 8:30 AM alarm')] },
  { name: 'clock/time-picker', pkg: 'com.google.android.deskclock', steps: [tapText('Add alarm')] },
  { name: 'clock/world-clock', pkg: 'com.google.android.deskclock', steps: [tapText('Clock')] },
  { name: 'clock/city-picker', pkg: 'com.google.android.deskclock', steps: [tapText('Clock'), tapText('Add city')] },
  { name: 'clock/timer', pkg: 'com.google.android.deskclock', steps: [tapText('Timer')] },
  { name: 'clock/stopwatch', pkg: 'com.google.android.deskclock', steps: [tapText('Stopwatch')] },
  { name: 'contacts/list', pkg: 'com.google.android.contacts', steps: [] },
  { name: 'contacts/detail', pkg: 'com.google.android.contacts', steps: [tapText('ABC')] },
  { name: 'contacts/editor', pkg: 'com.google.android.contacts', steps: [tapText('Create contact')] },
  { name: 'settings/home', pkg: 'com.android.settings', steps: [] },
  { name: 'settings/network', pkg: 'com.android.settings', steps: [tapText('Network &amp; internet')] },
  { name: 'settings/display', pkg: 'com.android.settings', steps: [tapText('Display')] },
  { name: 'settings/sound', pkg: 'com.android.settings', steps: [tapText('Sound &amp; vibration')] },
  { name: 'notes/list', pkg: 'com.simplemobiletools.notes.pro', steps: [] },
  { name: 'notes/checklist', pkg: 'com.simplemobiletools.notes.pro', steps: [tapText('Shopping')] },
];

function simStats(): Stats[] {
  return simScreens.map((screen) => {
    const sim = new Simulator({ startPackage: screen.pkg });
    for (const step of screen.steps) step(sim);
    const xml = sim.pageSource('uiautomator-dump');
    return stats(screen.name, parseHierarchy(xml, { packageName: sim.currentPackage(), activity: sim.currentActivity(), sourceName: screen.name }));
  });
}

function realStats(): { all: Stats[]; sameApps: Stats[] } {
  const all: Stats[] = [];
  const sameApps: Stats[] = [];
  for (const dir of ['uiautomator-dump', 'appium-uia2']) {
    for (const file of readdirSync(path.join(dumpsDir, dir)).filter((f) => f.endsWith('.xml')).sort()) {
      const source = readFileSync(path.join(dumpsDir, dir, file), 'utf8');
      let tree: UiTree;
      try {
        tree = parseHierarchy(source, { sourceName: file });
      } catch (error) {
        process.stderr.write(`sim-fidelity: skipping ${dir}/${file}: ${(error as Error).message.split('\n')[0]}\n`);
        continue;
      }
      if (tree.empty) continue;
      const s = stats(`${dir}/${file}`, tree);
      all.push(s);
      if (/deskclock|__settings__|nexuslauncher|contacts|permissioncontroller/.test(file)) sameApps.push(s);
    }
  }
  return { all, sameApps };
}

function mean(rows: readonly Stats[], key: keyof Omit<Stats, 'name'>): number {
  return rows.reduce((sum, row) => sum + row[key], 0) / Math.max(1, rows.length);
}

function median(rows: readonly Stats[], key: keyof Omit<Stats, 'name'>): number {
  const sorted = rows.map((row) => row[key]).sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

const pct = (v: number): string => `${(v * 100).toFixed(0)}%`.padStart(5);
const num = (v: number): string => v.toFixed(1).padStart(6);
const header = `${'screen'.padEnd(44)} ${'nodes'.padStart(6)} ${'depth'.padStart(6)} ${'text'.padStart(5)} ${'desc'.padStart(5)} ${'resid'.padStart(5)} ${'click'.padStart(5)} ${'redL1'.padStart(5)} ${'redL2'.padStart(5)}`;
const line = (s: Stats): string =>
  `${s.name.slice(0, 44).padEnd(44)} ${num(s.nodes)} ${num(s.depth)} ${pct(s.text)} ${pct(s.desc)} ${pct(s.resourceId)} ${pct(s.clickable)} ${pct(s.removedL1)} ${pct(s.removedL2)}`;
const summary = (name: string, rows: readonly Stats[], of: (rows: readonly Stats[], key: keyof Omit<Stats, 'name'>) => number): Stats => ({
  name,
  nodes: of(rows, 'nodes'),
  depth: of(rows, 'depth'),
  text: of(rows, 'text'),
  desc: of(rows, 'desc'),
  resourceId: of(rows, 'resourceId'),
  clickable: of(rows, 'clickable'),
  removedL1: of(rows, 'removedL1'),
  removedL2: of(rows, 'removedL2'),
});

const sim = simStats();
const real = realStats();
const out: string[] = [];
out.push('sim-fidelity: app windows only (system bars and keyboard excluded on both sides)');
out.push('', 'Simulator screens', header, ...sim.map(line));
out.push('', 'Real dumps of the same apps (deskclock, settings, launcher, permission controller)', header, ...real.sameApps.map(line));
out.push(
  '',
  'Side by side',
  header,
  line(summary(`SIM  mean   (${sim.length} screens)`, sim, mean)),
  line(summary(`REAL mean   same apps (${real.sameApps.length} dumps)`, real.sameApps, mean)),
  line(summary(`REAL mean   all (${real.all.length} dumps)`, real.all, mean)),
  line(summary('SIM  median', sim, median)),
  line(summary('REAL median same apps', real.sameApps, median)),
  line(summary('REAL median all', real.all, median)),
);
process.stdout.write(`${out.join('\n')}\n`);
