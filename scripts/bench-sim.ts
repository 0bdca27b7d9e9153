// Measures the in-process simulator's speed: one observation (pageSource) and one
// action, per app screen. Prints median and p95 in milliseconds. Target: median ≤ 1 ms.
import { performance } from 'node:perf_hooks';
import { Simulator } from '../src/sim/index.js';

interface Sample {
  readonly name: string;
  readonly ms: number[];
}

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index] ?? Number.NaN;
}

function time(fn: () => void): number {
  const start = performance.now();
  fn();
  return performance.now() - start;
}

const iterations = Number(process.env['BENCH_ITERATIONS'] ?? 400);
const warmup = 20;
// Per screen, an action that changes what is shown, alternating so the loop can repeat.
const screens: { name: string; pkg: string; act: (sim: Simulator, i: number) => void }[] = [
  { name: 'launcher', pkg: 'com.google.android.apps.nexuslauncher', act: (sim, i) => (i % 2 === 0 ? sim.launchApp('com.google.android.apps.nexuslauncher') : sim.tap(540, 1200)) },
  { name: 'clock/tabs', pkg: 'com.google.android.deskclock', act: (sim, i) => sim.tap(i % 2 === 0 ? 324 : 108, 2150) },
  { name: 'contacts/list', pkg: 'com.google.android.contacts', act: (sim, i) => sim.swipe(540, 1500, 540, i % 2 === 0 ? 1300 : 1700) },
  { name: 'settings/home', pkg: 'com.android.settings', act: (sim, i) => sim.swipe(540, 1500, 540, i % 2 === 0 ? 900 : 2100) },
  { name: 'notes/list', pkg: 'com.simplemobiletools.notes.pro', act: (sim, i) => (i % 2 === 0 ? sim.tap(540, 330) : sim.pressKey('back')) },
];

const observe: Sample[] = [];
const act: Sample[] = [];
const step: Sample[] = [];
for (const screen of screens) {
  const o: number[] = [];
  const a: number[] = [];
  const s: number[] = [];
  const sim = new Simulator({ startPackage: screen.pkg });
  sim.pageSource('appium-uia2');
  for (let i = 0; i < iterations + warmup; i++) {
    const actMs = time(() => screen.act(sim, i));
    const observeMs = time(() => sim.pageSource('appium-uia2'));
    if (i < warmup) continue;
    a.push(actMs);
    o.push(observeMs);
    s.push(actMs + observeMs);
  }
  observe.push({ name: screen.name, ms: o });
  act.push({ name: screen.name, ms: a });
  step.push({ name: screen.name, ms: s });
}

const rows = (label: string, samples: Sample[]): string[] =>
  samples.map((sample) => `${label.padEnd(9)} ${sample.name.padEnd(16)} median ${percentile(sample.ms, 50).toFixed(3)} ms   p95 ${percentile(sample.ms, 95).toFixed(3)} ms`);
const all = (samples: Sample[]): number[] => samples.flatMap((sample) => sample.ms);

const out = [
  `bench-sim: ${iterations} act+observe steps per screen on one simulator (after ${warmup} warm-up steps); observe = pageSource('appium-uia2'), which re-lays out the changed screen`,
  ...rows('observe', observe),
  ...rows('act', act),
  ...rows('act+obs', step),
  `ALL observe median ${percentile(all(observe), 50).toFixed(3)} ms p95 ${percentile(all(observe), 95).toFixed(3)} ms`,
  `ALL act     median ${percentile(all(act), 50).toFixed(3)} ms p95 ${percentile(all(act), 95).toFixed(3)} ms`,
  `ALL act+obs median ${percentile(all(step), 50).toFixed(3)} ms p95 ${percentile(all(step), 95).toFixed(3)} ms`,
  `screenshotPng median ${percentile(Array.from({ length: 50 }, () => {
    const sim = new Simulator({ startPackage: 'com.android.settings' });
    return time(() => sim.screenshotPng());
  }), 50).toFixed(2)} ms`,
];
process.stdout.write(`${out.join('\n')}\n`);
