// Question skills (docs/skills.md): a run that answered a question teaches where its answer was
// read on the final screen, never the answer itself; the replay reads it again from the
// live screen, and hands over when that place is not there.
import * as path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runTask } from '../../../src/agent/run-task.js';
import { simulatorForTask } from '../../../src/bench/simulator-for-task.js';
import { SimDevice } from '../../../src/device/sim-device.js';
import { ScriptedLanguageModel } from '../../../src/model/scripted-language-model.js';
import { induceSkills } from '../../../src/skills/induce-skills.js';
import { liftRun } from '../../../src/skills/lift-run.js';
import { readVerifiedRun } from '../../../src/skills/read-verified-run.js';
import { loadSkills, saveSkill } from '../../../src/skills/skill-library.js';
import type { Skill } from '../../../src/skills/skill-schema.js';
import { taskSchema, type Task } from '../../../src/tasks/task-schema.js';
import { simSuiteTask as suiteTask, temporaryRunRoot } from '../../helpers/sim-suite.js';

const runRoot = temporaryRunRoot('senseact-answer-skills-');

function variant(id: string, changes: Partial<Task>): Task {
  const { solution: _solution, ...base } = suiteTask(id);
  return taskSchema.parse({ ...base, ...changes });
}

async function run(task: Task, runId: string, skills?: readonly Skill[]) {
  const device = new SimDevice(simulatorForTask(task, { seed: 5 }));
  // A planner that gives up at once: an answer after a hand-over could only be the skill's.
  const planner = new ScriptedLanguageModel({ replies: () => JSON.stringify({ intent: 'Give up', finish: true }) });
  try {
    const result = await runTask({
      task, mode: 'senseact', policy: skills ? 'llm' : 'oracle', device, probe: device, traceRoot: runRoot.dir(), suite: 'answers', runId,
      ...(skills ? { models: { planner }, skills } : {}),
    });
    return { result, planner };
  } finally {
    await device.close();
  }
}

/** Induces a skill from one oracle run of a suite task, through YAML and back. */
async function teach(id: string): Promise<Skill> {
  const { result } = await run(suiteTask(id), `teach-${id}`);
  expect(result.success).toBe(true);
  const read = readVerifiedRun(result.traceDir);
  if ('reason' in read) throw new Error(read.reason);
  const [skill] = induceSkills([liftRun(read)]).skills as [Skill];
  const dir = path.join(runRoot.dir(), `skills-${id}`);
  saveSkill(dir, skill);
  return loadSkills(dir)[0] as Skill;
}

describe('a skill that reads a text answer', () => {
  let skill: Skill;
  beforeAll(async () => {
    skill = await teach('contacts-query-12');
  });

  it('keeps where the answer was read, never the answer itself', () => {
    expect(skill.template).toBe("What is {option}'s phone number");
    expect(skill.answer).toMatchObject({ from: 'text', take: 'whole' });
    expect(JSON.stringify(skill)).not.toContain('010-2000');
  });

  it('reads another contact\'s number from the live screen, with zero model calls', async () => {
    const task = variant('contacts-query-12', { id: 'contacts-query-aaa-phone', instruction: "What is AAA's phone number", answer: { expected: ['(555) 010-1000'], judge: 'exact' } });
    const { result, planner } = await run(task, 'aaa', [skill]);
    expect(result.skill).toMatchObject({ outcome: 'completed' });
    expect(result.answer).toBe('(555) 010-1000');
    expect(result.success).toBe(true);
    expect(result.llmCalls + result.vlmCalls).toBe(0);
    expect(planner.calls).toHaveLength(0);
  });

  it('negative control: a contact with no mobile number gives no answer; the skill hands over', async () => {
    const start = { launch: 'com.google.android.contacts', state: { 'com.google.android.contacts': { contacts: [{ id: 'c2', firstName: 'ABC', lastName: '', company: '', phones: [], emails: [{ address: 'abc@example.com', type: 'Home' }], website: '', birthday: '', starred: false, labels: [] }], nextId: 10 } } };
    const task = variant('contacts-query-12', { id: 'contacts-query-abc-no-phone', start, answer: { expected: ['(555) 010-2000'], judge: 'exact' } });
    const { result } = await run(task, 'no-phone', [skill]);
    expect(result.skill).toMatchObject({ outcome: 'handed-over' });
    expect(result.skill?.reason).toContain('answer cannot be read');
    expect(result.answer).toBeUndefined();
    expect(result.success).toBe(false);
  });
});

describe('a skill that reads a yes/no answer from a checked state', () => {
  let skill: Skill;
  beforeAll(async () => {
    skill = await teach('clock-query-14');
  });

  it('reads the state of the switch the instruction names (its time lifted), not a stored "No"', () => {
    expect(skill.template).toBe('Have my alarm at {time} been turned on?');
    expect(skill.answer).toMatchObject({ from: 'checked', target: 'desc="{time.hour}:{time.minute2} {time.ampm} alarm"' });
  });

  it('answers Yes for an alarm that is on', async () => {
    const task = variant('clock-query-14', { id: 'clock-query-730-on', instruction: 'Have my alarm at 7:30AM been turned on?', answer: { expected: ['Yes'], judge: 'exact' } });
    const { result } = await run(task, 'on', [skill]);
    expect(result.answer).toBe('Yes');
    expect(result.success).toBe(true);
    expect(result.llmCalls).toBe(0);
  });

  it('negative control: an alarm that does not exist is no answer (hand-over, never "No")', async () => {
    const task = variant('clock-query-14', { id: 'clock-query-1015-missing', instruction: 'Have my alarm at 10:15AM been turned on?', answer: { expected: ['No'], judge: 'exact' } });
    const { result } = await run(task, 'missing', [skill]);
    expect(result.skill).toMatchObject({ outcome: 'handed-over' });
    expect(result.answer).toBeUndefined();
  });
});

describe('answers no rule explains alone', () => {
  it('a yes/no answer several checkable nodes could give teaches nothing', async () => {
    const { result } = await run(suiteTask('clock-query-11'), 'teach-11');
    const read = readVerifiedRun(result.traceDir);
    expect('reason' in read && read.reason).toMatch(/explained \d+ ways|not read from the final screen/);
  });

  it('a count is read again: three alarms on give 3', async () => {
    const skill = await teach('clock-query-13');
    expect(skill.answer).toMatchObject({ from: 'count', state: 'checked' });
    const base = suiteTask('clock-query-13');
    const state = structuredClone(base.start.state) as Record<string, { alarms: { enabled: boolean }[] }>;
    const alarms = state['com.google.android.deskclock']?.alarms ?? [];
    alarms.forEach((alarm, index) => { alarm.enabled = index < 3; });
    const task = variant('clock-query-13', { id: 'clock-query-13-three', start: { ...base.start, state }, answer: { expected: ['3'], judge: 'exact' } });
    const { result } = await run(task, 'three', [skill]);
    expect(result.answer).toBe('3');
    expect(result.success).toBe(true);
  });
});

describe('a yes/no skill read from a checked state', () => {
  let skill: Skill;
  beforeAll(async () => {
    // Does my alarm at 4PM turn on vibrate? The recorded answer is Yes: its step expected the Vibrate box checked.
    skill = await teach('clock-query-12');
  });

  it('keeps the node the answer is read from in its steps\' expectations, not its state (the state is the answer)', () => {
    expect(skill.answer).toMatchObject({ from: 'checked' });
    const expectations = JSON.stringify(skill.steps);
    expect(expectations).toContain('exists(text=\\"Vibrate\\")');
    expect(expectations).not.toMatch(/checked\(text=\\"Vibrate\\"\)/);
  });

  it('answers No for an alarm that does not vibrate, with zero model calls (the taught run answered Yes)', async () => {
    const { result, planner } = await run(suiteTask('clock-query-9am-vibrate'), 'replay-9am-vibrate', [skill]);
    expect(result.skill?.outcome).toBe('completed');
    expect(result.answer).toBe('No');
    expect(planner.calls).toHaveLength(0);
    expect(result.success).toBe(true);
  });

  it('negative control: an alarm the screen does not show is not answered (hands over)', async () => {
    const task = variant('clock-query-9am-vibrate', { id: 'clock-query-5am-vibrate', instruction: 'Does my alarm at 5AM turn on vibrate?' });
    const { result } = await run(task, 'replay-5am-vibrate', [skill]);
    expect(result.skill?.outcome).toBe('handed-over');
    expect(result.answer).toBeUndefined();
  });
});

describe('a skill that reads a value in the row of a label the instruction names', () => {
  let skill: Skill;
  const base = suiteTask('clock-query-next-city-time');
  /** The suite task's start with these world clocks (the home clock shows 9:00 AM, UTC). */
  function withCities(worldClocks: { city: string; utcOffsetMinutes: number }[]): Task['start'] {
    const state = structuredClone(base.start.state) as Record<string, { worldClocks: unknown[] }>;
    (state['com.google.android.deskclock'] as { worldClocks: unknown[] }).worldClocks = worldClocks;
    return { ...base.start, state };
  }

  beforeAll(async () => {
    skill = await teach('clock-query-next-city-time');
  });

  it('reads the time in the row of the city (lifted), not the home clock of the same id the label\'s centre is nearer to', () => {
    expect(skill.template).toBe('What time is it in {option} right now according to my world clock?');
    expect(skill.answer).toEqual({ from: 'text', target: 'id="digital_clock"', row: 'text="{option}"i', field: 'text', take: 'whole' });
    expect(JSON.stringify(skill)).not.toContain('6:00 PM');
  });

  it('answers for another city among several, with zero model calls', async () => {
    const task = variant('clock-query-next-city-time', { id: 'clock-query-london-time', instruction: 'What time is it in London right now according to my world clock?', start: withCities([{ city: 'Tokyo', utcOffsetMinutes: 540 }, { city: 'London', utcOffsetMinutes: 60 }, { city: 'New York', utcOffsetMinutes: -240 }]), answer: { expected: ['10:00 AM'], judge: 'exact' } });
    const { result, planner } = await run(task, 'london-time', [skill]);
    expect(result.skill).toMatchObject({ outcome: 'completed' });
    expect(result.answer).toBe('10:00 AM');
    expect(result.success).toBe(true);
    expect(planner.calls).toHaveLength(0);
    expect(result.llmCalls + result.vlmCalls).toBe(0);
  });

  it('negative control: a city not on the world clock is not answered (hand-over, never the home clock\'s time)', async () => {
    const task = variant('clock-query-next-city-time', { id: 'clock-query-paris-time', instruction: 'What time is it in Paris right now according to my world clock?', answer: { expected: ['11:00 AM'], judge: 'exact' } });
    const { result } = await run(task, 'paris-time', [skill]);
    expect(result.skill).toMatchObject({ outcome: 'handed-over' });
    expect(result.skill?.reason).toContain('answer cannot be read');
    expect(result.answer).toBeUndefined();
  });

  it('near miss: the city shown twice (its label names no one row): the run teaches nothing, and says why', async () => {
    const task = taskSchema.parse({ ...base, id: 'clock-query-tokyo-twice', start: withCities([{ city: 'Tokyo', utcOffsetMinutes: 540 }, { city: 'Tokyo', utcOffsetMinutes: 540 }]) });
    const { result } = await run(task, 'teach-tokyo-twice');
    expect(result.success).toBe(true);
    const read = readVerifiedRun(result.traceDir);
    expect('reason' in read && read.reason).toMatch(/the answer "6:00 PM" is not read from the final screen/);
  });
});
