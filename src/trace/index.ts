export * from './invalid-trace-event-error.js';
export * from './make-run-id.js';
export * from './read-trace.js';
export * from './trace-event.js';
export * from './trace-writer.js';
