// Measures removal expectations (`absent(q)`) both ways on the real transitions of
// tests/fixtures/transitions, judged by evaluateExpectation:
//   - what really happened: for each replayed step with a visible effect, absent(text|desc="L")
//     for every label L (unique on the before screen, ≤ 40 characters) that the after screen no
//     longer shows; split by the delta's label (partial-change: the page stayed and the label went;
//     new-page: the label is gone with its page);
//   - negative control, wrong effect: the same atoms against the after screen of another step
//     of the same app (verify-replay's donor): a pass is a false pass.
// Run: npx tsx scripts/measure-removal-expectations.ts [--corpus <dir with transitions.jsonl>]
import * as path from 'node:path';
import { replayVerification } from '../src/bench/verify-replay.js';
import { loadTransitions } from '../src/tasks/replay/load-transitions.js';
import type { ReplayStep } from '../src/tasks/replay/replay-task.js';
import type { UiTree } from '../src/ui/ui-tree.js';
import { computeDelta, isComparedNode } from '../src/verify/compute-delta.js';
import { evaluateExpectation } from '../src/verify/evaluate-expectation.js';
import { parsePredicate } from '../src/verify/parse-predicate.js';
import type { Outcome } from '../src/verify/verify-outcome.js';
import { corpusFolder } from './corpus-option.js';

type Tally = Map<string, Record<Outcome, number>>;

const maxLabelLength = 40;

function count(tally: Tally, key: string, outcome: Outcome): void {
  const row = tally.get(key) ?? { pass: 0, fail: 0, inconclusive: 0 };
  row[outcome] += 1;
  tally.set(key, row);
}

function quote(value: string): string {
  return JSON.stringify(value);
}

/** absent(...) atoms for the labels `before` shows once and `after` not at all. */
function removalAtoms(before: UiTree, after: UiTree): string[] {
  const atoms: string[] = [];
  const occurrences = (tree: UiTree, field: 'text' | 'contentDesc', value: string): number => tree.nodes.filter((node) => node[field] === value).length;
  for (const node of before.nodes) {
    if (!isComparedNode(node, before)) continue;
    for (const [field, selector] of [['text', 'text'], ['contentDesc', 'desc']] as const) {
      const value = node[field];
      if (value === '' || value.length > maxLabelLength || value.includes('\n')) continue;
      if (occurrences(before, field, value) !== 1 || occurrences(after, field, value) !== 0) continue;
      atoms.push(`absent(${selector}=${quote(value)})`);
    }
  }
  return atoms;
}

function judge(tally: Tally, before: UiTree, after: UiTree): number {
  const delta = computeDelta(before, after);
  const atoms = removalAtoms(before, after);
  for (const atom of atoms) {
    const verdict = evaluateExpectation(parsePredicate(atom), { before, after, delta });
    count(tally, delta.label, verdict.outcome);
    count(tally, 'all', verdict.outcome);
  }
  return atoms.length > 0 ? 1 : 0;
}

function print(title: string, tally: Tally, steps: number): void {
  console.log(`${title} (${steps} steps)`);
  for (const key of ['partial-change', 'new-page', 'all']) {
    const row = tally.get(key);
    if (!row) continue;
    const total = row.pass + row.fail + row.inconclusive;
    console.log(`  ${key.padEnd(15)} atoms ${String(total).padStart(4)}  pass ${row.pass} (${((100 * row.pass) / total).toFixed(1)}%)  fail ${row.fail}  inconclusive ${row.inconclusive}`);
  }
}

const file = path.join(corpusFolder('tests/fixtures/transitions'), 'transitions.jsonl');
const source = await loadTransitions(file);
const report = replayVerification(source);
const steps = new Map<string, ReplayStep>(source.tasks.flatMap((task) => task.steps).map((step) => [step.id, step]));
const real: Tally = new Map();
const wrong: Tally = new Map();
let realSteps = 0;
let wrongSteps = 0;
for (const item of report.perStep) {
  const step = steps.get(item.id);
  if (item.category !== 'replayed' || item.noVisibleEffect || !step) continue;
  realSteps += judge(real, step.before, step.after);
  const donor = item.wrongEffect ? steps.get(item.wrongEffect.donor) : undefined;
  if (donor) wrongSteps += judge(wrong, step.before, donor.after);
}
console.log(`removal expectations on ${file}`);
print('What really happened: absent(q) for each label the action took off the screen', real, realSteps);
print('Negative control, wrong effect: another step\'s after screen (a pass is a false pass)', wrong, wrongSteps);
