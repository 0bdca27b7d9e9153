// `senseact debug <task> --device sim` runs one task through the composition root and
// then steps through its trace (printed at once without a terminal).
import { describe, expect, it } from 'vitest';
import type { CliIo } from '../../../src/cli/cli-io.js';
import { main } from '../../../src/cli/main.js';
import { temporaryRunRoot } from '../../helpers/sim-suite.js';

// Each run is written under runs/ of a folder of its own, not the repository's: test files run
// side by side, and another one writes under the repository's runs/.
const root = temporaryRunRoot('senseact-debug-live-task-');

async function senseact(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = { stdout: (text) => { stdout += text; }, stderr: (text) => { stderr += text; }, cwd: root.dir(), env: {} };
  const code = await main(args, io);
  return { code, stdout, stderr };
}

describe('senseact debug <task> --device', () => {
  it('runs the task, then shows what the agent saw, committed, expected and got per step', async () => {
    const { code, stdout, stderr } = await senseact(['debug', 'settings-dark-theme', '--device', 'sim', '--policy', 'oracle']);
    expect(code, stderr).toBe(0);
    expect(stderr).toContain('policy: oracle');
    expect(stderr).toContain('settings-dark-theme (senseact): success; its steps follow\n');
    // The reason once, in the header's result line, not again on stderr.
    expect(stdout).toMatch(/\nresult: SUCCESS — all 1 check\(s\) pass/);
    expect(stderr).not.toContain('check(s) pass');
    expect(stdout).toContain('Open Display');
    expect(stdout).toContain('Dark theme');
    // No --model-faults: no model fault in any step; a run that succeeded has no WHY.
    expect(stdout).not.toContain('MODEL FAULT');
    expect(stdout).not.toContain('\nWHY ');
  });

  it('names the target the text view did not have in the step it was missed, and shows each screen once', async () => {
    const { code, stdout, stderr } = await senseact(['debug', 'settings-bluetooth-name-office-phone', '--device', 'sim', '--mode', 'open-loop', '--faults', 'standard', '--policy', 'oracle']);
    expect(code, stderr).toBe(0);
    expect(stderr).toContain('settings-bluetooth-name-office-phone (open-loop): failure');
    expect(stdout).toMatch(/\nGATE {5}OPEN — unresolved-target: no unit of the screen matches the plan's target text="Connection preferences"\n/);
    expect(stdout).toContain('\nWHY      no unit of the screen matches the plan\'s target text="Connection preferences"; nothing was executed\n');
    // One SEEN line per step: settle polls are counted, not repeated.
    const steps = stdout.split(/\n(?=── step )/).slice(1);
    expect(steps.length).toBeGreaterThan(2);
    for (const step of steps) expect(step.match(/^SEEN /gm)).toHaveLength(1);
    expect(stdout).toMatch(/SEEN {5}com\.android\.settings\/\.Settings, settled after \d+ polls/);
  });

  it('with --model-faults, shows each injected model error in the step it changed', async () => {
    const { code, stdout, stderr } = await senseact(['debug', 'settings-brightness-zero', '--device', 'sim', '--policy', 'oracle', '--model-faults', 'standard']);
    expect(code, stderr).toBe(0);
    const faults = stdout.match(/MODEL FAULT injected: .*/g) ?? [];
    expect(faults).toHaveLength(2);
    expect(faults[0]).toMatch(/^MODEL FAULT injected: hallucinated-unit in the planner's reply — unit n[0-9a-f]{4} → n[0-9a-f]{4}$/);
    expect(faults[1]).toContain('invalid-json');
    // Under the step's plan, before what the faulty reply planned.
    const step = stdout.split(/\n(?=── step )/).find((text) => text.includes('hallucinated-unit')) ?? '';
    expect(step.indexOf('MODEL FAULT')).toBeGreaterThan(step.indexOf('\nPLAN '));
    expect(step.indexOf('MODEL FAULT')).toBeLessThan(step.indexOf('\nDONE '));
    // The step's WHY names the fault.
    expect(step).toMatch(/\nWHY .*injected model fault \(hallucinated-unit/);
  });

  it('names an unknown --model-faults profile and the ones there are', async () => {
    const { code, stderr } = await senseact(['debug', 'settings-brightness-zero', '--device', 'sim', '--policy', 'oracle', '--model-faults', 'heavy']);
    expect(code).toBe(2);
    expect(stderr).toContain('--model-faults: unknown model fault profile "heavy"; choose from none, standard');
  });

  it('names the suite and the missing task', async () => {
    const { code, stderr } = await senseact(['debug', 'no-such-task', '--device', 'sim', '--policy', 'oracle']);
    expect(code).toBe(2);
    expect(stderr).toContain('suite "sim" has no task "no-such-task"');
  });
});
