import type { TaskRunResult } from '../../../src/agent/task-run-result.js';

/** A TaskRunResult with neutral values; tests override only what they assert on. */
export function runResult(overrides: Partial<TaskRunResult> & Pick<TaskRunResult, 'id' | 'mode'>): TaskRunResult {
  return {
    app: 'settings',
    policy: 'llm',
    repeat: 0,
    success: true,
    reason: 'check passed',
    steps: 4,
    llmCalls: 4,
    vlmCalls: 0,
    imagesUploaded: 0,
    imageBytes: 0,
    imageTokens: 0,
    imageSizes: {},
    promptTokensBySection: {},
    modelAttempts: 4,
    promptTokens: 1000,
    completionTokens: 100,
    latency: { deviceMs: 40, perceptionMs: 4, modelMs: 400, verificationMs: 8, totalMs: 452 },
    verification: { pass: 4, fail: 0, inconclusive: 0 },
    gateReasons: {},
    faults: [],
    modelFaults: [],
    error: null,
    traceDir: `traces/${overrides.id}/${overrides.mode}-r0`,
    subGoals: { met: 1, total: 1 },
    operations: { total: 4, effective: 4 },
    referenceSteps: null,
    ...overrides,
  };
}
