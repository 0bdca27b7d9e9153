import { describe, expect, it } from 'vitest';
import { benchResultsSchema, type BenchResults } from '../../../src/bench/bench-results.js';
import { computeModeMetrics } from '../../../src/bench/compute-mode-metrics.js';
import { formatPerAppTable, formatResultsTable } from '../../../src/bench/format-results-table.js';
import type { AgentMode, PolicyName, TaskRunResult } from '../../../src/agent/task-run-result.js';
import { runResult } from './run-result-builder.js';

const prices = { label: 'test prices $1/$2', promptPerMillionUsd: 1, completionPerMillionUsd: 2 };

function results(runs: TaskRunResult[], modes: AgentMode[], policy: PolicyName, expectedRuns = runs.length, modelFaults: string | null = null): BenchResults {
  return benchResultsSchema.parse({
    version: 1,
    policy,
    oracle: policy === 'oracle',
    options: { suite: 'sim/settings', modes, repeat: 1, concurrency: 2, device: 'sim', faults: null, modelFaults, policy, modelLabel: policy === 'oracle' ? 'none' : 'gpt-4o-mini', taskIds: [...new Set(runs.map((run) => run.id))] },
    prices,
    startedAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:10.000Z',
    wallTimeMs: 12_345,
    complete: runs.length === expectedRuns,
    expectedRuns,
    modes: computeModeMetrics(runs, modes, prices),
    tasks: runs,
  });
}

describe('formatResultsTable', () => {
  const runs = [
    runResult({ id: 'a', mode: 'senseact', imagesUploaded: 1, imageBytes: 2048 }),
    runResult({ id: 'b', mode: 'senseact', success: false }),
    runResult({ id: 'a', mode: 'react-vlm', imagesUploaded: 4, imageBytes: 8192 }),
    runResult({ id: 'b', mode: 'react-vlm', imagesUploaded: 4, imageBytes: 8192, error: 'device lost', success: false }),
  ];

  it('notes the runs a budget, refused plans or unusable replies stopped, per mode, with a reason; nothing when none was', () => {
    const stopped = [
      runResult({ id: 'a', mode: 'senseact', success: false, stopReason: 'budget: 30 model calls reached the limit of 30 (--max-model-calls)' }),
      runResult({ id: 'b', mode: 'senseact', success: false, stopReason: "the model's plans were refused 5 times in a row: unit \"nx000\" is not on this screen" }),
      runResult({ id: 'a', mode: 'react-vlm', success: false, stopReason: 'budget: 5000 tokens reached the limit of 5000 (--max-tokens)' }),
      runResult({ id: 'b', mode: 'react-vlm', success: false, stopReason: 'model reply: m (role planner) gave no valid reply in 3 attempt(s): (root): No parsable JSON' }),
    ];
    const text = formatResultsTable(results(stopped, ['senseact', 'react-vlm'], 'llm'));
    // Notes are wrapped at 120 columns: read them unwrapped.
    expect(text.replace(/\n {2}/g, ' ')).toContain('stopped by a budget: senseact 1/2, react-vlm 1/2 (e.g. a senseact: budget: 30 model calls reached the limit of 30 (--max-model-calls))');
    expect(text).toContain("stopped after the model's plans were refused in a row: senseact 1/2, react-vlm 0/2");
    expect(text.replace(/\n {2}/g, ' ')).toContain('stopped: the model gave no usable reply (a failure of the run, not infrastructure): senseact 0/2, react-vlm 1/2 (e.g. b react-vlm: model reply: m (role planner) gave no valid reply');
    expect(formatResultsTable(results(runs, ['senseact', 'react-vlm'], 'llm'))).not.toMatch(/stopped(:| by| after)/);
  });

  it('counts the runs with a side effect per mode and names the first; the count is 0 and no example without one', () => {
    const effect = 'side effect: com.android.settings network.airplaneMode changed from false to true';
    const changed = [
      runResult({ id: 'a', mode: 'senseact', success: false, sideEffects: [effect] }),
      runResult({ id: 'a', mode: 'react-vlm' }),
    ];
    const text = formatResultsTable(results(changed, ['senseact', 'react-vlm'], 'llm'));
    expect(text.split('\n')[3]).toMatch(/^senseact .* 0 +1 +0\/0$/);
    expect(text.replace(/\n +/g, ' ')).toContain(`senseact 1/1, e.g. a: ${effect}`);
    expect(text).not.toContain('react-vlm 0/1, e.g.');
    expect(results(changed, ['senseact', 'react-vlm'], 'llm').modes.map((metrics) => metrics.sideEffectRuns)).toEqual([1, 0]);
    expect(formatResultsTable(results(runs, ['senseact', 'react-vlm'], 'llm'))).not.toContain('e.g. a: side effect');
  });

  it('marks estimated usage and cached prompt tokens per mode; no mark when the endpoint reported every call', () => {
    const marked = [
      runResult({ id: 'a', mode: 'senseact', estimatedUsageCalls: 3, cachedPromptTokens: 500 }),
      runResult({ id: 'a', mode: 'react-vlm' }),
    ];
    const text = formatResultsTable(results(marked, ['senseact', 'react-vlm'], 'llm')).replace(/\n +/g, ' ');
    expect(text).toContain('tokens estimated locally (the endpoint sent no usage) for senseact 3 of 4 calls, react-vlm 0 of 4 calls');
    const promptTokens = marked.filter((run) => run.mode === 'senseact').reduce((total, run) => total + run.promptTokens, 0);
    expect(text).toContain(`cached prompt tokens (inside tok in, priced as prompt tokens: no cached price given): senseact 500 (${((500 / promptTokens) * 100).toFixed(1)}%), react-vlm 0`);
    expect(formatResultsTable(results(runs, ['senseact', 'react-vlm'], 'llm'))).not.toMatch(/estimated locally|cached prompt/);
  });

  it('counts the replies read only after a repair per mode and role, adding up the runs; none for an oracle whose replies were read as written', () => {
    const read = [
      runResult({ id: 'a', mode: 'senseact', replyRepairs: { planner: { replies: 3, repaired: 2, invalid: 1, kinds: { fence: 2, 'surrounding-text': 1 } }, verifier: { replies: 1, repaired: 0, invalid: 0, kinds: {} } } }),
      runResult({ id: 'b', mode: 'senseact', replyRepairs: { planner: { replies: 2, repaired: 1, invalid: 0, kinds: { fence: 1 } } } }),
      runResult({ id: 'a', mode: 'react-vlm', replyRepairs: { vision: { replies: 4, repaired: 0, invalid: 0, kinds: {} } } }),
    ];
    const bench = results(read, ['senseact', 'react-vlm'], 'llm');
    expect(bench.modes[0]?.replyRepairs).toEqual({ planner: { replies: 5, repaired: 3, invalid: 1, kinds: { fence: 3, 'surrounding-text': 1 } }, verifier: { replies: 1, repaired: 0, invalid: 0, kinds: {} } });
    const text = formatResultsTable(bench);
    expect(text.split('\n').every((line) => line.length <= 120)).toBe(true);
    expect(text.replace(/\n +/g, ' ')).toContain('reply repairs (replies read only after a repair / replies read, per role; by kind): senseact planner 3/5 (fence 3, surrounding-text 1, 1 invalid), verifier 0/1; react-vlm vision 0/4');
    const oracle = [runResult({ id: 'a', mode: 'senseact', policy: 'oracle', replyRepairs: { planner: { replies: 3, repaired: 0, invalid: 0, kinds: {} } } })];
    expect(formatResultsTable(results(oracle, ['senseact'], 'oracle'))).not.toContain('reply repairs');
    expect(formatResultsTable(results(runs, ['senseact', 'react-vlm'], 'llm'))).not.toContain('reply repairs');
  });

  it('says the size of the images each mode sent and their tokens per image; nothing when no mode sent one', () => {
    const sized = [
      runResult({ id: 'a', mode: 'senseact', vlmCalls: 1, imagesUploaded: 1, imageTokens: 85, imageSizes: { '1080x2400': 1 } }),
      runResult({ id: 'a', mode: 'react-vlm', imagesUploaded: 3, imageTokens: 3 * 1445, imageSizes: { '1080x2400': 3 } }),
      runResult({ id: 'b', mode: 'react-vlm', imagesUploaded: 1, imageTokens: 425, imageSizes: { '360x800': 1 } }),
    ];
    const text = formatResultsTable(results(sized, ['senseact', 'react-vlm'], 'llm'));
    expect(text).toContain('images sent: senseact 1 at 1080x2400, 85 tok/image; react-vlm 3 at 1080x2400 + 1 at 360x800, 1190 tok/image');
    const none = [runResult({ id: 'a', mode: 'senseact' }), runResult({ id: 'a', mode: 'react-text' })];
    expect(formatResultsTable(results(none, ['senseact', 'react-text'], 'llm'))).not.toContain('images sent');
  });

  it('renders one aligned row per mode in tables within 120 columns, under a title naming the device and the model', () => {
    const text = formatResultsTable(results(runs, ['senseact', 'react-vlm'], 'llm'));
    const lines = text.split('\n');
    expect(lines[0]).toBe('SenseAct bench: suite sim/settings on device sim, llm policy (model: gpt-4o-mini)');
    expect(lines[1]).toMatch(/^mode +runs +success +rate +sub-sr +rrr +ror +steps\/run +errors +side eff\. +faults ok\/met$/);
    expect(lines[2]).toMatch(/^-+( +-+)+$/);
    expect(lines[3]).toMatch(/^senseact +2 +1\/2 +50\.0% +100\.0% +- +100\.0% .* 0 +0 +0\/0$/);
    expect(lines[4]).toMatch(/^react-vlm +2 +1\/2 +50\.0% .* 1 +0 +0\/0$/);
    // Every column ends at the same offset in header and rows (numbers right-aligned).
    const columnEnds = (line: string): number[] => [...line.matchAll(/\S+(?= {2}|$)/g)].map((match) => (match.index ?? 0) + match[0].length);
    expect(columnEnds(lines[3] ?? '').slice(1)).toEqual(columnEnds(lines[1] ?? '').slice(1));
    expect(lines.slice(5, 8)).toEqual(['', 'Model calls and cost', expect.stringMatching(/^mode +llm +vlm +images +img KiB +tok in +img tok +tok out +cost \$ +ms\/run$/)]);
    // senseact vs react-vlm: only task a pairs (b errored): 1 − 1/4 = 75%; the baseline row says so.
    const reduction = lines.slice(lines.indexOf('VLM reduction against react-vlm'));
    expect(reduction[1]).toMatch(/^mode +vlm red\. task\/agg +paired tasks +on tasks both solved +both solved$/);
    expect(reduction[3]).toMatch(/^senseact +75\.0%\/75\.0% +1 +75\.0%\/75\.0% +1$/);
    expect(reduction[4]).toMatch(/^react-vlm +baseline +- +baseline +-$/);
    expect(text).toContain('cost at test prices $1/$2');
    expect(text).toContain('errors: runs ended by an infrastructure error');
    expect(text).toContain('4 runs, wall time 12.3 s');
    expect(text.endsWith('\n')).toBe(true);
    // Tables and the notes under them (wrapped, continuations indented) fit 120 columns.
    expect(Math.max(...lines.map((line) => line.length))).toBeLessThanOrEqual(120);
    expect(text).toContain('\n  ');
  });

  it('--wide prints every column in one table (wider than 120), the baseline row labelled', () => {
    const lines = formatResultsTable(results(runs, ['senseact', 'react-vlm'], 'llm'), { wide: true }).split('\n');
    expect(lines[1]).toMatch(/^mode +runs +success +rate +sub-sr +rrr +ror +llm +vlm +images .* vlm red\. task\/agg +errors +side eff\. +faults ok\/met +model faults ok\/met$/);
    expect(lines[3]).toContain('75.0%/75.0%');
    expect(lines[4]).toMatch(/ baseline +1 +0 +0\/0 +0\/0$/);
    expect(lines[1]!.length).toBeGreaterThan(120);
  });

  it('counts the VLM reduction on tasks both modes solved apart: a mode that gives up early saves nothing there', () => {
    const gaveUp = [
      runResult({ id: 'a', mode: 'open-loop', imagesUploaded: 0, success: false }),
      runResult({ id: 'b', mode: 'open-loop', imagesUploaded: 1 }),
      runResult({ id: 'a', mode: 'react-vlm', imagesUploaded: 4 }),
      runResult({ id: 'b', mode: 'react-vlm', imagesUploaded: 2 }),
    ];
    const line = formatResultsTable(results(gaveUp, ['open-loop', 'react-vlm'], 'llm')).split('\n').find((entry) => entry.startsWith('open-loop') && entry.includes('%/'));
    // All paired tasks: (1 + 0.5)/2 = 75% per task, 1 - 1/6 = 83.3% aggregate; solved by both (b only): 50%.
    expect(line).toMatch(/^open-loop +75\.0%\/83\.3% +2 +50\.0%\/50\.0% +1$/);
  });

  it('names the simulator in the title when the device was one', () => {
    const simulated = results(runs, ['senseact', 'react-vlm'], 'llm');
    const text = formatResultsTable({ ...simulated, options: { ...simulated.options, simulated: true } });
    expect(text.split('\n')[0]).toBe('SenseAct bench: suite sim/settings on the simulator (device sim), llm policy (model: gpt-4o-mini)');
  });

  it('prints Sub-SR, RRR and ROR per app when the suite has several apps, nothing for one app', () => {
    expect(formatPerAppTable(results(runs, ['senseact', 'react-vlm'], 'llm'))).toBe('');
    const twoApps = [
      runResult({ id: 'a', mode: 'senseact', app: 'clock', steps: 4, referenceSteps: 2, subGoals: { met: 1, total: 2 }, operations: { total: 4, effective: 3 } }),
      runResult({ id: 'b', mode: 'senseact', app: 'notes', success: false }),
    ];
    const lines = formatPerAppTable(results(twoApps, ['senseact'], 'llm')).split('\n');
    expect(lines[0]).toBe('Per app');
    expect(lines[1]).toMatch(/^app +mode +success +sub-sr +rrr +ror$/);
    expect(lines[2]).toMatch(/^clock +senseact +1\/1 +50\.0% +0\.50 +75\.0%$/);
    expect(lines[3]).toMatch(/^notes +senseact +0\/1 +100\.0% +- +100\.0%$/);
  });

  it('keeps the per-app table within 120 columns however many modes ran (a row per app and mode)', () => {
    const modes = ['senseact', 'senseact-text', 'senseact-vlm-always', 'open-loop', 'react-vlm', 'react-text'] as const;
    const apps = ['com.simplemobiletools.notes.pro', 'com.google.android.deskclock'];
    const many = modes.flatMap((mode) => apps.map((app, index) => runResult({ id: `t${index}`, mode, app, steps: 4, referenceSteps: 2, subGoals: { met: 1, total: 2 }, operations: { total: 4, effective: 3 } })));
    const lines = formatPerAppTable(results(many, [...modes], 'llm')).trimEnd().split('\n');
    expect(lines).toHaveLength(2 + modes.length * apps.length);
    expect(lines.filter((line) => line.length > 120)).toEqual([]);
    expect(lines).toContainEqual(expect.stringMatching(/^com\.simplemobiletools\.notes\.pro +senseact-vlm-always +1\/1 +50\.0% +0\.50 +75\.0%$/));
  });

  it('labels oracle results as such', () => {
    const oracleRuns = runs.map((run) => ({ ...run, policy: 'oracle' as const }));
    const text = formatResultsTable(results(oracleRuns, ['senseact', 'react-vlm'], 'oracle'));
    expect(text.split('\n')[0]).toBe('SenseAct bench: suite sim/settings on device sim, oracle policy (reference solutions, no model)');
    expect(text).toContain('\noracle: no model was called; ');
    expect(formatResultsTable(results(runs, ['senseact', 'react-vlm'], 'llm'))).not.toContain('oracle');
  });

  it('counts injected model faults by kind per mode under --model-faults, and says nothing without it', () => {
    const faulted = [
      runResult({ id: 'a', mode: 'senseact', policy: 'oracle', modelFaults: ['wrong-unit', 'invalid-json', 'wrong-unit'] }),
      runResult({ id: 'b', mode: 'senseact', policy: 'oracle', success: false, modelFaults: ['stale-expectation'] }),
      runResult({ id: 'c', mode: 'senseact', policy: 'oracle' }),
      runResult({ id: 'a', mode: 'open-loop', policy: 'oracle', success: false, modelFaults: ['wrong-unit'] }),
      runResult({ id: 'b', mode: 'open-loop', policy: 'oracle' }),
      runResult({ id: 'c', mode: 'open-loop', policy: 'oracle' }),
    ];
    const summary = results(faulted, ['senseact', 'open-loop'], 'oracle', faulted.length, 'standard');
    expect(summary.modes[0]?.modelFaultKinds).toEqual({ 'wrong-unit': 2, 'invalid-json': 1, 'stale-expectation': 1 });
    const text = formatResultsTable(summary);
    expect(text).toContain("\nmodel faults (--model-faults standard, injected into the oracle's replies) by kind:\n");
    expect(text).toContain('\n  senseact: invalid-json ×1, stale-expectation ×1, wrong-unit ×2; 1 of 2 runs that met one succeeded\n');
    expect(text).toContain('\n  open-loop: wrong-unit ×1; 0 of 1 runs that met one succeeded\n');
    // The same runs without the option recorded: no such lines.
    expect(formatResultsTable(results(faulted, ['senseact', 'open-loop'], 'oracle'))).not.toContain('model faults (');
  });

  it('says when the VLM reduction was not measured and when the run is incomplete', () => {
    const text = formatResultsTable(results(runs.slice(0, 2), ['senseact'], 'llm', 6));
    expect(text).toContain('vlm red.: not measured (react-vlm was not run)');
    expect(text).toMatch(/^senseact +2 +1\/2 +50\.0% .* 0 +0\/0$/m);
    expect(text).not.toContain('VLM reduction against');
    expect(text).toContain('INCOMPLETE: 2 of 6 runs finished; run again with --resume to finish');
  });
});
