// The planner calls a skill by name mid-run (docs/skills.md): with a skills folder, the planner's
// prompt lists the skills of the app in the foreground; a reply {skill, arguments} runs
// the skill through the same verified replay as a skill matched at the start; a bad call
// (unknown name, missing argument) is refused with the reason and nothing runs.
import { beforeAll, describe, expect, it } from 'vitest';
import { runTask } from '../../../src/agent/run-task.js';
import { skillMenuHead } from '../../../src/agent/planning/skill-menu.js';
import { simulatorForTask } from '../../../src/bench/simulator-for-task.js';
import { SimDevice } from '../../../src/device/sim-device.js';
import type { LanguageModelRequest } from '../../../src/model/language-model.js';
import { ScriptedLanguageModel } from '../../../src/model/scripted-language-model.js';
import type { FaultConfig } from '../../../src/sim/index.js';
import { induceSkills } from '../../../src/skills/induce-skills.js';
import { liftRun } from '../../../src/skills/lift-run.js';
import { readVerifiedRun } from '../../../src/skills/read-verified-run.js';
import type { Skill } from '../../../src/skills/skill-schema.js';
import { taskSchema, type Task } from '../../../src/tasks/task-schema.js';
import { readTrace } from '../../../src/trace/read-trace.js';
import { simSuiteTask, temporaryRunRoot } from '../../helpers/sim-suite.js';

const root = temporaryRunRoot('senseact-skill-call-');
const clock = 'com.google.android.deskclock';

async function run(task: Task, options: { skills?: readonly Skill[]; planner?: ScriptedLanguageModel; faults?: FaultConfig; runId: string }) {
  const simulator = simulatorForTask(task, { seed: 3, ...(options.faults ? { faults: options.faults } : {}) });
  const device = new SimDevice(simulator);
  try {
    const result = await runTask({
      task, mode: 'senseact', policy: options.planner ? 'llm' : 'oracle', device, probe: device, traceRoot: root.dir(), suite: 'call', runId: options.runId,
      ...(options.planner ? { models: { planner: options.planner } } : {}),
      ...(options.skills ? { skills: options.skills } : {}),
    });
    return { result, simulator };
  } finally {
    await device.close();
  }
}

function userText(request: LanguageModelRequest | undefined): string {
  return request?.messages.filter((message) => message.role === 'user').map((message) => message.content).join('\n') ?? '';
}

const gymAlarm = { state: [{ app: clock, path: 'alarms', op: 'some', where: [{ path: 'hour', op: 'equals', value: 17 }, { path: 'minute', op: 'equals', value: 0 }, { path: 'label', op: 'equals', value: 'gym' }] }] };

/** An instruction no template fits (so no skill plays at the start), same app and start. */
function freeWorded(): Task {
  const { solution: _solution, ...base } = simSuiteTask('clock-alarm-3pm-meeting');
  return taskSchema.parse({ ...base, id: 'clock-gym-free', instruction: 'I need a 5 PM alarm named gym', success: gymAlarm });
}

describe('the planner calls a skill by name', () => {
  let skill: Skill;

  beforeAll(async () => {
    const teacher = await run(simSuiteTask('clock-alarm-3pm-meeting'), { runId: 'teacher' });
    expect(teacher.result.success).toBe(true);
    const read = readVerifiedRun(teacher.result.traceDir);
    if ('reason' in read) throw new Error(read.reason);
    [skill] = induceSkills([liftRun(read)]).skills as [Skill];
  });

  it('lists the app\'s skills in the prompt; a call runs it step by step, verified, and the planner goes on from its result', async () => {
    const planner = new ScriptedLanguageModel({
      replies: [
        JSON.stringify({ intent: 'Set the gym alarm', skill: skill.name, arguments: [{ name: 'time', value: '5PM' }, { name: 'text', value: 'gym' }] }),
        JSON.stringify({ intent: 'Done', finish: true }),
      ],
    });
    const { result } = await run(freeWorded(), { skills: [skill], planner, runId: 'called' });
    expect(result.skill?.outcome).toBe('no-match');
    const first = userText(planner.calls[0]?.request);
    expect(first).toContain(skillMenuHead);
    expect(first).toContain(`- ${skill.name}: Set an alarm for {time} with the label "{text}" using Clock. [time: time, e.g. 3PM; text: text, e.g. meeting]`);
    expect(planner.calls).toHaveLength(2);
    const events = readTrace(result.traceDir).events;
    const steps = events.filter((event) => event.type === 'skill-step-end');
    expect(steps.length).toBeGreaterThanOrEqual(5);
    expect(steps.every((event) => event.outcome === 'pass')).toBe(true);
    expect(events.filter((event) => event.type === 'skill-end').map((event) => event.outcome)).toEqual(['no-match', 'completed']);
    // Rounds are numbered on: the call's round, then the skill's, then the planner's FINISH.
    const rounds = events.filter((event) => event.type === 'step-start').map((event) => event.step);
    expect(rounds).toEqual([...rounds].sort((left, right) => (left ?? 0) - (right ?? 0)));
    expect(new Set(rounds).size).toBe(rounds.length);
    // The planner heard the skill's steps and its end.
    const second = userText(planner.calls[1]?.request);
    expect(second).toMatch(new RegExp(`Replay skill ${skill.name} → pass \\(skill ${skill.name}: all \\d+ steps verified\\)`));
    expect(second).toContain('Pick 5:00 PM and confirm → pass');
    expect(result.success).toBe(true);
  });

  it('a called skill that hands over leaves its progress and the reason in the history; the planner goes on from that state', async () => {
    const planner = new ScriptedLanguageModel({
      replies: [
        JSON.stringify({ intent: 'Set the gym alarm', skill: skill.name, arguments: [{ name: 'time', value: '5PM' }, { name: 'text', value: 'gym' }] }),
        JSON.stringify({ intent: 'Give up', finish: true }),
      ],
    });
    // The time picker's OK reads "Confirm": the skill stops before its third step.
    const { result } = await run(freeWorded(), { skills: [skill], planner, faults: { relabel: { rate: 1 } }, runId: 'called-handed-over' });
    const events = readTrace(result.traceDir).events;
    expect(events.filter((event) => event.type === 'skill-end').map((event) => event.outcome)).toEqual(['no-match', 'handed-over']);
    const second = userText(planner.calls[1]?.request);
    expect(second).toContain('Open the new-alarm time picker → pass');
    expect(second).toMatch(new RegExp(`Replay skill ${skill.name} → fail \\(skill ${skill.name} step 3/5: step 3 "Pick 5:00 PM and confirm": commit target text="OK" is not on the screen\\)`));
    // The planner plans on the screen the skill left: the picker, open, with the renamed button.
    expect(second).toContain('"Confirm"');
    expect(planner.calls).toHaveLength(2);
  });

  it('an unknown skill or a missing argument is refused with the reason; nothing runs', async () => {
    const planner = new ScriptedLanguageModel({
      replies: [
        JSON.stringify({ intent: 'Set it', skill: 'clock-no-such-skill', arguments: [] }),
        JSON.stringify({ intent: 'Set it', skill: skill.name, arguments: [{ name: 'time', value: '5PM' }] }),
        JSON.stringify({ intent: 'Set it', skill: skill.name, arguments: [{ name: 'time', value: 'noon' }, { name: 'text', value: 'gym' }] }),
        JSON.stringify({ intent: 'Give up', finish: true }),
      ],
    });
    const { result, simulator } = await run(freeWorded(), { skills: [skill], planner, runId: 'refused' });
    expect(userText(planner.calls[1]?.request)).toContain(`Your previous commitment was rejected: no skill "clock-no-such-skill" here; the skills listed are ${skill.name}`);
    expect(userText(planner.calls[2]?.request)).toContain(`Your previous commitment was rejected: skill ${skill.name} needs "text" in "arguments" (time: time, e.g. 3PM; text: text, e.g. meeting)`);
    expect(userText(planner.calls[3]?.request)).toContain(`Set it → rejected (skill ${skill.name}: "noon" is not a time for time (e.g. 3PM))`);
    const events = readTrace(result.traceDir).events;
    expect(events.filter((event) => event.type === 'act-end')).toHaveLength(0);
    expect(events.filter((event) => event.type === 'skill-step-end')).toHaveLength(0);
    expect((simulator.appState(clock) as { alarms: unknown[] }).alarms).toHaveLength(2);
    expect(result.success).toBe(false);
  });

  it('negative control: without a skills folder the prompt lists no skill and a call is refused', async () => {
    const planner = new ScriptedLanguageModel({
      replies: [
        JSON.stringify({ intent: 'Set it', skill: skill.name, arguments: [{ name: 'time', value: '5PM' }, { name: 'text', value: 'gym' }] }),
        JSON.stringify({ intent: 'Give up', finish: true }),
      ],
    });
    const { result } = await run(freeWorded(), { planner, runId: 'no-skills' });
    expect(userText(planner.calls[0]?.request)).not.toContain(skillMenuHead);
    expect(userText(planner.calls[1]?.request)).toContain(`no skill "${skill.name}": none is listed for this app`);
    expect(readTrace(result.traceDir).events.filter((event) => event.type === 'act-end')).toHaveLength(0);
  });

  it('the oracle planner, from the prompt alone, calls the skill once its app is open; the run needs 3 planner calls instead of 6', async () => {
    // Starts on the launcher: no skill fits the start screen (its precondition is the Clock app); the reference opens Clock first.
    const base = simSuiteTask('clock-alarm-3pm-meeting');
    const fromLauncher = taskSchema.parse({
      ...base,
      id: 'clock-alarm-3pm-meeting-from-home',
      start: {},
      allowedPackages: [...base.allowedPackages, 'com.google.android.apps.nexuslauncher'],
      solution: [{ intent: 'Open Clock', actions: [{ unit: 'navigate', launch: clock }], expect: `package = "${clock}"` }, ...(base.solution ?? [])],
    });
    const plain = await run(fromLauncher, { runId: 'oracle-plain' });
    expect(plain.result.success).toBe(true);
    const called = await run(fromLauncher, { skills: [skill], runId: 'oracle-called' });
    expect(called.result.skill?.outcome).toBe('no-match');
    const ends = readTrace(called.result.traceDir).events.filter((event) => event.type === 'skill-end');
    expect(ends.map((event) => event.outcome)).toEqual(['no-match', 'completed']);
    expect(called.result.success).toBe(true);
    expect(called.result.llmCalls).toBe(3);
    // Without the skill: a plan per step of the reference (6), the last one completing the task, so no FINISH call.
    expect(plain.result.llmCalls).toBe(6);
  });
});
