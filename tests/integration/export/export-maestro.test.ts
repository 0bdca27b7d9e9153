import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runTask } from '../../../src/agent/run-task.js';
import { simulatorForTask } from '../../../src/bench/simulator-for-task.js';
import { SimDevice } from '../../../src/device/sim-device.js';
import { parseMaestroFlow, readExportSource, renderExport, wdioTarget } from '../../../src/export/index.js';
import { induceSkills } from '../../../src/skills/induce-skills.js';
import { liftRun } from '../../../src/skills/lift-run.js';
import { readVerifiedRun } from '../../../src/skills/read-verified-run.js';
import { saveSkill } from '../../../src/skills/skill-library.js';
import { exportSimRun } from '../../helpers/export-sim-run.js';
import { simSuiteTask, temporaryRunRoot } from '../../helpers/sim-suite.js';

const repoRoot = path.resolve(import.meta.dirname, '..', '..', '..');
const expectedDir = path.join(repoRoot, 'tests', 'fixtures', 'export');
const runRoot = temporaryRunRoot('senseact-export-maestro-');
const tasks = ['clock-alarm-3pm', 'settings-wifi-off', 'clock-add-tokyo'] as const;
const runDirs = new Map<string, string>();

/** An oracle run of a sim task on the in-process simulator, as `bench --device sim` runs it (repeat 0). */
async function oracleRun(id: string): Promise<string> {
  const task = simSuiteTask(id);
  const device = new SimDevice(simulatorForTask(task, { repeat: 0 }));
  try {
    const result = await runTask({ task, mode: 'senseact', policy: 'oracle', device, probe: device, traceRoot: runRoot.dir(), suite: 'export', runId: 'senseact-r0' });
    expect(result.success).toBe(true);
    return result.traceDir;
  } finally {
    await device.close();
  }
}

beforeAll(async () => {
  for (const id of tasks) runDirs.set(id, await oracleRun(id));
}, 60_000);

describe('Maestro flows exported from verified oracle runs', () => {
  it.each(tasks)('%s: matches the hand-written expected flow and validates against the command schema', (id) => {
    const out = path.join(runRoot.dir(), 'maestro');
    mkdirSync(out, { recursive: true });
    const dir = runDirs.get(id) ?? '';
    const { result } = exportSimRun(dir, simSuiteTask(id), 'maestro', out, id);
    const text = result.files[0]?.text ?? '';
    expect(parseMaestroFlow(text)).toMatchObject({ success: true });
    expect(text.replace(dir, '<run>')).toBe(readFileSync(path.join(expectedDir, `${id}.yaml`), 'utf8'));
  });

  it('counts a step with a comment as not exported fully, and says why', () => {
    const { result } = exportSimRun(runDirs.get('settings-wifi-off') ?? '', simSuiteTask('settings-wifi-off'), 'maestro', runRoot.dir(), 'wifi');
    expect(result.steps.map((step) => step.full)).toEqual([true, true, false]);
    expect(result.steps[2]?.comments.join(' ')).toContain('switch state cannot be read');
  });

  it('fails the schema when a command is changed by hand (negative control)', () => {
    const { result } = exportSimRun(runDirs.get('clock-alarm-3pm') ?? '', simSuiteTask('clock-alarm-3pm'), 'maestro', runRoot.dir(), 'broken');
    const text = result.files[0]?.text ?? '';
    expect(parseMaestroFlow(text.replace('- tapOn: Add alarm', '- tapOnn: Add alarm')).success).toBe(false);
    expect(parseMaestroFlow(text.replace('assertVisible: Select time', 'assertVisible:\n    txt: Select time')).success).toBe(false);
  });
});

describe('a skill exports with its parameters as variables', () => {
  it('Maestro env and a parameterised WebdriverIO describe, from the skill induced from a run', () => {
    const run = readVerifiedRun(runDirs.get('clock-alarm-3pm') ?? '');
    if ('reason' in run) throw new Error(run.reason);
    const skill = induceSkills([liftRun(run)], []).skills[0];
    if (!skill) throw new Error('no skill induced');
    const file = saveSkill(path.join(runRoot.dir(), 'skills'), skill);
    const program = readExportSource(file);
    const target = wdioTarget('sim-appium', { 'appium:appPackage': program.app }, repoRoot);
    const flow = renderExport(program, 'maestro', path.join(runRoot.dir(), 'skill'), target).files[0]?.text ?? '';
    const parsed = parseMaestroFlow(flow);
    if (!parsed.success) throw new Error(parsed.problems.join('; '));
    expect(parsed.flow.config.env).toMatchObject({ TIME_HOUR: '3' });
    expect(flow).toContain('${TIME_HOUR} o\'clock');
    expect(flow).not.toContain('3 o\'clock');
    const spec = renderExport(program, 'wdio', path.join(runRoot.dir(), 'skill'), target).files[0]?.text ?? '';
    expect(spec).toContain('for (const params of examples)');
    expect(spec).toContain('params["time.hour"]');
    expect(spec).toMatch(/"time\.hour":"3"/);
  });
});

describe('senseact export (CLI)', () => {
  const cli = (args: string[]) => spawnSync(process.execPath, [path.join(repoRoot, 'bin', 'senseact.js'), 'export', ...args], { encoding: 'utf8', cwd: repoRoot });

  it('prints how many steps exported fully', () => {
    const result = cli([runDirs.get('settings-wifi-off') ?? '', '--to', 'maestro']);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('appId: com.android.settings');
    expect(result.stderr).toContain('3 steps: 2 exported fully, 1 with a comment');
  });

  it('exits 2 with what to do on a folder that is no run, and on an unknown format', () => {
    const noRun = cli([runRoot.dir(), '--to', 'wdio']);
    expect(noRun.status).toBe(2);
    expect(noRun.stderr).toContain('has no trace.jsonl');
    const format = cli([runDirs.get('settings-wifi-off') ?? '', '--to', 'espresso']);
    expect(format.status).toBe(2);
    expect(format.stderr).toContain('use wdio or maestro');
  });
});
