import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { TaskRunResult } from '../agent/task-run-result.js';
import { loadDeviceProfile } from '../device/device-profile.js';
import { CertificateMemory, type MemoryRecord } from '../memory/certificate-memory.js';
import type { Task } from '../tasks/task-schema.js';
import { debugLog } from '../util/debug-log.js';
import type { Redactor } from '../util/redactor.js';
import { BenchError } from './bench-error.js';
import { cassetteFromEnv, createBenchExecutor, type BenchComposition } from './compose.js';
import type { BenchExecutorHandle, BenchExecutorOptions, TaskExecutionRequest } from './task-executor.js';
import type { BenchWorkerData, MainToWorker, WorkerError, WorkerToMain } from './worker-messages.js';
import { siblingModule, workerScript } from '../util/worker-script.js';

/** `SENSEACT_WORKERS=N` (N ≥ 2) asks for up to N worker threads; unset or 0 keeps every run on the main thread (`--workers` wins). */
export const workersEnvironmentVariable = 'SENSEACT_WORKERS';

/**
 * The bench's executor factory (the CLI wires this one). By default every run stays on the
 * main thread (`createBenchExecutor`): measured on 2 cores, two worker threads made the
 * README's main job slower (docs/grid.md, "Both cores"), since one thread already keeps
 * about 1.4 cores busy and each thread pays its own start-up, JIT and heap. Asked for
 * (`--workers N` or `SENSEACT_WORKERS=N`, N ≥ 2), runs on the in-process simulator at
 * `concurrency` > 1 go to a pool of worker threads (`createWorkerPoolExecutor`); Appium
 * devices, whose runs wait on the network, and a cassette being recorded or replayed stay
 * in-process whatever is asked.
 */
export async function createParallelBenchExecutor(options: BenchExecutorOptions): Promise<BenchExecutorHandle<Task>> {
  const threads = workerThreadsFor(options);
  return threads > 1 ? await createWorkerPoolExecutor(options, threads) : await createBenchExecutor(options);
}

/** Worker threads when neither `--workers` nor `SENSEACT_WORKERS` says: none (see `createParallelBenchExecutor`). */
export const defaultWorkers = 0;

/** How many worker threads a bench with these options gets; 1 means none (in-process). */
export function workerThreadsFor(options: BenchExecutorOptions): number {
  const concurrency = options.concurrency ?? 1;
  const setting = options.env[workersEnvironmentVariable];
  const cap = options.workers ?? (setting === undefined || setting.trim() === '' ? defaultWorkers : Number(setting));
  if (!Number.isInteger(cap) || cap < 0) {
    throw new BenchError({ code: 'bench-option', message: `${workersEnvironmentVariable}=${setting}: expected a whole number of worker threads (0 keeps runs on the main thread).` });
  }
  if (concurrency <= 1) return 1;
  if (cap <= 1) return 1;
  if (loadDeviceProfile(options.device, { cwd: options.cwd, env: options.env }).kind !== 'sim') return 1;
  // One cassette file: recorded in one order, and replayed by one player that knows which recorded calls went unused.
  if (cassetteFromEnv(options.env, options.cwd) !== undefined) return 1;
  // The app memory learns into one file per app: threads writing it side by side would lose updates.
  if (options.planning?.appMemoryDir !== undefined) return 1;
  return Math.min(concurrency, cap);
}

/** The pool's executor handle, with a look at its threads (for tests and diagnostics). */
export interface WorkerPoolHandle extends BenchExecutorHandle<Task> {
  /** The live threads: the task each is running, and a way to stop one as a crash would. */
  readonly threads: readonly { readonly busyWith: string | undefined; terminate(): Promise<number> }[];
}

interface PendingRun {
  readonly resolve: (result: TaskRunResult) => void;
  readonly reject: (error: Error) => void;
  /** Settles (never rejects) when the run does. */
  readonly settled: Promise<void>;
}

/** One thread and what it is doing. */
class PoolWorker {
  private static count = 0;
  /** Unique per thread (a replacement gets a new one): whose certificates are whose. */
  readonly serial = PoolWorker.count++;
  readonly thread: Worker;
  /** Per mode, how much of the pool's certificate log this thread has seen. */
  readonly cursors = new Map<string, number>();
  current: { readonly id: number; readonly taskId: string; readonly pending: PendingRun } | undefined;
  exited = false;

  constructor(readonly index: number, thread: Worker) {
    this.thread = thread;
  }
}

/**
 * Runs every request on one of `size` worker threads (one run per thread at a time,
 * queued in arrival order when all are busy). Each thread wires its own executor with
 * `createBenchExecutor` from the same options, so a run is exactly the in-process run;
 * the certificate memory stays one per mode, held here: a thread's certificates are
 * persisted here in the order they come, and every run starts with all certificates
 * persisted before it began (like an in-process run, minus those of runs still in
 * flight). A thread that dies fails its run (an infrastructure error of that run) and
 * is replaced. Throws `BenchError` when a thread cannot wire its executor.
 */
export async function createWorkerPoolExecutor(options: BenchExecutorOptions, size: number): Promise<WorkerPoolHandle> {
  const pool = new WorkerPool(options);
  // The threads load their modules and wire their executors while this thread wires its
  // own: on two cores that overlaps about a second of start-up.
  const starting = Array.from({ length: size }, (_, index) => pool.start(index));
  const [wired, ...started] = await Promise.allSettled([pool.wiring, ...starting]);
  for (const outcome of started) if (outcome.status === 'fulfilled') pool.workers.push(outcome.value);
  const failure = [wired, ...started].find((outcome) => outcome.status === 'rejected');
  if (failure !== undefined || wired?.status !== 'fulfilled') {
    pool.closing = true;
    await Promise.all(pool.workers.map((worker) => worker.thread.terminate()));
    if (wired?.status === 'fulfilled') await wired.value.close();
    throw failure?.reason;
  }
  const composition = wired.value;
  return {
    ...composition,
    notice: `${composition.notice}\nruns on ${size} worker threads, as asked (the main thread alone was faster on 2 cores: docs/grid.md)`,
    get threads() {
      return pool.workers.map((worker) => ({ busyWith: worker.current?.taskId, terminate: () => worker.thread.terminate() }));
    },
    executor: (request) => pool.enqueue(request),
    close: async () => {
      await pool.close();
      // Closes the memories (the composition opened them through memoryOf).
      await composition.close();
    },
  };
}

/** A certificate of the pool's log, with the thread that wrote it (-1: on disk before). */
interface LoggedCertificate {
  readonly record: MemoryRecord;
  readonly from: number;
}

/** The pool's threads, its queue of runs, and the certificate memories it holds for them. */
class WorkerPool {
  private readonly entry = workerScript(siblingModule(import.meta.url, 'bench-worker'));
  private readonly shared: BenchWorkerData['options'];
  private readonly memories = new Map<string, Promise<CertificateMemory>>();
  /** Per mode: every certificate in the memory, in the order it was persisted. */
  private readonly logs = new Map<string, LoggedCertificate[]>();
  private readonly persisting = new Set<Promise<void>>();
  private readonly queue: { request: TaskExecutionRequest<Task>; pending: PendingRun }[] = [];
  private nextId = 0;
  readonly workers: PoolWorker[] = [];
  closing = false;
  /**
   * The main thread wires the bench too (policy, notice, checks, prices, the memory that
   * --resume trims), on the pool's memories; only the runs go to the threads, which start
   * meanwhile.
   */
  readonly wiring: Promise<BenchComposition>;

  constructor(private readonly options: BenchExecutorOptions) {
    const { signal: _signal, concurrency: _concurrency, workers: _workers, ...shared } = options;
    this.shared = shared;
    this.wiring = createBenchExecutor(options, { memoryFor: (mode, redactor) => this.memoryOf(mode, redactor) });
  }

  private memoryOf(mode: string, redactor: Redactor | undefined): Promise<CertificateMemory> {
    let memory = this.memories.get(mode);
    if (!memory) {
      memory = CertificateMemory.open(path.join(this.options.outDir, 'memory', `${mode}.jsonl`), redactor === undefined ? {} : { redactor });
      this.memories.set(mode, memory);
    }
    return memory;
  }

  private async logOf(mode: string): Promise<LoggedCertificate[]> {
    let log = this.logs.get(mode);
    if (!log) {
      const memory = await this.memoryOf(mode, (await this.wiring).redactor);
      log = this.logs.get(mode) ?? memory.all().map((record) => ({ record, from: -1 }));
      this.logs.set(mode, log);
    }
    return log;
  }

  /** Starts thread `index`; resolves once it has wired its executor. */
  start(index: number): Promise<PoolWorker> {
    return new Promise((resolve, reject) => {
      const data: BenchWorkerData = { index, options: this.shared };
      const thread = new Worker(this.entry.script, { eval: this.entry.eval, workerData: data });
      const worker = new PoolWorker(index, thread);
      let ready = false;
      thread.on('message', (message: WorkerToMain) => {
        if (message.type === 'ready') {
          ready = true;
          resolve(worker);
        } else if (message.type === 'init-failed') {
          reject(new BenchError({ code: 'bench-worker', message: `bench worker ${index} could not wire its executor: ${message.error.message}`, cause: toError(message.error) }));
        } else {
          this.onMessage(worker, message);
        }
      });
      thread.on('error', (error) => debugLog('bench', `bench worker ${index} failed`, { message: error.message }));
      thread.on('exit', (code) => {
        worker.exited = true;
        if (!ready) reject(new BenchError({ code: 'bench-worker', message: `bench worker ${index} exited with code ${code} before it was ready` }));
        this.onExit(worker, code);
      });
    });
  }

  /** A thread's certificate, a run's end, or its goodbye. */
  private onMessage(worker: PoolWorker, message: Exclude<WorkerToMain, { type: 'ready' | 'init-failed' }>): void {
    switch (message.type) {
      case 'certificate': {
        const persisted = this.logOf(message.mode).then(async (log) => {
          log.push({ record: message.record, from: worker.serial });
          await (await this.memoryOf(message.mode, (await this.wiring).redactor)).append(message.record);
        });
        this.persisting.add(persisted);
        void persisted.catch((error: unknown) => debugLog('bench', 'persisting a worker certificate failed', { message: error instanceof Error ? error.message : String(error) })).finally(() => this.persisting.delete(persisted));
        break;
      }
      case 'result':
      case 'failed': {
        const current = worker.current;
        if (current === undefined || current.id !== message.id) break;
        worker.current = undefined;
        // The run's certificates came before its result: persist them before it counts as done.
        void Promise.allSettled([...this.persisting]).then(() => {
          if (message.type === 'result') current.pending.resolve(message.result);
          else current.pending.reject(toError(message.error));
          this.dispatch();
        });
        break;
      }
      case 'closed':
        void worker.thread.terminate();
        break;
    }
  }

  /** A thread that exits fails its run; unless the pool is closing, a replacement takes its slot. */
  private onExit(worker: PoolWorker, code: number): void {
    const current = worker.current;
    worker.current = undefined;
    current?.pending.reject(new Error(`bench worker thread ${worker.index} exited (code ${code}) during the run`));
    if (this.closing) return;
    const position = this.workers.indexOf(worker);
    if (position < 0) return;
    // A replacement takes the slot; its runs start once it is ready.
    void this.start(worker.index).then((replacement) => {
      this.workers[position] = replacement;
      this.dispatch();
    }, (error: unknown) => debugLog('bench', `bench worker ${worker.index} could not be restarted`, { message: error instanceof Error ? error.message : String(error) }));
  }

  /** Queues a run; it starts when a thread is free, and never starts when the bench is cancelled first. */
  enqueue(request: TaskExecutionRequest<Task>): Promise<TaskRunResult> {
    let settle = (): void => undefined;
    const settled = new Promise<void>((resolve) => {
      settle = resolve;
    });
    return new Promise<TaskRunResult>((resolve, reject) => {
      const entry = {
        request,
        pending: {
          resolve: (result: TaskRunResult) => { settle(); resolve(result); },
          reject: (error: Error) => { settle(); reject(error); },
          settled,
        },
      };
      this.queue.push(entry);
      // A run still waiting for a thread when the bench is cancelled never starts.
      const cancel = (): void => {
        const position = this.queue.indexOf(entry);
        if (position < 0) return;
        this.queue.splice(position, 1);
        entry.pending.reject(new Error(`run of ${request.task.id} cancelled before it started`));
      };
      request.signal.addEventListener('abort', cancel, { once: true });
      void settled.finally(() => request.signal.removeEventListener('abort', cancel));
      this.dispatch();
    });
  }

  private dispatch(): void {
    for (const worker of this.workers) {
      if (worker.exited || worker.current !== undefined) continue;
      const next = this.queue.shift();
      if (next === undefined) return;
      void this.send(worker, next.request, next.pending);
    }
  }

  /** Sends a run to a thread with the certificates persisted since its last run (but its own). */
  private async send(worker: PoolWorker, request: TaskExecutionRequest<Task>, pending: PendingRun): Promise<void> {
    const id = this.nextId++;
    worker.current = { id, taskId: request.task.id, pending };
    const log = await this.logOf(request.mode);
    const seen = worker.cursors.get(request.mode) ?? 0;
    worker.cursors.set(request.mode, log.length);
    const certificates = log.slice(seen).filter((entry) => entry.from !== worker.serial).map((entry) => entry.record);
    const message: MainToWorker = { type: 'run', id, request: { task: request.task, mode: request.mode, repeat: request.repeat, outDir: request.outDir, traceDir: request.traceDir }, certificates };
    const abort = (): void => worker.thread.postMessage({ type: 'abort', id } satisfies MainToWorker);
    if (request.signal.aborted) abort();
    else {
      // Every run of a bench shares its signal: the listener goes when the run does.
      request.signal.addEventListener('abort', abort, { once: true });
      void pending.settled.finally(() => request.signal.removeEventListener('abort', abort));
    }
    worker.thread.postMessage(message);
  }

  /** Asks every thread to close (stopping one stuck in a run after a grace period) and waits for the certificates in flight. */
  async close(): Promise<void> {
    this.closing = true;
    await Promise.all(this.workers.map((worker) => new Promise<void>((resolve) => {
      if (worker.exited) return resolve();
      worker.thread.once('exit', () => resolve());
      worker.thread.postMessage({ type: 'close' } satisfies MainToWorker);
      // A thread stuck in a run that ignores its abort is stopped after a grace period.
      setTimeout(() => void worker.thread.terminate(), 10_000).unref();
    })));
    await Promise.allSettled([...this.persisting]);
  }
}

function toError(error: WorkerError): Error {
  const rebuilt = new Error(error.message);
  rebuilt.name = error.name;
  if (error.stack !== undefined) rebuilt.stack = error.stack;
  return rebuilt;
}
