/**
 * The `appium:automationName` of the simulator's Appium driver. Its own module so that
 * deciding whether a profile targets the simulator does not load WebdriverIO (about a
 * second per bench worker thread).
 */
export const simDriverAutomationName = 'SenseActSim';
