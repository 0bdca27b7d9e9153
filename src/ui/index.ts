export * from './bounds.js';
export * from './hierarchy-parse-error.js';
export * from './parse-hierarchy.js';
export * from './scan-xml-elements.js';
export * from './ui-tree.js';
