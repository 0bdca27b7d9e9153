// Entry point Appium imports: the driver itself is TypeScript in src/sim/appium-driver,
// compiled to dist/ by `npm run build` (npm ci runs it through `prepare`).
export { SimAppiumDriver } from '../dist/sim/appium-driver/sim-appium-driver.js';
