// A skill step where the tree does not show what the step needs (docs/skills-measurements.md, "Repeat"): the
// replay runs the loop's own vision phases and asks no planner. A target whose label is
// gone is located by vision from the recorded query (resolve-by-vision); an expectation
// whose label is gone is confirmed by vision (the gate's phase, kind `confirm`); a dropped
// tap on an icon goes to the gate as in the loop; a dialog that comes up between two units
// of a step is dismissed and the rest of the step played (measured on the sim suite, not
// here: the simulator's interstitial is not placed between two units on demand). Both ways: a vision that does
// not find or does not see hands over to the planner, and a wrong answer never completes a
// skill. The planner and vision are scripted; the skills are induced from oracle runs.
import { beforeAll, describe, expect, it } from 'vitest';
import { readPrompt, type PromptReading } from '../../../src/agent/prompts/read-prompt.js';
import { runTask } from '../../../src/agent/run-task.js';
import { simulatorForTask } from '../../../src/bench/simulator-for-task.js';
import { SimDevice } from '../../../src/device/sim-device.js';
import { ScriptedLanguageModel, ScriptedVisionModel } from '../../../src/model/scripted-language-model.js';
import type { FaultConfig, Simulator } from '../../../src/sim/index.js';
import { induceSkills } from '../../../src/skills/induce-skills.js';
import { liftRun } from '../../../src/skills/lift-run.js';
import { readVerifiedRun } from '../../../src/skills/read-verified-run.js';
import type { Skill } from '../../../src/skills/skill-schema.js';
import type { Task } from '../../../src/tasks/task-schema.js';
import { readTrace } from '../../../src/trace/read-trace.js';
import { boundsIou } from '../../../src/ui/bounds.js';
import type { UiTree } from '../../../src/ui/ui-tree.js';
import { evaluatePredicate } from '../../../src/verify/evaluate-predicate.js';
import { findNodes } from '../../../src/verify/find-nodes.js';
import { parsePredicate, parseQuery } from '../../../src/verify/parse-predicate.js';
import { simSuiteTask, temporaryRunRoot } from '../../helpers/sim-suite.js';

const root = temporaryRunRoot('senseact-skill-vision-');
const contacts = 'com.google.android.contacts';
const iconOnly: FaultConfig = { 'icon-only': { rate: 1 } };

/** What the scripted vision answers, from the prompt it is asked and the screen as it really is. */
type VisionRule = (reading: PromptReading, truth: UiTree) => { unit: string | null; alreadyDone: boolean };

/** Locates the node the `lookFor` query names on the real screen: the candidate over it. */
function locate(reading: PromptReading, truth: UiTree): string | null {
  if (reading.lookFor === undefined) return null;
  const node = truth.nodes[findNodes(parseQuery(reading.lookFor), truth).matches[0] ?? -1];
  if (!node) return null;
  const best = [...reading.candidates].sort((a, b) => boundsIou(b.bounds, node.bounds) - boundsIou(a.bounds, node.bounds))[0];
  return best && boundsIou(best.bounds, node.bounds) >= 0.5 ? best.id : null;
}

/** Sees an expectation on the real screen. */
function sees(reading: PromptReading, truth: UiTree): boolean {
  return reading.expectation !== undefined && evaluatePredicate(parsePredicate(reading.expectation), { after: truth }).outcome === 'pass';
}

/** A vision that answers as the pixels show: the expectation when it is asked about one, else where the target is. */
const truthful: VisionRule = (reading, truth) => (sees(reading, truth) ? { unit: null, alreadyDone: true } : { unit: locate(reading, truth), alreadyDone: false });
/** A vision that finds nothing and sees nothing. */
const blind: VisionRule = () => ({ unit: null, alreadyDone: false });

/** A planner that gives up at once: it counts the hand-overs. */
function finishingPlanner(): ScriptedLanguageModel {
  return new ScriptedLanguageModel({ replies: () => JSON.stringify({ intent: 'Give up', finish: true }) });
}

async function run(task: Task, options: { skill: Skill; faults: FaultConfig; vision: VisionRule; runId: string }): Promise<{ result: Awaited<ReturnType<typeof runTask>>; simulator: Simulator; vision: ScriptedVisionModel }> {
  const simulator = simulatorForTask(task, { seed: 3, faults: options.faults });
  const device = new SimDevice(simulator);
  const vision = new ScriptedVisionModel({
    replies: async (request) => {
      const truth = await device.groundTruth();
      if (!truth) throw new Error('the simulator gives its ground truth');
      const answer = options.vision(readPrompt(request.messages), truth);
      return JSON.stringify({ ...answer, reason: 'scripted' });
    },
  });
  try {
    const result = await runTask({
      task, mode: 'senseact', policy: 'llm', device, probe: device, traceRoot: root.dir(), suite: 'skill-vision', runId: options.runId,
      models: { planner: finishingPlanner(), vision }, skills: [options.skill],
    });
    return { result, simulator, vision };
  } finally {
    await device.close();
  }
}

/** The skill one clean oracle run of `id` teaches. */
async function teach(id: string): Promise<Skill> {
  const task = simSuiteTask(id);
  const device = new SimDevice(simulatorForTask(task, { seed: 3 }));
  try {
    const result = await runTask({ task, mode: 'senseact', policy: 'oracle', device, probe: device, traceRoot: root.dir(), suite: 'skill-vision', runId: `teacher-${id}` });
    expect(result.success).toBe(true);
    const read = readVerifiedRun(result.traceDir);
    if ('reason' in read) throw new Error(read.reason);
    const [skill] = induceSkills([liftRun(read)]).skills;
    if (!skill) throw new Error(`no skill from ${id}`);
    return skill;
  } finally {
    await device.close();
  }
}

function contactNames(simulator: Simulator): string[] {
  return (simulator.appState(contacts) as { contacts: { firstName: string }[] }).contacts.map((contact) => contact.firstName);
}

/** Units acted on before the skill replay ended. */
function skillActs(traceDir: string): number {
  const events = readTrace(traceDir).events;
  return events.slice(0, events.findIndex((event) => event.type === 'skill-end')).filter((event) => event.type === 'act-end').length;
}

describe('a skill step whose target lost its label (icon-only)', () => {
  const task = simSuiteTask('contacts-delete-bob');
  let skill: Skill;

  beforeAll(async () => {
    skill = await teach('contacts-delete-bob');
    expect(JSON.stringify(skill.steps)).toContain('More options');
  });

  it('vision locates it from the recorded query: the skill completes with no planner call, vision counted', async () => {
    const { result, simulator } = await run(task, { skill, faults: iconOnly, vision: truthful, runId: 'locate' });
    expect(simulator.faultLog().some((event) => event.detail.includes('"More options" lost its label'))).toBe(true);
    expect(result.skill?.outcome).toBe('completed');
    expect(result.plannerCalls).toBe(0);
    expect(result.vlmCalls).toBeGreaterThan(0);
    expect(result.gateReasons['unresolved-target']).toBeGreaterThan(0);
    expect(result.success).toBe(true);
    expect(contactNames(simulator)).not.toContain('Bob');
  });

  it('negative control: vision does not find it either: the skill hands over having acted only on the step before, and Bob stays', async () => {
    const { result, simulator } = await run(task, { skill, faults: iconOnly, vision: blind, runId: 'locate-blind' });
    expect(result.skill?.outcome).toBe('handed-over');
    expect(result.skill?.reason).toContain('vision could not locate the target either');
    expect(result.plannerCalls).toBeGreaterThan(0);
    expect(skillActs(result.traceDir)).toBe(1);
    expect(result.success).toBe(false);
    expect(contactNames(simulator)).toContain('Bob');
  });

  it('negative control: vision points at another control: the tap does not bring what the step expects, vision does not see it either, and the skill hands over; nothing is deleted', async () => {
    // The first candidate that is not the target: a wrong answer of a real VLM.
    const wrong: VisionRule = (reading, truth) => {
      if (reading.expectation !== undefined) return { unit: null, alreadyDone: sees(reading, truth) };
      const right = locate(reading, truth);
      return { unit: reading.candidates.find((candidate) => candidate.id !== right && !candidate.id.startsWith('nav-'))?.id ?? null, alreadyDone: false };
    };
    const { result, simulator } = await run(task, { skill, faults: iconOnly, vision: wrong, runId: 'locate-wrong' });
    expect(result.skill?.outcome).toBe('handed-over');
    expect(result.plannerCalls).toBeGreaterThan(0);
    expect(result.success).toBe(false);
    expect(contactNames(simulator)).toContain('Bob');
  });
});

describe('a skill step whose expectation names a label that is gone (icon-only)', () => {
  const task = simSuiteTask('notes-shopping-check-milk');
  let skill: Skill;

  beforeAll(async () => {
    skill = await teach('notes-shopping-check-milk');
    expect(JSON.stringify(skill.steps)).toContain('exists(desc=\\"Navigate up\\")');
  });

  it('the step acted; vision sees the expected effect: a weak pass by vision, no planner call', async () => {
    const { result } = await run(task, { skill, faults: iconOnly, vision: truthful, runId: 'confirm' });
    expect(result.skill?.outcome).toBe('completed');
    expect(result.plannerCalls).toBe(0);
    expect(result.gateReasons['skill-check']).toBeGreaterThan(0);
    expect(result.success).toBe(true);
    const byVision = readTrace(result.traceDir).events.filter((event) => event.type === 'verify-end' && event.by === 'vlm');
    expect(byVision.map((event) => event.type === 'verify-end' && event.reason).join(' ')).toContain('shows in the pixels');
  });

  it('negative control: vision does not see it: the skill hands over on that step, the planner is asked', async () => {
    // Locates truthfully, never confirms: only the confirmation is missing.
    const unseeing: VisionRule = (reading, truth) => ({ unit: reading.expectation === undefined ? locate(reading, truth) : null, alreadyDone: false });
    const { result } = await run(task, { skill, faults: iconOnly, vision: unseeing, runId: 'confirm-unseen' });
    expect(result.skill?.outcome).toBe('handed-over');
    expect(result.skill?.reason).toContain('no node matches desc="Navigate up"');
    expect(result.gateReasons['skill-check']).toBe(1);
    expect(result.plannerCalls).toBeGreaterThan(0);
  });
});

describe('a dropped tap on an icon without text or state', () => {
  const task = simSuiteTask('clock-label-9am-weekend');
  let skill: Skill;

  beforeAll(async () => {
    skill = await teach('clock-label-9am-weekend');
  });

  it('goes to the gate as in the loop: vision locates the icon again, it is tapped again and the skill completes with no planner call', async () => {
    const { result, simulator } = await run(task, { skill, faults: { 'dropped-tap': { atSteps: [3] } }, vision: truthful, runId: 'pixel-only' });
    expect(simulator.faultLog()).toHaveLength(1);
    expect(result.gateReasons['pixel-only']).toBe(1);
    expect(result.skill?.outcome).toBe('completed');
    expect(result.plannerCalls).toBe(0);
    expect(result.success).toBe(true);
  });

  it('negative control: vision does not find it: hand-over, the planner is asked', async () => {
    const { result } = await run(task, { skill, faults: { 'dropped-tap': { atSteps: [3] } }, vision: blind, runId: 'pixel-only-blind' });
    expect(result.gateReasons['pixel-only']).toBe(1);
    expect(result.skill?.outcome).toBe('handed-over');
    expect(result.plannerCalls).toBeGreaterThan(0);
  });
});

describe('an icon with every label gone whose tap shows nothing in the tree (the favourite star under icon-only)', () => {
  const task = simSuiteTask('contacts-tom-baker-favorite');
  let skill: Skill;

  beforeAll(async () => {
    skill = await teach('contacts-tom-baker-favorite');
    expect(JSON.stringify(skill.steps)).toContain('Remove from favorites');
  });

  function starTaps(traceDir: string, starId: string | undefined): number {
    return readTrace(traceDir).events.filter((event) => event.type === 'act-end' && event.unitId === starId).length;
  }

  function starId(traceDir: string): string | undefined {
    const events = readTrace(traceDir).events;
    const end = events.findIndex((event) => event.type === 'skill-end');
    const taps = events.slice(0, end).filter((event) => event.type === 'act-end');
    return taps.at(-1)?.type === 'act-end' ? (taps.at(-1) as { unitId?: string }).unitId : undefined;
  }

  it('is not tapped again (that would undo it): the gate opens at once, vision sees the star set, no planner call', async () => {
    const { result, simulator } = await run(task, { skill, faults: iconOnly, vision: truthful, runId: 'star' });
    expect(simulator.faultLog().some((event) => event.detail.includes('"Remove from favorites" lost its label'))).toBe(true);
    expect(result.gateReasons['pixel-only']).toBe(1);
    expect(starTaps(result.traceDir, starId(result.traceDir))).toBe(1);
    expect(result.skill?.outcome).toBe('completed');
    expect(result.plannerCalls).toBe(0);
    expect(result.success).toBe(true);
  });

  it('negative control: vision does not see it set: hand-over after one tap, the planner is asked', async () => {
    const unseeing: VisionRule = (reading, truth) => ({ unit: reading.expectation === undefined ? locate(reading, truth) : null, alreadyDone: false });
    const { result } = await run(task, { skill, faults: iconOnly, vision: unseeing, runId: 'star-unseen' });
    expect(result.gateReasons['pixel-only']).toBe(1);
    expect(starTaps(result.traceDir, starId(result.traceDir))).toBe(1);
    expect(result.skill?.outcome).toBe('handed-over');
    expect(result.plannerCalls).toBeGreaterThan(0);
  });
});
