import type { AgentMode, TaskRunResult } from '../agent/task-run-result.js';
import type { MemoryRecord } from '../memory/certificate-memory.js';
import type { BenchExecutorOptions } from './task-executor.js';

/** What a worker thread is started with: the bench options a thread can receive (no signal). */
export interface BenchWorkerData {
  readonly index: number;
  readonly options: Omit<BenchExecutorOptions, 'signal' | 'concurrency' | 'workers'>;
}

/** A run request as it crosses to a worker (the task as plain data). */
export interface WorkerRunRequest {
  readonly task: unknown;
  readonly mode: AgentMode;
  readonly repeat: number;
  readonly outDir: string;
  readonly traceDir: string;
}

/** Messages from the pool to a worker. */
export type MainToWorker =
  /** Run one task; first index `certificates` (of the run's mode) that other runs wrote since the last request. */
  | { readonly type: 'run'; readonly id: number; readonly request: WorkerRunRequest; readonly certificates: readonly MemoryRecord[] }
  | { readonly type: 'abort'; readonly id: number }
  | { readonly type: 'close' };

/** An error as it crosses threads. */
export interface WorkerError {
  readonly name: string;
  readonly message: string;
  readonly stack?: string;
}

/** Messages from a worker to the pool. */
export type WorkerToMain =
  | { readonly type: 'ready' }
  | { readonly type: 'init-failed'; readonly error: WorkerError }
  /** A certificate a run appended to its mode's memory (with its run): the pool persists it. */
  | { readonly type: 'certificate'; readonly mode: string; readonly record: MemoryRecord }
  | { readonly type: 'result'; readonly id: number; readonly result: TaskRunResult }
  | { readonly type: 'failed'; readonly id: number; readonly error: WorkerError }
  | { readonly type: 'closed' };
