export * from './certificate-memory.js';
export * from './certificate-memory-error.js';
export * from './app-hints.js';
export * from './app-memory.js';
export * from './app-memory-error.js';
