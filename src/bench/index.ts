export * from './bench-error.js';
export * from './bench-lock.js';
export * from './bench-progress-reporter.js';
export * from './bench-results.js';
export * from './compute-mode-metrics.js';
export * from './compute-repeat-spread.js';
export * from './fake-task-executor.js';
export * from './format-replay-report.js';
export * from './format-results-table.js';
export * from './results-journal.js';
export * from './run-benchmark.js';
export * from './task-executor.js';
export * from './verify-replay.js';
export * from './write-bench-report.js';
export * from './write-file-atomic.js';
// `senseact/bench` is this folder's barrel: with the report's and the trace's building blocks.
export * from '../report/index.js';
export * from '../trace/index.js';
