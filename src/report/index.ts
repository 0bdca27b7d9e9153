export * from './describe-changes.js';
export * from './escape-html.js';
export * from './expectation-outcomes.js';
export * from './format-trace-step.js';
export * from './read-run-artifacts.js';
export * from './render-event.js';
export * from './render-run-page.js';
export * from './render-summary-page.js';
export * from './report-input.js';
export * from './report-style.js';
export * from './run-page-model.js';
export * from './safe-html.js';
// nodeText stays inside the report (perception exports its own).
export { drawScreen, renderPanel, xmlText, type PanelMarks, type ScreenDrawing } from './screen-drawing.js';
export * from './screen-sprites.js';
export * from './step-markers.js';
export * from './write-report.js';
