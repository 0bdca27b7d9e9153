// Skills under label drift (docs/skills.md, "Drift"): labels renamed (the simulator's relabel
// fault) or swapped between sibling buttons (swap-labels). Without vision (senseact-text),
// a skill induced from a clean oracle run hands over instead of acting on a wrong element;
// the oracle planner recovers; `skills induce --dir` grafts the recovery as a branch; the
// next run under the same drift finishes with no planner call. With vision (senseact), the
// renamed target is located by vision from the recorded query (no planner call, a counted
// vision call); a label that names another control still hands over, vision or not.
// Oracle results (no model is called; the oracle's vision answers from the simulator's
// ground truth, where the renamed control keeps its name).
import { cpSync, existsSync, readFileSync, readdirSync } from 'node:fs';
import * as path from 'node:path';
import { Command } from 'commander';
import { beforeAll, describe, expect, it } from 'vitest';
import { runTask } from '../../../src/agent/run-task.js';
import { simulatorForTask } from '../../../src/bench/simulator-for-task.js';
import type { CliIo } from '../../../src/cli/cli-io.js';
import { skillsCommand } from '../../../src/cli/commands/skills-command.js';
import { SimDevice } from '../../../src/device/sim-device.js';
import { ScriptedLanguageModel } from '../../../src/model/scripted-language-model.js';
import { perceive } from '../../../src/perception/perceive.js';
import type { FaultConfig, Simulator } from '../../../src/sim/index.js';
import { loadSkills } from '../../../src/skills/skill-library.js';
import { isBranchPoint, type Skill } from '../../../src/skills/skill-schema.js';
import type { Task } from '../../../src/tasks/task-schema.js';
import { createOraclePolicy } from '../../../src/agent/policies/oracle/oracle-models.js';
import { viewFocusWords } from '../../../src/perception/render-view.js';
import type { AgentModels } from '../../../src/agent/agent-session.js';
import type { Device } from '../../../src/device/device.js';
import type { VisionModel } from '../../../src/model/vision-model.js';
import { readTrace } from '../../../src/trace/read-trace.js';
import { parseHierarchy } from '../../../src/ui/parse-hierarchy.js';
import { parseQuery } from '../../../src/verify/parse-predicate.js';
import { resolveUnit } from '../../../src/verify/resolve-unit.js';
import { simSuiteTask, temporaryRunRoot } from '../../helpers/sim-suite.js';

const root = temporaryRunRoot('senseact-skill-drift-');
const clock = 'com.google.android.deskclock';
/** Every control whose label holds a renamed word shows it renamed: both OK buttons of the alarm flow read "Confirm". */
const renamed: FaultConfig = { relabel: { rate: 1 } };
/** Sibling buttons trade labels: the time picker's AM reads "PM" and its PM reads "AM" (its Cancel and OK likewise). */
const swapped: FaultConfig = { 'swap-labels': { rate: 1 } };

/**
 * The oracle's models (built as `runTask` builds them) with a vision model that misses
 * the first question it is asked: "not found" (a VLM that overlooks a target once).
 */
function oracleWithVisionMissingOnce(task: Task, device: SimDevice): { models: AgentModels; device: Device } {
  const oracle = createOraclePolicy(task, { react: false, probe: device, perception: { viewFocus: viewFocusWords(task.instruction) } });
  let asked = 0;
  const vision: VisionModel = {
    provider: 'scripted',
    modelName: (role) => oracle.models.vision.modelName(role),
    generate: async (request) => {
      asked += 1;
      if (asked > 1) return oracle.models.vision.generate(request);
      return { text: JSON.stringify({ unit: null, reason: 'not found', alreadyDone: false }), model: 'missing-once', usage: { promptTokens: 1, completionTokens: 1 }, latencyMs: 0 };
    },
  };
  return { models: { ...oracle.models, vision }, device: oracle.watch(device) };
}

async function run(task: Task, options: { skills?: readonly Skill[]; faults?: FaultConfig; planner?: ScriptedLanguageModel; runId: string; mode?: 'senseact' | 'senseact-text'; visionMissingOnce?: true }): Promise<{ result: Awaited<ReturnType<typeof runTask>>; simulator: Simulator }> {
  const simulator = simulatorForTask(task, { seed: 3, ...(options.faults ? { faults: options.faults } : {}) });
  const device = new SimDevice(simulator);
  const missing = options.visionMissingOnce ? oracleWithVisionMissingOnce(task, device) : undefined;
  try {
    const result = await runTask({
      task, mode: options.mode ?? 'senseact', policy: options.planner || missing ? 'llm' : 'oracle', device: missing?.device ?? device, probe: device, traceRoot: root.dir(), suite: 'drift', runId: options.runId,
      ...(options.planner ? { models: { planner: options.planner } } : {}),
      ...(missing ? { models: missing.models } : {}),
      ...(options.skills ? { skills: options.skills } : {}),
    });
    return { result, simulator };
  } finally {
    await device.close();
  }
}

/** `senseact skills induce <args>` in-process, as the CLI runs it. */
async function induce(args: readonly string[]): Promise<{ exitCode: number; stdout: string }> {
  let stdout = '';
  let exitCode = -1;
  const io: CliIo = { stdout: (text) => { stdout += text; }, stderr: (text) => { stdout += text; }, cwd: root.dir(), env: {} };
  const program = new Command('senseact').exitOverride();
  skillsCommand(program, io, (code) => { exitCode = code; });
  await program.parseAsync(['skills', 'induce', ...args], { from: 'user' });
  return { exitCode, stdout };
}

function skillsIn(folder: string): Skill[] {
  return loadSkills(path.join(root.dir(), folder));
}

/** How many units were acted on before the skill replay ended (its hand-over or completion). */
function skillActs(traceDir: string): number {
  const events = readTrace(traceDir).events;
  const end = events.findIndex((event) => event.type === 'skill-end');
  return events.slice(0, end).filter((event) => event.type === 'act-end').length;
}

describe('a skill under label drift', () => {
  const task = simSuiteTask('clock-alarm-3pm-meeting');
  let drifted: Awaited<ReturnType<typeof run>>;

  beforeAll(async () => {
    const teacher = await run(task, { runId: 'teacher' });
    expect(teacher.result.success).toBe(true);
    const induced = await induce([teacher.result.traceDir, '--out', 'skills']);
    expect(induced.exitCode).toBe(0);
    // Kept apart: the skill as the clean run taught it, before any graft.
    cpSync(path.join(root.dir(), 'skills'), path.join(root.dir(), 'skills-ungrafted'), { recursive: true });
    const [skill] = skillsIn('skills') as [Skill];
    expect(JSON.stringify(skill.steps)).toContain('text=\\"OK\\"');
    expect(skill.steps.some(isBranchPoint)).toBe(false);
  });

  it('renamed labels, vision misses the target once: the skill hands over where its target is gone, having acted only on steps it verified, and the oracle planner recovers', async () => {
    drifted = await run(task, { skills: skillsIn('skills'), faults: renamed, runId: 'renamed', visionMissingOnce: true });
    const { result, simulator } = drifted;
    expect(simulator.faultLog().map((event) => event.detail)).toContain('android.widget.Button "OK" shown as "Confirm"');
    expect(result.skill).toMatchObject({ outcome: 'handed-over', steps: 2 });
    expect(result.skill?.reason).toContain('commit target text="OK" is not on the screen; vision: vision could not locate the target either');
    // Every round the skill acted in was verified; the third asked vision, which did not find the target, and acted on nothing (the renamed OK kept its id, yet shows another label: no fallback).
    const skillSteps = readTrace(result.traceDir).events.filter((event) => event.type === 'skill-step-end');
    expect(skillSteps.map((event) => event.outcome)).toEqual(['pass', 'pass', 'fail']);
    expect(skillActs(result.traceDir)).toBe(2);
    // The planner went on from there and the task passed; without a graft the drifted run is not zero-model (negative control for the last test).
    expect(result.llmCalls).toBeGreaterThan(0);
    expect(result.success).toBe(true);
  });

  it('skills induce with the existing --dir (the folder the first induce filled with --out, its older name) grafts the recovery as a branch of the skill', async () => {
    // --dir and --out naming two folders is refused, and nothing is written (the same folder is accepted below).
    const both = await induce([drifted.result.traceDir, '--dir', 'skills', '--out', 'elsewhere']);
    expect(both).toEqual({ exitCode: 2, stdout: 'senseact skills induce: --dir skills and --out elsewhere name two folders; --out is the older name of --dir: give one\n' });
    expect(existsSync(path.join(root.dir(), 'elsewhere'))).toBe(false);
    const induced = await induce([drifted.result.traceDir, '--dir', 'skills', '--out', path.join(root.dir(), 'skills')]);
    expect(induced.exitCode).toBe(0);
    expect(induced.stdout).toMatch(/merged into deskclock-set-an-alarm-[a-z-]+, 2 new branch point\(s\)/);
    const files = readdirSync(path.join(root.dir(), 'skills'));
    expect(files).toHaveLength(1);
    const yaml = readFileSync(path.join(root.dir(), 'skills', files[0] as string), 'utf8');
    expect(yaml).toContain('branches:');
    expect(yaml).toContain('target: text="Confirm"');
    expect(yaml).toContain(`note: from ${drifted.result.traceDir}`);
    const [skill] = skillsIn('skills') as [Skill];
    const alternatives = skill.steps.filter(isBranchPoint).map((point) => point.branches.map((branch) => JSON.stringify(branch.steps)));
    // Each branch point keeps the clean run's way (OK) and adds the drifted one (Confirm).
    expect(alternatives).toHaveLength(2);
    for (const [clean, recovered] of alternatives) {
      expect(clean).toContain('text=\\"OK\\"');
      expect(recovered).toContain('text=\\"Confirm\\"');
    }
  });

  it('the grafted branch makes the next run under the same drift pass with zero planner calls', async () => {
    const { result } = await run(task, { skills: skillsIn('skills'), faults: renamed, runId: 'renamed-again', mode: 'senseact-text' });
    expect(result.skill).toMatchObject({ outcome: 'completed' });
    expect(result.llmCalls + result.vlmCalls).toBe(0);
    expect(result.success).toBe(true);
    const intents = readTrace(result.traceDir).events.filter((event) => event.type === 'skill-step-end').map((event) => event.outcome);
    expect(intents.every((outcome) => outcome === 'pass')).toBe(true);
  });

  it('negative control: the same drift with the ungrafted skill is not zero-model; the grafted skill still runs the clean way on a clean screen', async () => {
    const ungrafted = await run(task, { skills: skillsIn('skills-ungrafted'), faults: renamed, runId: 'renamed-ungrafted', mode: 'senseact-text' });
    expect(ungrafted.result.skill?.outcome).toBe('handed-over');
    expect(ungrafted.result.llmCalls).toBeGreaterThan(0);
    const clean = await run(task, { skills: skillsIn('skills'), runId: 'clean-grafted', mode: 'senseact-text' });
    expect(clean.result.skill?.outcome).toBe('completed');
    expect(clean.result.llmCalls).toBe(0);
    expect(clean.result.success).toBe(true);
  });

  it('renamed labels, with vision: vision locates the renamed OK from the recorded query; the skill completes with no planner call, and vision was counted', async () => {
    const { result } = await run(task, { skills: skillsIn('skills-ungrafted'), faults: renamed, runId: 'renamed-vision' });
    expect(result.skill).toMatchObject({ outcome: 'completed' });
    expect(result.plannerCalls).toBe(0);
    expect(result.vlmCalls).toBeGreaterThan(0);
    expect(result.gateReasons['unresolved-target']).toBeGreaterThan(0);
    expect(result.success).toBe(true);
    // The units vision located are the renamed buttons, each checked by the step's own expectation afterwards.
    const located = readTrace(result.traceDir).events.filter((event) => event.type === 'skill-step-end').map((event) => event.outcome);
    expect(located.every((outcome) => outcome === 'pass')).toBe(true);
  });

  it('swapped labels, with vision: the label the skill looks for sits on another control; it hands over without touching it (vision is not asked over the recorded id)', async () => {
    // A planner that gives up at once: whatever state the run ends in is the skill's doing.
    const planner = new ScriptedLanguageModel({ replies: () => JSON.stringify({ intent: 'Give up', finish: true }) });
    const { result, simulator } = await run(task, { skills: skillsIn('skills-ungrafted'), faults: swapped, planner, runId: 'swapped' });
    expect(simulator.faultLog().some((event) => event.kind === 'swap-labels' && event.detail.includes('"AM", "PM"'))).toBe(true);
    expect(result.skill?.outcome).toBe('handed-over');
    expect(result.vlmCalls).toBe(0);
    expect(result.skill?.reason).toContain('toggle target is=CompoundButton, text="PM" now names another control ("PM"): the recorded id="material_clock_period_pm_button" is on another node');
    expect(readTrace(result.traceDir).events.filter((event) => event.type === 'skill-step-end').map((event) => event.outcome)).toEqual(['pass', 'pass']);
    // The step was grounded as a whole before any of it ran: the minute is not picked, AM stays checked, the picker is open, no alarm added.
    expect(skillActs(result.traceDir)).toBe(2);
    const screen = perceive(parseHierarchy(simulator.pageSource('appium-uia2'), { packageName: clock, activity: '' }));
    expect(screen.tree.nodes.some((node) => node.text === 'Select time')).toBe(true);
    expect((simulator.appState(clock) as { alarms: unknown[] }).alarms).toHaveLength(2);
    // Negative control: the label alone names exactly one control on this screen, and it is the AM button (checked: a tap-to-check replay would have "verified" it).
    const byLabel = resolveUnit(parseQuery('is=CompoundButton, text="PM"'), screen).units;
    expect(byLabel).toHaveLength(1);
    const node = screen.tree.nodes[byLabel[0]?.members[0]?.node as number];
    expect(node?.resourceId).toContain('material_clock_period_am_button');
    expect(node?.checked).toBe(true);
  });
});
