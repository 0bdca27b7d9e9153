// The device's activity stack in the live loop: every observation of the simulator carries
// the foreground task's stack (a phone gives it through Appium's shell, `dumpsys activity
// activities`), the session parses the screen with it, and the verifier reads an editor's
// Save from it as it does on DroidBot recordings ("editor-finished": the stack after is
// the one before less the editor's activity). The trace keeps the stack and the kind of
// evidence of each verdict, so a reader sees why the step passed.
import { describe, expect, it } from 'vitest';
import { runTask } from '../../../src/agent/run-task.js';
import { simulatorForTask } from '../../../src/bench/simulator-for-task.js';
import { SimDevice } from '../../../src/device/sim-device.js';
import { readTrace } from '../../../src/trace/read-trace.js';
import { simSuiteTask, temporaryRunRoot } from '../../helpers/sim-suite.js';

const root = temporaryRunRoot('senseact-activity-stack-');
const contacts = 'com.google.android.contacts';

describe('the activity stack in the loop', () => {
  it('is observed with every screen, and ties an editor\'s Save that finished its activity', async () => {
    const task = simSuiteTask('contacts-label-work');
    const device = new SimDevice(simulatorForTask(task, { seed: 3 }));
    const result = await runTask({ task, mode: 'senseact', policy: 'oracle', device, probe: device, traceRoot: root.dir(), suite: 'activity-stack' });
    expect(result.success).toBe(true);
    const events = readTrace(result.traceDir).events;
    const stacks = events.flatMap((event) => (event.type === 'observe-end' ? [event.activityStack] : []));
    expect(stacks.length).toBeGreaterThan(2);
    expect(stacks.every((stack) => stack !== undefined && stack.length > 0)).toBe(true);
    // The editor on top of the contact's page, then back to it.
    expect(stacks.some((stack) => stack !== undefined && stack.length >= 2 && stack.every((component) => component.startsWith(`${contacts}/`)))).toBe(true);
    const saved = events.filter((event) => event.type === 'verify-end' && event.tie === 'editor-finished');
    expect(saved.length).toBeGreaterThan(0);
    expect(saved[0]).toMatchObject({ outcome: 'pass', strength: 'strong', reason: expect.stringContaining("the device's activity stack") });
  });
});
