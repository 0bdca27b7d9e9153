import { describe, expect, it } from 'vitest';
import { computeModeMetrics, computeVlmReduction } from '../../../src/bench/compute-mode-metrics.js';
import type { TokenPrices } from '../../../src/bench/bench-results.js';
import { runResult } from './run-result-builder.js';

const prices: TokenPrices = { label: 'test prices', promptPerMillionUsd: 2, completionPerMillionUsd: 8 };

describe('computeModeMetrics', () => {
  it('sums calls, tokens and cost per mode and keeps the mode order asked for', () => {
    const runs = [
      runResult({ id: 'a', mode: 'senseact', llmCalls: 3, promptTokens: 500_000, completionTokens: 10_000 }),
      runResult({ id: 'b', mode: 'senseact', llmCalls: 5, promptTokens: 250_000, completionTokens: 40_000, success: false }),
      runResult({ id: 'a', mode: 'react-text', llmCalls: 9 }),
    ];
    const [senseact, reactText] = computeModeMetrics(runs, ['senseact', 'react-text'], prices);
    expect(senseact?.mode).toBe('senseact');
    expect(senseact?.tasks).toBe(2);
    expect(senseact?.successes).toBe(1);
    expect(senseact?.successRate).toBe(0.5);
    expect(senseact?.llmCalls).toBe(8);
    expect(senseact?.promptTokens).toBe(750_000);
    expect(senseact?.completionTokens).toBe(50_000);
    // 0.75 M × $2 + 0.05 M × $8 = 1.5 + 0.4
    expect(senseact?.costUsd).toBeCloseTo(1.9, 10);
    expect(senseact?.costPerTaskUsd).toBeCloseTo(0.95, 10);
    expect(senseact?.tokensPerTask).toBe(400_000);
    expect(reactText?.llmCalls).toBe(9);
    expect(reactText?.vlmReduction).toBeNull();
  });

  it('sums image tokens apart (they are inside the prompt tokens)', () => {
    const runs = [
      runResult({ id: 'a', mode: 'react-vlm', imagesUploaded: 2, imageTokens: 2 * 1445 }),
      runResult({ id: 'b', mode: 'react-vlm', imagesUploaded: 1, imageTokens: 85 }),
      runResult({ id: 'a', mode: 'senseact' }),
    ];
    const [reactVlm, senseact] = computeModeMetrics(runs, ['react-vlm', 'senseact'], prices);
    expect(reactVlm?.imageTokens).toBe(2 * 1445 + 85);
    expect(senseact?.imageTokens).toBe(0);
  });

  it('splits success per app and latency into sums and means', () => {
    const runs = [
      runResult({ id: 'a', mode: 'senseact', app: 'clock', success: true, latency: { deviceMs: 10, perceptionMs: 1, modelMs: 100, verificationMs: 2, totalMs: 113 } }),
      runResult({ id: 'b', mode: 'senseact', app: 'clock', success: false, subGoals: { met: 0, total: 2 }, operations: { total: 4, effective: 1 }, latency: { deviceMs: 30, perceptionMs: 3, modelMs: 300, verificationMs: 6, totalMs: 339 } }),
      runResult({ id: 'c', mode: 'senseact', app: 'alarm', success: true }),
    ];
    const [metrics] = computeModeMetrics(runs, ['senseact'], prices);
    expect(metrics?.perApp).toEqual({
      alarm: { tasks: 1, successes: 1, successRate: 1, subGoalSuccessRate: 1, reversedRedundancyRatio: null, reasonableOperationRatio: 1 },
      clock: { tasks: 2, successes: 1, successRate: 0.5, subGoalSuccessRate: 0.5, reversedRedundancyRatio: null, reasonableOperationRatio: 5 / 8 },
    });
    expect(Object.keys(metrics?.perApp ?? {})).toEqual(['alarm', 'clock']);
    expect(metrics?.latency.deviceMs.sum).toBe(80);
    expect(metrics?.latency.modelMs.mean).toBeCloseTo((100 + 300 + 400) / 3, 10);
  });

  it('counts errors as failures, and reports the rate without them separately', () => {
    const runs = [
      runResult({ id: 'a', mode: 'senseact', success: true }),
      runResult({ id: 'b', mode: 'senseact', success: false, error: 'device lost' }),
      runResult({ id: 'c', mode: 'senseact', success: false }),
    ];
    const [metrics] = computeModeMetrics(runs, ['senseact'], prices);
    expect(metrics?.errors).toBe(1);
    expect(metrics?.successRate).toBeCloseTo(1 / 3, 10);
    expect(metrics?.successRateWithoutErrors).toBe(0.5);
    const [allErrored] = computeModeMetrics([runResult({ id: 'a', mode: 'open-loop', success: false, error: 'x' })], ['open-loop'], prices);
    expect(allErrored?.successRateWithoutErrors).toBeNull();
  });

  it('counts faults met and survived, and fault kinds', () => {
    const runs = [
      runResult({ id: 'a', mode: 'senseact', faults: ['slow-render', 'dropped-tap'], success: true }),
      runResult({ id: 'b', mode: 'senseact', faults: ['dropped-tap'], success: false }),
      runResult({ id: 'c', mode: 'senseact', faults: [], success: true }),
    ];
    const [metrics] = computeModeMetrics(runs, ['senseact'], prices);
    expect(metrics?.faultsMet).toBe(2);
    expect(metrics?.faultsSurvived).toBe(1);
    expect(metrics?.faultKinds).toEqual({ 'dropped-tap': 2, 'slow-render': 1 });
  });

  it('adds gate reasons and verification outcomes over runs', () => {
    const runs = [
      runResult({ id: 'a', mode: 'senseact', gateReasons: { 'repeated-failure': 1 }, verification: { pass: 3, fail: 1, inconclusive: 0 } }),
      runResult({ id: 'b', mode: 'senseact', gateReasons: { 'repeated-failure': 2, 'empty-hierarchy': 1 }, verification: { pass: 1, fail: 2, inconclusive: 1 } }),
    ];
    const [metrics] = computeModeMetrics(runs, ['senseact'], prices);
    expect(metrics?.gateReasons).toEqual({ 'empty-hierarchy': 1, 'repeated-failure': 3 });
    expect(metrics?.verification).toEqual({ pass: 4, fail: 3, inconclusive: 1 });
  });

  it('reports a zeroed mode with no runs instead of dividing by zero', () => {
    const [metrics] = computeModeMetrics([], ['senseact'], prices);
    expect(metrics?.tasks).toBe(0);
    expect(metrics?.successRate).toBe(0);
    expect(metrics?.steps.mean).toBe(0);
  });
});

describe('VLM reduction against react-vlm', () => {
  it('gives the per-task mean and the aggregate ratio on the same tasks', () => {
    const runs = [
      runResult({ id: 'a', mode: 'react-vlm', imagesUploaded: 10 }),
      runResult({ id: 'b', mode: 'react-vlm', imagesUploaded: 2 }),
      runResult({ id: 'a', mode: 'senseact', imagesUploaded: 1 }),
      runResult({ id: 'b', mode: 'senseact', imagesUploaded: 2 }),
    ];
    const [senseact, reactVlm] = computeModeMetrics(runs, ['senseact', 'react-vlm'], prices);
    // per task: (1 − 1/10) = 0.9 and (1 − 2/2) = 0 → mean 0.45; aggregate 1 − 3/12 = 0.75
    expect(senseact?.vlmReduction?.perTaskMean).toBeCloseTo(0.45, 10);
    expect(senseact?.vlmReduction?.aggregate).toBeCloseTo(0.75, 10);
    expect(senseact?.vlmReduction?.pairedTasks).toBe(2);
    expect(reactVlm?.vlmReduction).toEqual({ perTaskMean: 0, aggregate: 0, pairedTasks: 2 });
  });

  it('leaves out tasks where react-vlm sent no image, tasks the mode did not run, and errored runs', () => {
    const baseline = [
      runResult({ id: 'a', mode: 'react-vlm', imagesUploaded: 4 }),
      runResult({ id: 'zero', mode: 'react-vlm', imagesUploaded: 0 }),
      runResult({ id: 'only-baseline', mode: 'react-vlm', imagesUploaded: 8 }),
      runResult({ id: 'errored', mode: 'react-vlm', imagesUploaded: 8 }),
    ];
    const mode = [
      runResult({ id: 'a', mode: 'senseact', imagesUploaded: 1 }),
      runResult({ id: 'zero', mode: 'senseact', imagesUploaded: 3 }),
      runResult({ id: 'errored', mode: 'senseact', imagesUploaded: 0, error: 'device lost' }),
    ];
    expect(computeVlmReduction(mode, baseline)).toEqual({ perTaskMean: 0.75, aggregate: 0.75, pairedTasks: 1 });
  });

  it('averages images over repeats before pairing', () => {
    const baseline = [runResult({ id: 'a', mode: 'react-vlm', imagesUploaded: 4, repeat: 0 }), runResult({ id: 'a', mode: 'react-vlm', imagesUploaded: 6, repeat: 1 })];
    const mode = [runResult({ id: 'a', mode: 'senseact', imagesUploaded: 0, repeat: 0 }), runResult({ id: 'a', mode: 'senseact', imagesUploaded: 2, repeat: 1 })];
    // 1 − 1/5
    expect(computeVlmReduction(mode, baseline).perTaskMean).toBeCloseTo(0.8, 10);
  });

  it('can be negative when a mode sends more images than react-vlm', () => {
    const reduction = computeVlmReduction([runResult({ id: 'a', mode: 'senseact', imagesUploaded: 6 })], [runResult({ id: 'a', mode: 'react-vlm', imagesUploaded: 3 })]);
    expect(reduction.aggregate).toBeCloseTo(-1, 10);
  });
});
