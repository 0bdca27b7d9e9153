import type { TaskRunResult } from '../agent/task-run-result.js';
import type { BenchTask, TaskExecutionRequest, TaskExecutor } from './task-executor.js';

/** What the fake does for one request: return a result, throw, or hang. */
export type FakeBehaviour =
  /** Returns the default result with `result` merged in, after `after` settles when given. */
  | { readonly kind: 'result'; readonly result: Partial<TaskRunResult>; readonly after?: Promise<void> }
  | { readonly kind: 'throw'; readonly error: Error }
  /** Never settles by itself; rejects when the request's signal aborts unless `ignoreAbort`. */
  | { readonly kind: 'hang'; readonly ignoreAbort?: boolean };

/**
 * A test double of `TaskExecutor`: records every request and answers from a behaviour
 * function. The default behaviour returns a successful run with 3 steps, 3 LLM calls
 * and no images; tests override it per request. It runs no agent: use it only to test
 * the runner, metrics and reports.
 */
export class FakeTaskExecutor<Task extends BenchTask = BenchTask> {
  /** Every request, in call order. */
  readonly calls: TaskExecutionRequest<Task>[] = [];
  private inFlight = 0;
  /** The most runs that were in flight at once. */
  maxInFlight = 0;

  constructor(private readonly behaviour: (request: TaskExecutionRequest<Task>) => FakeBehaviour = () => ({ kind: 'result', result: {} })) {}

  /** The executor function to hand to `runBenchmark`. */
  readonly executor: TaskExecutor<Task> = async (request) => {
    this.calls.push(request);
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    try {
      // Yield once so concurrent runs really overlap.
      await new Promise<void>((resolve) => setImmediate(resolve));
      const behaviour = this.behaviour(request);
      switch (behaviour.kind) {
        case 'result':
          if (behaviour.after !== undefined) await behaviour.after;
          return { ...fakeRunResult(request), ...behaviour.result };
        case 'throw':
          throw behaviour.error;
        case 'hang':
          return await new Promise<TaskRunResult>((_, reject) => {
            if (behaviour.ignoreAbort === true) return;
            const abort = (): void => reject(new Error(`fake run of ${request.task.id} aborted`));
            if (request.signal.aborted) abort();
            else request.signal.addEventListener('abort', abort, { once: true });
          });
      }
    } finally {
      this.inFlight--;
    }
  };
}

/** The default successful result the fake returns for `request` (no images, 3 steps). */
export function fakeRunResult<Task extends BenchTask>(request: TaskExecutionRequest<Task>): TaskRunResult {
  return {
    id: request.task.id,
    app: request.task.app,
    mode: request.mode,
    policy: 'oracle',
    repeat: request.repeat,
    success: true,
    reason: 'fake executor: success check not evaluated',
    steps: 3,
    llmCalls: 3,
    vlmCalls: 0,
    imagesUploaded: 0,
    imageBytes: 0,
    imageTokens: 0,
    imageSizes: {},
    promptTokensBySection: {},
    modelAttempts: 3,
    promptTokens: 300,
    completionTokens: 30,
    latency: { deviceMs: 30, perceptionMs: 3, modelMs: 60, verificationMs: 3, totalMs: 96 },
    verification: { pass: 3, fail: 0, inconclusive: 0 },
    gateReasons: {},
    faults: [],
    modelFaults: [],
    error: null,
    subGoals: { met: 0, total: 0 },
    operations: { total: 3, effective: 3 },
    referenceSteps: null,
    traceDir: request.traceDir,
  };
}
