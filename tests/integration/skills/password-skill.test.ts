// A skill with a password parameter (docs/skills.md): the trace holds a typed password only as
// its placeholder, in the instruction too, so induction lifts the placeholder into a
// `password` parameter. The skill file never holds the password; the replay takes it from
// the instruction at match time, types it into the password field, and no file of the
// replay keeps it — not even when the replay hands over before typing it.
import { cp, readFile, writeFile } from 'node:fs/promises';
import { readdirSync, readFileSync } from 'node:fs';
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
import { passwordPlaceholder, Redactor } from '../../../src/util/redactor.js';
import { simSuiteTask as suiteTask, temporaryRunRoot } from '../../helpers/sim-suite.js';

const runRoot = temporaryRunRoot('senseact-password-skill-');
const settings = 'com.android.settings';
const taughtPassword = 'Hunter2-correct-horse';
const otherPassword = 'Tr0ub4dor-and-3-bells';

/** The suite task with another password; no reference solution (only the skill plays it). */
function withPassword(password: string, id: string): Task {
  const { solution: _solution, ...base } = suiteTask('settings-wifi-join-cafenet');
  return taskSchema.parse({ ...base, id, instruction: `Connect to the Wi-Fi network CafeNet with the password ${password}` });
}

function filesUnder(root: string): string[] {
  return readdirSync(root, { withFileTypes: true, recursive: true }).filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
}

async function replay(task: Task, skills: readonly Skill[], runId: string) {
  const simulator = simulatorForTask(task, { seed: 6 });
  const device = new SimDevice(simulator);
  const planner = new ScriptedLanguageModel({ replies: () => JSON.stringify({ intent: 'Give up', finish: true }) });
  const verifier = new ScriptedLanguageModel({ replies: () => JSON.stringify({ verdict: 'pass', reason: 'scripted pass' }) });
  const root = path.join(runRoot.dir(), runId);
  try {
    const result = await runTask({ task, mode: 'senseact', policy: 'llm', device, probe: device, traceRoot: root, suite: 'password', runId, models: { planner, verifier }, skills, redactor: new Redactor() });
    const network = (simulator.appState(settings) as { network: { wifiNetwork: string } }).network.wifiNetwork;
    return { result, planner, verifier, network, root };
  } finally {
    await device.close();
  }
}

function plainSteps(skill: Skill): SkillStep[] {
  return skill.steps.filter((entry): entry is SkillStep => !isBranchPoint(entry));
}

/** A copy of the teacher's run folder with one file rewritten. */
async function edited(recorded: VerifiedRun, name: string, file: string, change: (text: string) => string): Promise<string> {
  const copy = path.join(runRoot.dir(), name);
  await cp(recorded.dir, copy, { recursive: true });
  const target = path.join(copy, file);
  const before = await readFile(target, 'utf8');
  const after = change(before);
  expect(after).not.toBe(before);
  await writeFile(target, after);
  return copy;
}

describe('a skill that types a password', () => {
  let recorded: VerifiedRun;
  let skill: Skill;
  let skillsDir: string;

  beforeAll(async () => {
    const task = suiteTask('settings-wifi-join-cafenet');
    expect(task.instruction).toContain(taughtPassword);
    const device = new SimDevice(simulatorForTask(task, { seed: 6 }));
    const result = await runTask({ task, mode: 'senseact', policy: 'oracle', device, probe: device, traceRoot: runRoot.dir(), suite: 'password', runId: 'teacher', redactor: new Redactor() });
    await device.close();
    expect(result.success).toBe(true);
    const read = readVerifiedRun(result.traceDir);
    if ('reason' in read) throw new Error(read.reason);
    recorded = read;
    expect(recorded.instruction).toBe(`Connect to the Wi-Fi network CafeNet with the password ${passwordPlaceholder}`);
    skillsDir = path.join(runRoot.dir(), 'skills');
    saveSkill(skillsDir, induceSkills([liftRun(read)]).skills[0] as Skill);
    skill = loadSkills(skillsDir)[0] as Skill;
  });

  it('lifts the placeholder into a password parameter; the skill file holds no password', () => {
    expect(skill.template).toBe('Connect to the Wi-Fi network {option} with the password {password}');
    expect(skill.parameters['password']).toEqual({ type: 'password', example: passwordPlaceholder });
    const fill = plainSteps(skill).flatMap((step) => step.actions).find((action) => action.unit === 'fill');
    expect(fill).toMatchObject({ target: 'hint="Password"', value: '{password}' });
    // Its field is masked, so only the model verifier could pass that step: it is marked so.
    expect(plainSteps(skill).find((step) => step.actions.includes(fill as never))?.verifier).toBe('model');
    const files = filesUnder(skillsDir);
    expect(files).toHaveLength(1);
    expect(files.filter((file) => readFileSync(file, 'utf8').includes(taughtPassword))).toEqual([]);
  });

  it('replays another password from the instruction with no planner call: joined, and no file of the replay holds it', async () => {
    const { result, planner, network, root } = await replay(withPassword(otherPassword, 'cafenet-other'), [skill], 'other');
    expect(result.skill).toMatchObject({ outcome: 'completed', skill: skill.name });
    expect(planner.calls).toHaveLength(0);
    expect(network).toBe('CafeNet');
    expect(result.success).toBe(true);
    const typed = readTrace(result.traceDir).events.filter((event) => event.type === 'act-end' && event.action['type'] === 'type');
    expect(typed.map((event) => (event.type === 'act-end' ? event.action['text'] : ''))).toEqual([passwordPlaceholder]);
    const files = filesUnder(root);
    expect(files.length).toBeGreaterThan(10);
    expect(files.filter((file) => readFileSync(file).includes(otherPassword))).toEqual([]);
    // Negative control: the trace still says what was bound, the password redacted.
    expect(readFileSync(path.join(result.traceDir, 'trace.jsonl'), 'utf8')).toMatch(/"bindings":\{"option":"CafeNet","password":"\[(password|REDACTED)\]"\}/);
  });

  it('a replay that hands over before typing leaves the password in no file either', async () => {
    const broken: Skill = { ...skill, steps: [{ intent: 'Open a page that is not there', actions: [{ unit: 'click', target: 'text="No such page"' }] }, ...skill.steps] };
    const { result, root } = await replay(withPassword(otherPassword, 'cafenet-handover'), [broken], 'handover');
    expect(result.skill).toMatchObject({ outcome: 'handed-over', steps: 0 });
    expect(filesUnder(root).filter((file) => readFileSync(file).includes(otherPassword))).toEqual([]);
  });

  it('negative control: a password at the very end before a full stop binds nothing (the stop may be part of it)', async () => {
    const { result } = await replay(withPassword(`${otherPassword}.`, 'cafenet-stop'), [skill], 'stop');
    expect(result.skill?.outcome).toBe('no-match');
  });

  it('near miss: two passwords in one instruction are redacted alike: no skill, and induce says why', async () => {
    const copy = await edited(recorded, 'two-passwords', 'trace.jsonl', (text) => text.replace(`the password ${passwordPlaceholder}"`, `the password ${passwordPlaceholder} or ${passwordPlaceholder}"`));
    const read = readVerifiedRun(copy);
    expect('reason' in read && read.reason).toMatch(/holds 2 passwords, redacted alike/);
  });

  it('near miss: a password the instruction does not give: no skill', async () => {
    const copy = await edited(recorded, 'not-given', 'trace.jsonl', (text) => text.replace(` with the password ${passwordPlaceholder}"`, ' with the saved password"'));
    const read = readVerifiedRun(copy);
    expect('reason' in read && read.reason).toMatch(/typed a password the instruction does not give/);
  });

  it('near miss: the password typed into a field that is no password field: no skill', async () => {
    const fillRound = readTrace(recorded.dir).events.find((event) => event.type === 'commitment-end' && JSON.stringify(event.units).includes(passwordPlaceholder));
    const screen = `steps/${String((fillRound?.step ?? 1) - 1).padStart(3, '0')}/after.xml`;
    const copy = await edited(recorded, 'plain-field', screen, (xml) => xml.replace('password="true"', 'password="false"'));
    const read = readVerifiedRun(copy);
    expect('reason' in read && read.reason).toMatch(/typed the password into fill "[^"]+", which is no password field/);
  });
});
