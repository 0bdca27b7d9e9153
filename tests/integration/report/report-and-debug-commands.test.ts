import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CliIo } from '../../../src/cli/cli-io.js';
import { createDebugCommand } from '../../../src/cli/commands/debug-command.js';
import { main } from '../../../src/cli/main.js';
import { SenseActError } from '../../../src/util/senseact-error.js';
import { hostileScript, writeSyntheticBench } from './synthetic-run-folder.js';

function bufferIo(cwd: string) {
  const output = { stdout: '', stderr: '' };
  const io: CliIo = { stdout: (text) => { output.stdout += text; }, stderr: (text) => { output.stderr += text; }, cwd, env: {} };
  return { io, output };
}

describe('senseact report and senseact debug (synthetic run folder)', () => {
  let root: string;
  let benchDir: string;
  let traceDir: string;
  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'senseact-cli-report-'));
    benchDir = path.join(root, 'bench');
    await writeSyntheticBench(benchDir, 1, { screenshots: false, hostile: true });
    traceDir = path.join(benchDir, 'traces', 'note-0', 'senseact-r0');
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('report writes report.html for a bench dir given relative to cwd', async () => {
    const { io, output } = bufferIo(root);
    expect(await main(['report', 'bench'], io)).toBe(0);
    expect(output.stdout).toContain(`report: ${path.join(benchDir, 'report.html')}\n`);
    expect(output.stdout).toMatch(/summary \d+ bytes; 1 run pages in .* \(\d+ bytes, largest \d+\); 0 screenshots linked from the run folders/);
    expect(existsSync(path.join(benchDir, 'report.html'))).toBe(true);
  });

  it('report says what to pass when the dir has no results.json', async () => {
    const { io, output } = bufferIo(root);
    expect(await main(['report', 'bench/traces'], io)).toBe(2);
    expect(output.stderr).toMatch(/no results\.json in .*bench\/traces: pass the output dir of a senseact bench run/);
  });

  it('report refuses a run folder, and a debug folder of run folders, saying to step through them with debug', async () => {
    const one = bufferIo(root);
    expect(await main(['report', 'bench/traces/note-0/senseact-r0'], one.io)).toBe(2);
    expect(one.output.stderr).toContain(`this is one run's folder (it holds trace.jsonl); report builds its pages from a bench output dir`);
    expect(one.output.stderr).toContain(`Step through this run with: npx senseact debug ${traceDir}\n`);
    // The layout `senseact debug --device` writes: traces/<task>/<mode>-r0 and no results.json.
    const debugDir = path.join(root, 'debug-note-0');
    await cp(traceDir, path.join(debugDir, 'traces', 'note-0', 'senseact-r0'), { recursive: true });
    const many = bufferIo(root);
    expect(await main(['report', 'debug-note-0'], many.io)).toBe(2);
    expect(many.output.stderr).toContain('it holds 1 run folder(s) under traces/ but no results');
    expect(many.output.stderr).toContain(`Step through a run with: npx senseact debug ${path.join(debugDir, 'traces', 'note-0', 'senseact-r0')}\n`);
    expect(existsSync(path.join(debugDir, 'report.html'))).toBe(false);
  });

  async function debug(args: string[], waitForEnter: (() => Promise<void>) | null) {
    const { io, output } = bufferIo(root);
    const program = new Command('senseact').exitOverride();
    let exitCode = -1;
    createDebugCommand({ waitForEnter })(program, io, (code) => { exitCode = code; });
    try {
      await program.parseAsync(['debug', ...args], { from: 'user' });
    } catch (error) {
      if (!SenseActError.isInstance(error)) throw error;
      return { exitCode: 2, ...output, stderr: error.message };
    }
    return { exitCode, ...output };
  }

  it('debug replays every step: seen, plan and expectation, done, the change in words, verdict, why', async () => {
    const result = await debug([traceDir], null);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain(`task note-0: Create a note ${hostileScript}`);
    expect(result.stdout).toContain('result: SUCCESS');
    expect(result.stdout).toContain('2 loop steps recorded (0–1; --step <n> shows one), 2 action(s) executed');
    expect(result.stdout).not.toContain('suite traces');
    const [, first, second] = result.stdout.split(/\n(?=── step )/);
    expect(first).toMatch(/^── step 0 of 1 \(steps\/000\) ──\nSEEN {5}com\.example\.notes\/\.Main, settled \(12 ms\)\n {2}\| app com\.example\.notes\/\.Main/);
    expect(first).toContain('\nPLAN     open a new note');
    expect(first).toContain('\nEXPECT   {"atom":"exists"');
    expect(first).toContain('\n  commitment: [{"unit":"n1a2b","type":"click"}]\nDONE     ');
    // The change in words, not the delta's JSON.
    expect(first).toContain("\nCHANGE   partial-change\n  text of 'Save' text: 'Notes ");
    expect(first).not.toContain('delta: {');
    expect(first).toContain('\nVERDICT  FAIL');
    expect(first).toContain('\nGATE     OPEN');
    expect(first).toMatch(/\nWHY {6}expectation /);
    // A step that went as planned has no WHY (negative control).
    expect(second).toContain('\nVERDICT  PASS');
    expect(second).toContain('surface: STOP (surface-changed)');
    expect(second).not.toContain('\nWHY ');
  });

  it('debug waits for Enter between steps when interactive, and --step shows one step', async () => {
    let waits = 0;
    const interactive = await debug([path.join(traceDir, 'trace.jsonl')], async () => { waits++; });
    expect(waits).toBe(1);
    expect(interactive.stdout).toContain('[Enter: next step]');
    const one = await debug([traceDir, '--step', '1'], null);
    expect(one.stdout).toContain('── step 1 ');
    expect(one.stdout).not.toContain('── step 0 ');
  });

  it('debug names the problem: missing path, a bench dir instead of a run, a step that does not exist', async () => {
    expect((await debug([path.join(root, 'nope')], null)).stderr).toMatch(/nope does not exist; pass a run folder/);
    expect((await debug([benchDir], null)).stderr).toMatch(/no trace\.jsonl in .*bench \(this is a bench output dir: pick one run under its traces\/ folder/);
    expect((await debug([traceDir, '--step', '7'], null)).stderr).toBe('--step: the run has no step 7; its steps are 0, 1');
    expect((await debug([traceDir, '--step', 'x'], null)).stderr).toBe('--step: expected a step number ≥ 0, got "x"');
  });

  it('debug reads nothing a link in the run folder points at outside it, and says so', async () => {
    const copy = path.join(root, 'shared-run');
    await cp(traceDir, copy, { recursive: true });
    const secret = path.join(root, 'secret.json');
    await writeFile(secret, JSON.stringify({ request: 'OUTSIDE-SECRET' }));
    await mkdir(path.join(copy, 'steps', '000', 'model-calls'), { recursive: true });
    await symlink(secret, path.join(copy, 'steps', '000', 'model-calls', '009.json'));
    const result = await debug([copy], null);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/warning: steps\/000\/model-calls\/009\.json leads outside the run folder/);
    expect(result.stdout).not.toContain('OUTSIDE-SECRET');
    // Control: the same folder without the link replays without a warning.
    await rm(path.join(copy, 'steps', '000', 'model-calls', '009.json'));
    expect((await debug([copy], null)).stdout).not.toContain('leads outside');
  });
});
