export * from './command-stats.js';
export * from './element-registry.js';
export * from './pointer-gesture.js';
export * from './sim-appium-driver.js';
export * from './source-document.js';
