// Skills from steps only the loop's model verifier could pass (docs/skills.md): a city picked in
// a list that closes with the pick (its checkbox leaves the screen, so the toggle's
// contract is inconclusive while the city shows on the next screen). Such a step is taught
// when the tree showed the intent's effect and no unit's contract failed; the skill marks
// it `verifier: model`, and the replay asks the loop's verifier there, as the loop did.
import { cp, readFile, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runTask } from '../../../src/agent/run-task.js';
import { simulatorForTask } from '../../../src/bench/simulator-for-task.js';
import { SimDevice } from '../../../src/device/sim-device.js';
import { ScriptedLanguageModel } from '../../../src/model/scripted-language-model.js';
import { induceSkills } from '../../../src/skills/induce-skills.js';
import { liftRun } from '../../../src/skills/lift-run.js';
import { readVerifiedRun, type VerifiedRun } from '../../../src/skills/read-verified-run.js';
import { loadSkills, saveSkill } from '../../../src/skills/skill-library.js';
import { isBranchPoint, type Skill, type SkillStep } from '../../../src/skills/skill-schema.js';
import { taskSchema, type Task } from '../../../src/tasks/task-schema.js';
import { readTrace } from '../../../src/trace/read-trace.js';
import { simSuiteTask as suiteTask, temporaryRunRoot } from '../../helpers/sim-suite.js';

const runRoot = temporaryRunRoot('senseact-model-verified-');
const clock = 'com.google.android.deskclock';

/** Adding London instead of Tokyo: same start, no reference solution (only the skill plays it). */
const addLondon: Task = (() => {
  const { solution: _solution, ...base } = suiteTask('clock-add-tokyo');
  return taskSchema.parse({
    ...base,
    id: 'clock-add-london',
    instruction: 'Add London to my world clocks',
    success: { state: [{ app: clock, path: 'worldClocks', op: 'some', where: [{ path: 'city', op: 'equals', value: 'London' }] }] },
  });
})();

/** Replays with a planner that gives up at once and a scripted verifier giving `verdict`. */
async function replay(task: Task, skills: readonly Skill[], runId: string, verdict: 'pass' | 'fail') {
  const simulator = simulatorForTask(task, { seed: 4 });
  const device = new SimDevice(simulator);
  const planner = new ScriptedLanguageModel({ replies: () => JSON.stringify({ intent: 'Give up', finish: true }) });
  const verifier = new ScriptedLanguageModel({ replies: () => JSON.stringify({ verdict, reason: `scripted ${verdict}` }) });
  try {
    const result = await runTask({ task, mode: 'senseact', policy: 'llm', device, probe: device, traceRoot: runRoot.dir(), suite: 'model-verified', runId, models: { planner, verifier }, skills });
    const cities = (simulator.appState(clock) as { worldClocks: { city: string }[] }).worldClocks.map((entry) => entry.city);
    return { result, planner, verifier, cities };
  } finally {
    await device.close();
  }
}

function plainSteps(skill: Skill): SkillStep[] {
  return skill.steps.filter((entry): entry is SkillStep => !isBranchPoint(entry));
}

/** A copy of a run folder with one step's recorded verdicts changed. */
async function withVerdicts(recorded: VerifiedRun, name: string, step: number, change: (verdicts: { expectationOutcome?: { outcome: string }; units: { outcome: { outcome: string } }[] }) => void): Promise<string> {
  const copy = path.join(runRoot.dir(), name);
  await cp(recorded.dir, copy, { recursive: true });
  const file = path.join(copy, 'steps', String(step).padStart(3, '0'), 'predicates.json');
  const verdicts = JSON.parse(await readFile(file, 'utf8')) as Parameters<typeof change>[0];
  change(verdicts);
  await writeFile(file, JSON.stringify(verdicts));
  return copy;
}

describe('a step only the model verifier passed', () => {
  let recorded: VerifiedRun;
  let skill: Skill;
  let modelStep: number;

  beforeAll(async () => {
    const device = new SimDevice(simulatorForTask(suiteTask('clock-add-tokyo'), { seed: 4 }));
    const result = await runTask({ task: suiteTask('clock-add-tokyo'), mode: 'senseact', policy: 'oracle', device, probe: device, traceRoot: runRoot.dir(), suite: 'model-verified', runId: 'teacher' });
    await device.close();
    expect(result.success).toBe(true);
    // The teacher run needed the verifier: the toggle's checkbox left the screen with the list.
    const verdicts = readTrace(result.traceDir).events.filter((event) => event.type === 'verify-end' && event.by === 'llm-verifier');
    expect(verdicts.map((event) => event.type === 'verify-end' && event.outcome)).toEqual(['pass']);
    modelStep = verdicts[0]?.step ?? -1;
    const read = readVerifiedRun(result.traceDir);
    if ('reason' in read) throw new Error(read.reason);
    recorded = read;
    const dir = path.join(runRoot.dir(), 'skills');
    saveSkill(dir, induceSkills([liftRun(read)]).skills[0] as Skill);
    skill = loadSkills(dir)[0] as Skill;
  });

  it('is taught, marked as needing the model verifier; the other steps are not', () => {
    expect(skill.template).toBe('Add {text} to my world clocks');
    const marked = plainSteps(skill).filter((step) => step.verifier === 'model');
    expect(marked).toHaveLength(1);
    expect(marked[0]?.actions.map((action) => action.unit)).toEqual(['toggle']);
    expect(marked[0]?.expect).toBe('exists(text="{text}"i)');
    expect(plainSteps(skill).filter((step) => step.verifier === undefined).length).toBeGreaterThanOrEqual(3);
  });

  it('replays a variant with no planner call: the verifier is asked at that step only, and London is added', async () => {
    const { result, planner, verifier, cities } = await replay(addLondon, [skill], 'london', 'pass');
    expect(result.skill).toMatchObject({ outcome: 'completed', skill: skill.name });
    expect(planner.calls).toHaveLength(0);
    expect(verifier.calls).toHaveLength(1);
    expect(verifier.calls[0]?.request.messages.at(-1)?.content).toContain('Intent: Find and add London');
    expect(cities).toEqual(['London']);
    expect(result.success).toBe(true);
  });

  it('negative control: the verifier says fail: the replay hands over at that step, never completes', async () => {
    const { result, verifier } = await replay(addLondon, [skill], 'london-refused', 'fail');
    expect(verifier.calls).toHaveLength(1);
    expect(result.skill).toMatchObject({ outcome: 'handed-over' });
    expect(result.skill?.reason).toMatch(/scripted fail/);
  });

  it('negative control: the same skill without the mark asks no verifier and hands over at the inconclusive step', async () => {
    const unmarked: Skill = { ...skill, steps: skill.steps.map((entry) => (isBranchPoint(entry) ? entry : (({ verifier: _verifier, ...step }) => step)(entry))) };
    const { result, verifier } = await replay(addLondon, [unmarked], 'london-unmarked', 'pass');
    expect(verifier.calls).toHaveLength(0);
    expect(result.skill).toMatchObject({ outcome: 'handed-over' });
    expect(result.skill?.reason).toMatch(/not on the after screen/);
  });

  it('near miss: the expectation did not show as new evidence (the verifier alone judged it): the run teaches nothing, and says why', async () => {
    const copy = await withVerdicts(recorded, 'stale', modelStep, (verdicts) => {
      verdicts.expectationOutcome = { outcome: 'inconclusive' };
    });
    const read = readVerifiedRun(copy);
    expect('reason' in read && read.reason).toMatch(/only the model verifier passed it and its expectation did not show as new evidence on the screen \(inconclusive\): the verifier alone judged it/);
  });

  it('near miss: a unit whose contract failed (the verifier overruled nothing here, but a skill must not learn from it): no skill', async () => {
    const copy = await withVerdicts(recorded, 'unit-failed', modelStep, (verdicts) => {
      (verdicts.units[0] as { outcome: { outcome: string } }).outcome.outcome = 'fail';
    });
    const read = readVerifiedRun(copy);
    expect('reason' in read && read.reason).toMatch(/a unit's contract failed/);
  });
});
