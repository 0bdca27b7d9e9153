import { describe, expect, it } from 'vitest';
import { computeLabMetrics } from '../../../src/bench/compute-lab-metrics.js';
import { runResult } from './run-result-builder.js';

describe('computeLabMetrics (AndroidLab Sub-SR, RRR, ROR)', () => {
  it('computes the three on hand-computed runs', () => {
    const runs = [
      // Success in 4 steps where a person needs 3: RRR 0.75; 2 of 2 sub-goals; 4 of 5 operations changed the screen.
      runResult({ id: 'a', mode: 'senseact', success: true, steps: 4, referenceSteps: 3, subGoals: { met: 2, total: 2 }, operations: { total: 5, effective: 4 } }),
      // Success in 6 steps where a person needs 6: RRR 1; 1 of 1 sub-goal.
      runResult({ id: 'b', mode: 'senseact', success: true, steps: 6, referenceSteps: 6, subGoals: { met: 1, total: 1 }, operations: { total: 6, effective: 6 } }),
      // Failure: no RRR, 1 of 4 sub-goals, 1 of 9 operations effective.
      runResult({ id: 'c', mode: 'senseact', success: false, steps: 9, referenceSteps: 3, subGoals: { met: 1, total: 4 }, operations: { total: 9, effective: 1 } }),
      // Success of a task without a reference: no RRR; no sub-goals: no Sub-SR.
      runResult({ id: 'd', mode: 'senseact', success: true, steps: 2, referenceSteps: null, subGoals: { met: 0, total: 0 }, operations: { total: 2, effective: 2 } }),
      // Infrastructure error: left out of all three.
      runResult({ id: 'e', mode: 'senseact', success: false, error: 'device lost', steps: 1, referenceSteps: 3, subGoals: { met: 0, total: 3 }, operations: { total: 1, effective: 0 } }),
    ];
    const metrics = computeLabMetrics(runs);
    expect(metrics.subGoalSuccessRate).toBeCloseTo((1 + 1 + 0.25) / 3, 10);
    expect(metrics.reversedRedundancyRatio).toBeCloseTo((0.75 + 1) / 2, 10);
    expect(metrics.reasonableOperationRatio).toBeCloseTo((4 + 6 + 1 + 2) / (5 + 6 + 9 + 2), 10);
  });

  it('is null where no run carries the metric, and leaves a 0-step success out of RRR', () => {
    expect(computeLabMetrics([])).toEqual({ subGoalSuccessRate: null, reversedRedundancyRatio: null, reasonableOperationRatio: null });
    const alreadyDone = runResult({ id: 'a', mode: 'senseact', success: true, steps: 0, referenceSteps: 3, subGoals: { met: 0, total: 0 }, operations: { total: 0, effective: 0 } });
    expect(computeLabMetrics([alreadyDone])).toEqual({ subGoalSuccessRate: null, reversedRedundancyRatio: null, reasonableOperationRatio: null });
  });
});
