// Verified skills on the in-process simulator (docs/skills.md): a skill induced from one oracle
// run replays a variant of its task without any model call, every step verified; on a
// changed screen it hands over to the planner instead of acting or passing.
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTask } from '../../../src/agent/run-task.js';
import { simulatorForTask } from '../../../src/bench/simulator-for-task.js';
import { SimDevice } from '../../../src/device/sim-device.js';
import { ScriptedLanguageModel } from '../../../src/model/scripted-language-model.js';
import type { FaultConfig } from '../../../src/sim/index.js';
import { induceSkills } from '../../../src/skills/induce-skills.js';
import { liftRun } from '../../../src/skills/lift-run.js';
import { readVerifiedRun, type VerifiedRun } from '../../../src/skills/read-verified-run.js';
import { loadSkills, saveSkill } from '../../../src/skills/skill-library.js';
import type { Skill, SkillStep } from '../../../src/skills/skill-schema.js';
import { taskSchema, type Task } from '../../../src/tasks/task-schema.js';
import { readTrace } from '../../../src/trace/read-trace.js';
import { simSuiteTask as suiteTask } from '../../helpers/sim-suite.js';

const clock = 'com.google.android.deskclock';
const DROP_ADD = 3;
const DROP_FILL = 25;
let root: string;

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'senseact-skills-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** A variant of a suite task: another instruction and success check, same start (no reference solution: only the skill or a scripted planner plays it). */
function variant(id: string, changes: Partial<Task>): Task {
  const { solution: _solution, ...base } = suiteTask(id);
  return taskSchema.parse({ ...base, ...changes });
}

async function run(task: Task, options: { skills?: readonly Skill[]; faults?: FaultConfig; planner?: ScriptedLanguageModel; runId: string }) {
  const simulator = simulatorForTask(task, { seed: 3, ...(options.faults ? { faults: options.faults } : {}) });
  const device = new SimDevice(simulator);
  try {
    const result = await runTask({
      task,
      mode: 'senseact',
      policy: options.planner ? 'llm' : 'oracle',
      device,
      probe: device,
      traceRoot: root,
      suite: 'skills',
      runId: options.runId,
      ...(options.planner ? { models: { planner: options.planner } } : {}),
      ...(options.skills ? { skills: options.skills } : {}),
    });
    return { result, simulator };
  } finally {
    await device.close();
  }
}

/** A planner that gives up at once: whatever happens after a hand-over is the skill's doing, not the planner's. */
function finishingPlanner(): ScriptedLanguageModel {
  return new ScriptedLanguageModel({ replies: () => JSON.stringify({ intent: 'Give up', finish: true }) });
}

describe('a skill induced from one verified oracle run', () => {
  let skill: Skill;
  let recorded: VerifiedRun;

  beforeAll(async () => {
    const { result } = await run(suiteTask('clock-alarm-3pm-meeting'), { runId: 'teacher' });
    expect(result.success).toBe(true);
    const read = readVerifiedRun(result.traceDir);
    if ('reason' in read) throw new Error(read.reason);
    recorded = read;
    const induced = induceSkills([liftRun(read)]);
    expect(induced.skills).toHaveLength(1);
    // Stored as YAML and read back: what a user edits is what runs.
    saveSkill(path.join(root, 'skills'), induced.skills[0] as Skill);
    [skill] = loadSkills(path.join(root, 'skills')) as [Skill];
  });

  it('lifts the time and the quoted label into typed parameters', () => {
    expect(skill.template).toBe('Set an alarm for {time} with the label "{text}" using Clock.');
    expect(skill.parameters).toEqual({ time: { type: 'time', example: '3PM' }, text: { type: 'text', example: 'meeting' } });
    const targets = JSON.stringify(skill.steps);
    expect(targets).toContain("{time.hour} o'clock");
    expect(targets).not.toContain('"n'); // no node ids
    expect(recorded.steps.length).toBeGreaterThanOrEqual(4);
  });

  it('negative control: a run in which vision passed a unit teaches nothing (a replay asks no vision, so it could not verify that step)', async () => {
    const copy = path.join(root, 'teacher-vision');
    await cp(recorded.dir, copy, { recursive: true });
    const tracePath = path.join(copy, 'trace.jsonl');
    const lines = (await readFile(tracePath, 'utf8')).split('\n');
    const unitVerdict = lines.findIndex((line) => line.includes('"type":"verify-end"') && line.includes('"outcome":"pass"') && line.includes('Add alarm'));
    expect(unitVerdict).toBeGreaterThan(-1);
    lines[unitVerdict] = (lines[unitVerdict] as string).replace('"by":"contract"', '"by":"vlm"');
    await writeFile(tracePath, lines.join('\n'));
    const read = readVerifiedRun(copy);
    expect('reason' in read && read.reason).toMatch(/only vision passed/);
  });

  it('replays a variant of the task (other time, other label) with zero model calls, every step verified', async () => {
    const task = variant('clock-alarm-3pm-meeting', {
      id: 'clock-alarm-5pm-gym',
      instruction: 'Set an alarm for 5PM with the label "gym" using Clock.',
      success: { state: [{ app: clock, path: 'alarms', op: 'some', where: [{ path: 'hour', op: 'equals', value: 17 }, { path: 'minute', op: 'equals', value: 0 }, { path: 'label', op: 'equals', value: 'gym' }] }] },
    });
    const planner = finishingPlanner();
    const { result } = await run(task, { skills: [skill], planner, runId: 'variant' });
    expect(result.skill).toMatchObject({ outcome: 'completed', skill: skill.name });
    expect(result.llmCalls + result.vlmCalls).toBe(0);
    expect(planner.calls).toHaveLength(0);
    expect(result.success).toBe(true);
    const events = readTrace(result.traceDir).events;
    const steps = events.filter((event) => event.type === 'skill-step-end');
    expect(steps.length).toBe(result.skill?.steps);
    expect(steps.every((event) => event.outcome === 'pass')).toBe(true);
    // Each unit went through the loop's verification (a contract verdict per acted unit).
    expect(events.filter((event) => event.type === 'verify-end' && event.by === 'contract').length).toBeGreaterThan(steps.length);
  });

  it('negative control: every tap dropped: the icon step fails its expectation, is tried once more, and hands over; it never passes', async () => {
    const task = variant('clock-alarm-3pm-meeting', {
      id: 'clock-alarm-5pm-gym-dropped',
      instruction: 'Set an alarm for 5PM with the label "gym" using Clock.',
      success: { state: [{ app: clock, path: 'alarms', op: 'some', where: [{ path: 'label', op: 'equals', value: 'gym' }] }] },
    });
    // Every tap from the simulator's first on is dropped: nothing the skill does takes effect.
    const planner = finishingPlanner();
    const { result } = await run(task, { skills: [skill], planner, faults: { 'dropped-tap': { rate: 1 } }, runId: 'dropped' });
    expect(result.skill?.outcome).toBe('handed-over');
    expect(result.skill?.steps).toBe(0);
    expect(result.skill?.reason).toMatch(/nothing|changed/);
    expect(planner.calls).toHaveLength(1);
    expect(result.success).toBe(false);
    const events = readTrace(result.traceDir).events;
    const failed = events.filter((event) => event.type === 'skill-step-end');
    // "Add alarm" is an icon, but its step expects the time picker, which the recorded run saw
    // on the tree: a tree where nothing changed is a lost tap, tried once more, not a pixel effect.
    expect(failed).toHaveLength(2);
    expect(failed.every((event) => event.reason.includes('nothing'))).toBe(true);
    expect(failed.every((event) => event.outcome === 'fail')).toBe(true);
    // The planner saw the skill's progress in its history.
    const prompt = planner.calls[0]?.request.messages.map((message) => message.content).join('\n') ?? '';
    expect(prompt).toContain(`skill ${skill.name}`);
  });
  it('a lost tap on the icon that opens the time picker is tried once more (its step expects the picker) and the replay goes on', async () => {
    const task = variant('clock-alarm-3pm-meeting', {
      id: 'clock-alarm-5pm-gym-lost-icon-tap',
      instruction: 'Set an alarm for 5PM with the label "gym" using Clock.',
      success: { state: [{ app: clock, path: 'alarms', op: 'some', where: [{ path: 'hour', op: 'equals', value: 17 }, { path: 'label', op: 'equals', value: 'gym' }] }] },
    });
    const planner = finishingPlanner();
    const { result, simulator } = await run(task, { skills: [skill], planner, faults: { 'dropped-tap': { atSteps: [DROP_ADD] } }, runId: 'lost-icon-tap' });
    expect(simulator.faultLog().map((event) => event.kind)).toEqual(['dropped-tap']);
    expect(result.skill).toMatchObject({ outcome: 'completed' });
    expect(planner.calls).toHaveLength(0);
    expect(result.success).toBe(true);
    const steps = readTrace(result.traceDir).events.filter((event) => event.type === 'skill-step-end');
    expect(steps[0]).toMatchObject({ outcome: 'fail' });
    expect(steps[1]).toMatchObject({ outcome: 'pass', intent: steps[0]?.intent });
  });

  it('a fill whose focusing tap was lost (the device refused to type: no field focused) is played again; typing sets the field, so nothing is doubled', async () => {
    const task = variant('clock-alarm-3pm-meeting', {
      id: 'clock-alarm-5pm-gym-lost-fill-tap',
      instruction: 'Set an alarm for 5PM with the label "gym" using Clock.',
      success: { state: [{ app: clock, path: 'alarms', op: 'some', where: [{ path: 'hour', op: 'equals', value: 17 }, { path: 'label', op: 'equals', value: 'gym' }] }] },
    });
    const planner = finishingPlanner();
    const { result, simulator } = await run(task, { skills: [skill], planner, faults: { 'dropped-tap': { atSteps: [DROP_FILL] } }, runId: 'lost-fill-tap' });
    expect(simulator.faultLog().map((event) => event.kind)).toEqual(['dropped-tap']);
    expect(result.skill).toMatchObject({ outcome: 'completed' });
    expect(planner.calls).toHaveLength(0);
    expect(result.success).toBe(true);
    const failed = readTrace(result.traceDir).events.filter((event) => event.type === 'skill-step-end' && event.outcome === 'fail');
    expect(failed).toHaveLength(1);
    expect(failed[0]?.reason).toMatch(/refused|holds/);
  });

  it('a "rate this app" dialog that a tap raised over the flow is dismissed as a round of its own, and the step is played on the clean screen', async () => {
    const task = variant('clock-alarm-3pm-meeting', {
      id: 'clock-alarm-5pm-gym-interstitial',
      instruction: 'Set an alarm for 5PM with the label "gym" using Clock.',
      success: { state: [{ app: clock, path: 'alarms', op: 'some', where: [{ path: 'hour', op: 'equals', value: 17 }, { path: 'minute', op: 'equals', value: 0 }, { path: 'label', op: 'equals', value: 'gym' }] }] },
    });
    // The dialog rises after a tap inside the time picker: the next tap would fall on it.
    const planner = finishingPlanner();
    const { result, simulator } = await run(task, { skills: [skill], planner, faults: { interstitial: { atSteps: [3] } }, runId: 'interstitial' });
    expect(simulator.faultLog().map((event) => event.kind)).toContain('interstitial');
    expect(result.skill).toMatchObject({ outcome: 'completed', skill: skill.name });
    expect(planner.calls).toHaveLength(0);
    expect(result.success).toBe(true);
    const events = readTrace(result.traceDir).events;
    expect(events.filter((event) => event.type === 'skill-step-end').every((event) => event.outcome === 'pass')).toBe(true);
    const dismissals = events.filter((event) => event.type === 'verify-end' && /dismissedSurface holds/.test(event.reason ?? '')).length;
    expect(dismissals).toBeGreaterThanOrEqual(1);
  });

  it('negative control: a dialog after every tap is dismissed at most twice per step, then the skill hands over; it never completes', async () => {
    const task = variant('clock-alarm-3pm-meeting', {
      id: 'clock-alarm-5pm-gym-interstitials',
      instruction: 'Set an alarm for 5PM with the label "gym" using Clock.',
      success: { state: [{ app: clock, path: 'alarms', op: 'some', where: [{ path: 'label', op: 'equals', value: 'gym' }] }] },
    });
    const planner = finishingPlanner();
    const { result } = await run(task, { skills: [skill], planner, faults: { interstitial: { rate: 1 } }, runId: 'interstitials' });
    expect(result.skill?.outcome).toBe('handed-over');
    expect(planner.calls).toHaveLength(1);
    expect(result.success).toBe(false);
    const events = readTrace(result.traceDir).events;
    const passed = events.filter((event) => event.type === 'skill-step-end' && event.outcome === 'pass').length;
    expect(passed).toBe(result.skill?.steps);
    expect(passed).toBeLessThan(skill.steps.length);
  });

});

describe('matching and grounding on a changed screen', () => {
  let skill: Skill;

  beforeAll(async () => {
    const { result } = await run(suiteTask('clock-alarm-4pm-off'), { runId: 'teacher-4pm' });
    expect(result.success).toBe(true);
    const read = readVerifiedRun(result.traceDir);
    if ('reason' in read) throw new Error(read.reason);
    [skill] = induceSkills([liftRun(read)]).skills as [Skill];
  });

  it('turns off another alarm named by the instruction (positive case)', async () => {
    const task = variant('clock-alarm-4pm-off', {
      id: 'clock-alarm-9pm-off',
      instruction: 'Turn off the alarm at 9PM',
      success: { state: [{ app: clock, path: 'alarms', op: 'some', where: [{ path: 'hour', op: 'equals', value: 21 }, { path: 'enabled', op: 'equals', value: false }] }] },
    });
    const { result, simulator } = await run(task, { skills: [skill], planner: finishingPlanner(), runId: 'off-9pm' });
    expect(result.skill?.outcome).toBe('completed');
    expect(result.llmCalls).toBe(0);
    expect(result.success).toBe(true);
    const alarms = (simulator.appState(clock) as { alarms: { hour: number; enabled: boolean }[] }).alarms;
    expect(alarms.filter((alarm) => !alarm.enabled).map((alarm) => alarm.hour).sort()).toEqual([14, 21]);
  });

  it('hands over without acting when the alarm the instruction names is not on the screen (never the nearest one)', async () => {
    const task = variant('clock-alarm-4pm-off', {
      id: 'clock-alarm-5pm-off-missing',
      instruction: 'Turn off the alarm at 5PM',
      success: { state: [{ app: clock, path: 'alarms', op: 'some', where: [{ path: 'hour', op: 'equals', value: 17 }] }] },
    });
    const planner = finishingPlanner();
    const { result, simulator } = await run(task, { skills: [skill], planner, runId: 'off-5pm' });
    expect(result.skill?.outcome).toBe('handed-over');
    expect(result.skill?.reason).toContain('is not on the screen');
    expect(result.steps).toBe(0);
    const alarms = (simulator.appState(clock) as { alarms: { hour: number; enabled: boolean }[] }).alarms;
    expect(alarms.map((alarm) => alarm.enabled)).toEqual([true, false, true, true]);
    expect(planner.calls).toHaveLength(1);
  });

  it('tries a lost tap once more, then hands over with the alarm untouched', async () => {
    const task = variant('clock-alarm-4pm-off', { id: 'clock-alarm-4pm-off-dropped', instruction: 'Turn off the alarm at 4PM' });
    const planner = finishingPlanner();
    const { result, simulator } = await run(task, { skills: [skill], planner, faults: { 'dropped-tap': { rate: 1 } }, runId: 'off-dropped' });
    expect(result.skill?.outcome).toBe('handed-over');
    const steps = readTrace(result.traceDir).events.filter((event) => event.type === 'skill-step-end');
    expect(steps.map((event) => event.outcome)).toEqual(['fail', 'fail']);
    expect(result.success).toBe(false);
    const alarms = (simulator.appState(clock) as { alarms: { enabled: boolean }[] }).alarms;
    expect(alarms.map((alarm) => alarm.enabled)).toEqual([true, false, true, true]);
  });

  it('drift: every icon label gone (icon-only), the switch is found by its row\'s time label and the right alarm is turned off', async () => {
    expect(JSON.stringify(skill.steps)).toContain('near(text=\\"{time.hour}:{time.minute2} {time.ampm}\\")');
    const task = variant('clock-alarm-4pm-off', {
      id: 'clock-alarm-9pm-off-unlabelled',
      instruction: 'Turn off the alarm at 9PM',
      success: { state: [{ app: clock, path: 'alarms', op: 'some', where: [{ path: 'hour', op: 'equals', value: 21 }, { path: 'enabled', op: 'equals', value: false }] }] },
    });
    const { result, simulator } = await run(task, { skills: [skill], planner: finishingPlanner(), faults: { 'icon-only': { rate: 1 } }, runId: 'off-9pm-unlabelled' });
    expect(result.skill?.outcome).toBe('completed');
    expect(result.llmCalls + result.vlmCalls).toBe(0);
    const alarms = (simulator.appState(clock) as { alarms: { hour: number; enabled: boolean }[] }).alarms;
    expect(alarms.filter((alarm) => !alarm.enabled).map((alarm) => alarm.hour).sort()).toEqual([14, 21]);
  });

  it('drift, negative control: labels gone and no row shows the named time: hands over, nothing toggled (never the nearest switch)', async () => {
    const task = variant('clock-alarm-4pm-off', {
      id: 'clock-alarm-5pm-off-unlabelled',
      instruction: 'Turn off the alarm at 5PM',
      success: { state: [{ app: clock, path: 'alarms', op: 'some', where: [{ path: 'hour', op: 'equals', value: 17 }] }] },
    });
    const { result, simulator } = await run(task, { skills: [skill], planner: finishingPlanner(), faults: { 'icon-only': { rate: 1 } }, runId: 'off-5pm-unlabelled' });
    expect(result.skill?.outcome).toBe('handed-over');
    expect(result.steps).toBe(0);
    const alarms = (simulator.appState(clock) as { alarms: { enabled: boolean }[] }).alarms;
    expect(alarms.map((alarm) => alarm.enabled)).toEqual([true, false, true, true]);
  });

  it('drift at a branch point: a guard made from the step\'s own target holds when the target\'s label is gone and its fallback finds the one unlabelled switch of the named row', async () => {
    const [step] = skill.steps as [SkillStep];
    const target = step.actions[0]?.target as string;
    const branched: Skill = { ...skill, steps: [{ branches: [{ when: `exists(${target})`, steps: [step] }] }] };
    const task = variant('clock-alarm-4pm-off', {
      id: 'clock-alarm-9pm-off-branch-unlabelled',
      instruction: 'Turn off the alarm at 9PM',
      success: { state: [{ app: clock, path: 'alarms', op: 'some', where: [{ path: 'hour', op: 'equals', value: 21 }, { path: 'enabled', op: 'equals', value: false }] }] },
    });
    const { result, simulator } = await run(task, { skills: [branched], planner: finishingPlanner(), faults: { 'icon-only': { rate: 1 } }, runId: 'off-9pm-branch-unlabelled' });
    expect(result.skill?.outcome).toBe('completed');
    const alarms = (simulator.appState(clock) as { alarms: { hour: number; enabled: boolean }[] }).alarms;
    expect(alarms.filter((alarm) => !alarm.enabled).map((alarm) => alarm.hour).sort()).toEqual([14, 21]);
    // Negative control: no row shows the named time, so neither the guard nor its fallback holds.
    const missing = variant('clock-alarm-4pm-off', {
      id: 'clock-alarm-5pm-off-branch-unlabelled',
      instruction: 'Turn off the alarm at 5PM',
      success: { state: [{ app: clock, path: 'alarms', op: 'some', where: [{ path: 'hour', op: 'equals', value: 17 }] }] },
    });
    const other = await run(missing, { skills: [branched], planner: finishingPlanner(), faults: { 'icon-only': { rate: 1 } }, runId: 'off-5pm-branch-unlabelled' });
    expect(other.result.skill).toMatchObject({ outcome: 'handed-over', reason: expect.stringContaining('no alternative') });
    expect((other.simulator.appState(clock) as { alarms: { enabled: boolean }[] }).alarms.map((alarm) => alarm.enabled)).toEqual([true, false, true, true]);
  });

  it('does not match an instruction of another shape, and says so', async () => {
    const task = variant('clock-alarm-4pm-off', { id: 'clock-other', instruction: 'Turn on the alarm at 4PM', success: { state: [{ app: clock, path: 'alarms', op: 'count=', value: 4 }] } });
    const { result } = await run(task, { skills: [skill], planner: finishingPlanner(), runId: 'other' });
    expect(result.skill).toMatchObject({ outcome: 'no-match', steps: 0 });
    expect(result.llmCalls).toBe(1);
  });
});

describe('a step of fills only', () => {
  let skill: Skill;

  beforeAll(async () => {
    const { result } = await run(suiteTask('contacts-add-john-smith'), { runId: 'teacher-john-smith' });
    expect(result.success).toBe(true);
    const read = readVerifiedRun(result.traceDir);
    if ('reason' in read) throw new Error(read.reason);
    [skill] = induceSkills([liftRun(read)]).skills as [Skill];
  });

  it('is played again after a lost tap sent a value into the field focused before; each fill sets its field, so the stray value is overwritten', async () => {
    // The Phone field's focusing tap is dropped: its number is typed into Last name, still focused.
    const planner = finishingPlanner();
    const { result, simulator } = await run(suiteTask('contacts-add-john-smith'), { skills: [skill], planner, faults: { 'dropped-tap': { atSteps: [16] } }, runId: 'john-smith-lost-tap' });
    expect(simulator.faultLog().map((event) => event.kind)).toEqual(['dropped-tap']);
    const steps = readTrace(result.traceDir).events.filter((event) => event.type === 'skill-step-end');
    expect(steps.filter((event) => event.outcome === 'fail')).toHaveLength(1);
    expect(result.skill).toMatchObject({ outcome: 'completed' });
    expect(planner.calls).toHaveLength(0);
    expect(result.success).toBe(true);
    const contacts = (simulator.appState('com.google.android.contacts') as { contacts: { firstName: string; lastName: string }[] }).contacts;
    expect(contacts.filter((contact) => contact.firstName === 'John').map((contact) => contact.lastName)).toEqual(['Smith']);
  });
});

describe('a lost tap after units of the same step that verified', () => {
  /** The simulator step at which the replay below taps "00" (after the digit of the same step). */
  const DROP_DOUBLE_ZERO = 9;
  let skill: Skill;

  beforeAll(async () => {
    const { result } = await run(suiteTask('clock-timer-3min-start'), { runId: 'timer-teacher' });
    const read = readVerifiedRun(result.traceDir);
    if ('reason' in read) throw new Error(read.reason);
    [skill] = induceSkills([liftRun(read)]).skills as [Skill];
    expect(JSON.stringify(skill.steps)).toContain('{number}');
  });

  const timers = (simulator: ReturnType<typeof simulatorForTask>): unknown => (simulator.appState(clock) as { timer: { timers: unknown } }).timer.timers;

  it('plays only the lost unit again: the digit that verified is not entered twice (8:00, not 88:00)', async () => {
    const planner = finishingPlanner();
    const { result, simulator } = await run(suiteTask('clock-timer-8min-start'), { skills: [skill], planner, faults: { 'dropped-tap': { atSteps: [DROP_DOUBLE_ZERO] } }, runId: 'timer-lost-00' });
    expect(simulator.faultLog()).toMatchObject([{ kind: 'dropped-tap', step: DROP_DOUBLE_ZERO }]);
    expect(result.skill).toMatchObject({ outcome: 'completed' });
    expect(planner.calls).toHaveLength(0);
    expect(timers(simulator)).toMatchObject([{ durationSeconds: 480, running: true }]);
    expect(result.success).toBe(true);
    const taps = readTrace(result.traceDir).events.filter((event) => event.type === 'act-end').map((event) => (event.type === 'act-end' ? event.unitId : ''));
    // Timer tab, 8, 00 (lost), 00 again, Start: the digit once.
    expect(taps).toHaveLength(5);
  });

  it('negative control: without the fault the same replay taps each unit once', async () => {
    const { result, simulator } = await run(suiteTask('clock-timer-8min-start'), { skills: [skill], planner: finishingPlanner(), runId: 'timer-clean' });
    expect(result.skill).toMatchObject({ outcome: 'completed' });
    expect(timers(simulator)).toMatchObject([{ durationSeconds: 480, running: true }]);
    expect(readTrace(result.traceDir).events.filter((event) => event.type === 'act-end')).toHaveLength(4);
  });
});
