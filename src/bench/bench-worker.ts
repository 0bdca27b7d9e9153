import { parentPort, workerData } from 'node:worker_threads';
import type { Task } from '../tasks/task-schema.js';
import { CertificateMemory } from '../memory/certificate-memory.js';
import type { Redactor } from '../util/redactor.js';
import { createBenchExecutor } from './compose.js';
import type { BenchWorkerData, MainToWorker, WorkerToMain } from './worker-messages.js';

// One thread of a worker pool (worker-pool-executor.ts): it wires its own executor (device,
// models, agent) from the bench options and runs one task at a time. Certificates go to the
// main thread, which holds the one real memory; other runs' certificates come back with the
// next run request.
if (parentPort === null) throw new Error('bench-worker.ts runs as a worker thread of createWorkerPoolExecutor, not on its own.');
const port = parentPort;
const data = workerData as BenchWorkerData;
const post = (message: WorkerToMain): void => port.postMessage(message);
const replicas = new Map<string, CertificateMemory>();
const replicaOf = (mode: string, redactor?: Redactor): CertificateMemory => {
  let replica = replicas.get(mode);
  if (!replica) {
    replica = CertificateMemory.replica(`${mode} (worker ${data.index})`, (record) => post({ type: 'certificate', mode, record }), redactor === undefined ? {} : { redactor });
    replicas.set(mode, replica);
  }
  return replica;
};
const lifetime = new AbortController();
const runs = new Map<number, AbortController>();

try {
  const handle = await createBenchExecutor({ ...data.options, signal: lifetime.signal }, { memoryFor: async (mode, redactor) => replicaOf(mode, redactor) });
  post({ type: 'ready' });
  port.on('message', (message: MainToWorker) => {
    switch (message.type) {
      case 'run': {
        replicaOf(message.request.mode).adopt(message.certificates);
        const controller = new AbortController();
        runs.set(message.id, controller);
        const { task, mode, repeat, outDir, traceDir } = message.request;
        handle
          .executor({ task: task as Task, mode, repeat, outDir, traceDir, signal: controller.signal })
          .then(
            (result) => post({ type: 'result', id: message.id, result }),
            (error: unknown) => post({ type: 'failed', id: message.id, error: describe(error) }),
          )
          .finally(() => runs.delete(message.id));
        break;
      }
      case 'abort':
        runs.get(message.id)?.abort();
        break;
      case 'close':
        lifetime.abort();
        void handle.close().finally(() => {
          post({ type: 'closed' });
          port.close();
        });
        break;
    }
  });
} catch (error) {
  post({ type: 'init-failed', error: describe(error) });
  port.close();
}

function describe(error: unknown): { name: string; message: string; stack?: string } {
  if (error instanceof Error) return { name: error.name, message: error.message, ...(error.stack === undefined ? {} : { stack: error.stack }) };
  return { name: 'Error', message: String(error) };
}
