// Skills generalise across slot values only where the run shows the value recurring
// (docs/skills-measurements.md, "Generalisation"): a skill taught on one task of a template replays a sibling
// task of the suite (tasks/sim template variants) with zero model calls; a value that only
// looks like the slot (the hour of another time on the screen), typed names standing side
// by side, or a value the app does not show are never guessed at.
import { cp, readFile, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runTask } from '../../../src/agent/run-task.js';
import { simulatorForTask } from '../../../src/bench/simulator-for-task.js';
import { SimDevice } from '../../../src/device/sim-device.js';
import { ScriptedLanguageModel } from '../../../src/model/scripted-language-model.js';
import { induceSkills } from '../../../src/skills/induce-skills.js';
import { liftRun } from '../../../src/skills/lift-run.js';
import { matchSkill } from '../../../src/skills/match-skill.js';
import { readVerifiedRun } from '../../../src/skills/read-verified-run.js';
import type { Skill } from '../../../src/skills/skill-schema.js';
import { taskSchema, type Task } from '../../../src/tasks/task-schema.js';
import { simSuiteTask as suiteTask, temporaryRunRoot } from '../../helpers/sim-suite.js';

const runRoot = temporaryRunRoot('senseact-generalise-');

/** A sibling task as the skill meets it: no reference solution, so only the skill (or a planner that gives up) plays it. */
function unsolved(task: Task, changes: Partial<Task> = {}): Task {
  const { solution: _solution, ...base } = task;
  return taskSchema.parse({ ...base, ...changes });
}

/** A planner that gives up at once: whatever the run does is the skill's doing. */
function finishingPlanner(): ScriptedLanguageModel {
  return new ScriptedLanguageModel({ replies: () => JSON.stringify({ intent: 'Give up', finish: true }) });
}

async function run(task: Task, runId: string, skills?: readonly Skill[]) {
  const simulator = simulatorForTask(task, { seed: 5 });
  const device = new SimDevice(simulator);
  const planner = finishingPlanner();
  try {
    const result = await runTask({
      task, mode: 'senseact', policy: skills ? 'llm' : 'oracle', device, probe: device, traceRoot: runRoot.dir(), suite: 'generalise', runId,
      ...(skills ? { models: { planner }, skills } : {}),
    });
    return { result, simulator, planner };
  } finally {
    await device.close();
  }
}

/** Teaches one skill from an oracle run of a suite task. */
async function teach(id: string): Promise<Skill> {
  const { result } = await run(suiteTask(id), `teach-${id}`);
  expect(result.success, result.reason).toBe(true);
  const read = readVerifiedRun(result.traceDir);
  if ('reason' in read) throw new Error(read.reason);
  const induced = induceSkills([liftRun(read)]);
  expect(induced.skills).toHaveLength(1);
  return induced.skills[0] as Skill;
}

describe('a time on the screen is the parameter only when it shows whole', () => {
  let skill: Skill;
  beforeAll(async () => {
    skill = await teach('clock-first-alarm-8am');
  });

  it('keeps the first alarm\'s own time literal: its hour 8 equals the instruction\'s by chance', () => {
    expect(skill.template).toBe('set the first alarm at {time}');
    const steps = JSON.stringify(skill.steps);
    expect(steps).toContain('8:30 AM');
    expect(steps).not.toContain('{time.hour}:30');
  });

  it('sets the first alarm of a sibling task (7:15 am) with zero model calls', async () => {
    const { result, planner } = await run(unsolved(suiteTask('clock-first-alarm-715am')), 'first-715', [skill]);
    expect(result.skill).toMatchObject({ outcome: 'completed', skill: skill.name });
    expect(planner.calls).toHaveLength(0);
    expect(result.success, result.reason).toBe(true);
  });

  it('refuses a slot that is no time, and an instruction of another shape', () => {
    expect(matchSkill([skill], 'set the first alarm at 25 pm', { app: skill.app })).toMatchObject({ kind: 'none' });
    expect(matchSkill([skill], 'set the first alarm at noon', { app: skill.app })).toMatchObject({ kind: 'none' });
    expect(matchSkill([skill], 'set the second alarm at 7:15 am', { app: skill.app })).toMatchObject({ kind: 'none' });
    expect(matchSkill([skill], 'set the first alarm at 6:15 am', { app: skill.app })).toMatchObject({ kind: 'match', match: { bindings: { time: { type: 'time', value: '6:15 am' } } } });
  });
});

describe('a target whose label became a parameter keeps the kind of node it named', () => {
  it('taps the dial\'s "30 minutes", not the minute chip that shows 30 too', async () => {
    const skill = await teach('clock-alarm-645-once');
    expect(skill.template).toBe('Help me set an alarm at {time} tomorrow');
    expect(JSON.stringify(skill.steps)).toContain('is=TextView, desc=\\"{time.minute} minutes\\"');
    const { result, planner } = await run(unsolved(suiteTask('clock-alarm-1030-once')), 'once-1030', [skill]);
    expect(result.skill).toMatchObject({ outcome: 'completed' });
    expect(planner.calls).toHaveLength(0);
    expect(result.success, result.reason).toBe(true);
  });
});

describe('typed text the instruction names without quotes', () => {
  let skill: Skill;
  beforeAll(async () => {
    skill = await teach('contacts-find-alice');
  });

  it('becomes a text parameter where the run typed it', () => {
    expect(skill.template).toBe('Find a Contact {text}');
    expect(skill.lifted.some((note) => note.parameter === 'text' && note.literal === 'Alice')).toBe(true);
  });

  it('finds another contact with zero model calls', async () => {
    const task = unsolved(suiteTask('contacts-find-alice'), { id: 'contacts-find-bob', instruction: 'Find a Contact Bob', success: { screen: 'exists(id~"large_title", text="Bob")' } });
    const { result, planner } = await run(task, 'find-bob', [skill]);
    expect(result.skill).toMatchObject({ outcome: 'completed' });
    expect(planner.calls).toHaveLength(0);
    expect(result.success, result.reason).toBe(true);
  });

  it('negative control: a name the app does not hold is refused on the screen, never guessed (hand-over, no contact opened)', async () => {
    const task = unsolved(suiteTask('contacts-find-alice'), { id: 'contacts-find-zed', instruction: 'Find a Contact Zed', success: { screen: 'exists(id~"large_title", text="Zed")' } });
    const { result } = await run(task, 'find-zed', [skill]);
    expect(result.skill).toMatchObject({ outcome: 'handed-over' });
    expect(result.success).toBe(false);
  });

  it('negative control: two typed names side by side stay literal (a template could not split them)', async () => {
    const stephen = await teach('contacts-create-stephen-bob');
    expect(stephen.template).toBe('Create a new contact Stephen Bob, mobile number {number}');
    expect(stephen.lifted.some((note) => note.literal === 'Stephen' && note.parameter === '-')).toBe(true);
  });
});

describe('a step\'s evidence is kept apart from what it typed', () => {
  it('looks for the added item as the list shows it, not as the field still holds it', async () => {
    const skill = await teach('notes-shopping-add-butter');
    const last = skill.steps.at(-1);
    expect(last && 'expect' in last ? last.expect : undefined).toBe('exists(is=TextView, text="{text}"i)');
    const { result, planner } = await run(unsolved(suiteTask('notes-shopping-add-coffee')), 'add-coffee', [skill]);
    expect(result.skill).toMatchObject({ outcome: 'completed' });
    expect(planner.calls).toHaveLength(0);
    expect(result.success, result.reason).toBe(true);
  });
});

describe('a run that ends on an action no check confirmed', () => {
  it('teaches nothing, though its task check passed (the unverified action may be what did the task)', async () => {
    const { result } = await run(suiteTask('notes-shopping-remove-bread'), 'remove-bread');
    expect(result.success, result.reason).toBe(true);
    // The long-press that deletes the row is verified (the row is gone, as its step expected);
    // the same run with that last verdict made inconclusive is a run ending on an unconfirmed action.
    const copy = path.join(runRoot.dir(), 'remove-bread-unconfirmed');
    await cp(result.traceDir, copy, { recursive: true });
    const tracePath = path.join(copy, 'trace.jsonl');
    const lines = (await readFile(tracePath, 'utf8')).split('\n');
    const last = lines.map((line) => (line.includes('"type":"act-end"') ? (JSON.parse(line) as { step: number }).step : -1)).reduce((a, b) => Math.max(a, b), -1);
    const edited = lines.map((line) => (line.includes('"type":"verify-end"') && line.includes(`"step":${last},`) ? line.replace('"outcome":"pass"', '"outcome":"inconclusive"') : line));
    await writeFile(tracePath, edited.join('\n'));
    expect(readVerifiedRun(copy)).toMatchObject({ reason: expect.stringContaining('its last action was not verified') as unknown });
  });

  it('positive control: a run whose last action was verified still teaches (the row held to delete it is judged by what changed, not by a flip)', async () => {
    for (const id of ['notes-shopping-remove-eggs', 'notes-shopping-remove-bread']) {
      const { result } = await run(suiteTask(id), `${id}-teaches`);
      const read = readVerifiedRun(result.traceDir);
      expect('reason' in read ? read.reason : 'usable').toBe('usable');
    }
  });
});
