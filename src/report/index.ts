export * from './escape-html.js';
export * from './read-run-artifacts.js';
export * from './render-report-html.js';
export * from './render-wireframe-svg.js';
export * from './report-input.js';
export * from './report-style.js';
export * from './safe-html.js';
export * from './write-report.js';
