export * from './bounds.js';
export * from './decode-dump-bytes.js';
export * from './droidbot-state.js';
export * from './hierarchy-parse-error.js';
export * from './parse-hierarchy.js';
export * from './scan-xml-elements.js';
export * from './ui-tree.js';
