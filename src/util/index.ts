export * from './assert-never.js';
export * from './brand.js';
export * from './debug-log.js';
export * from './result.js';
export * from './senseact-error.js';
export * from './stable-hash.js';
