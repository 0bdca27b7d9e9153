export * from './certificate-memory.js';
export * from './certificate-memory-error.js';
