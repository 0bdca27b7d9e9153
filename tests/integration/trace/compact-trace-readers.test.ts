// Every reader of a run takes a closed compact trace (trace.jsonl.gz beside the bench's
// store): debug, report, skills induce, export and bench --resume, on one real bench run;
// with its trace removed, each says so (negative control).
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CliIo } from '../../../src/cli/cli-io.js';
import { main } from '../../../src/cli/main.js';

const repoRoot = path.resolve(import.meta.dirname, '../../..');
let folder: string;
let out: string;
let runFolder: string;

async function cli(args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const output = { stdout: '', stderr: '' };
  const io: CliIo = { stdout: (text) => { output.stdout += text; }, stderr: (text) => { output.stderr += text; }, cwd: repoRoot, env: {} };
  const code = await main([...args], io);
  return { code, ...output };
}

const bench = (...more: string[]): Promise<{ code: number; stdout: string; stderr: string }> => cli(['bench', '--suite', 'sim', '--tasks', 'settings-wifi-off', '--mode', 'senseact', '--device', 'sim', '--policy', 'oracle', '--out', out, ...more]);

beforeAll(async () => {
  folder = await mkdtemp(path.join(tmpdir(), 'senseact-compact-readers-'));
  out = path.join(folder, 'bench');
  expect((await bench()).code).toBe(0);
  const results = JSON.parse(readFileSync(path.join(out, 'results.json'), 'utf8')) as { tasks: { traceDir: string }[] };
  runFolder = path.join(out, results.tasks[0]!.traceDir);
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe('a closed compact trace', () => {
  it('is one trace.jsonl.gz that debug, report, skills induce, export and --resume read', async () => {
    expect(readdirSync(runFolder)).toEqual(['trace.jsonl.gz']);
    const debug = await cli(['debug', runFolder]);
    expect(debug.code).toBe(0);
    expect(debug.stdout).toMatch(/VERDICT {2}PASS/);
    // The run's trace.jsonl named as before it closed (a path from habit, or from the bench's hints) reads the .gz.
    const byOldName = await cli(['debug', path.join(runFolder, 'trace.jsonl')]);
    expect(byOldName.code, byOldName.stderr).toBe(0);
    expect(byOldName.stdout).toBe(debug.stdout);
    expect((await cli(['report', out])).code).toBe(0);
    const page = readFileSync(path.join(out, 'report', 'settings-wifi-off', 'senseact-r0.html'), 'utf8');
    expect(page).toContain('trace.jsonl.gz</a>');
    expect(page).toMatch(/<h2>step 0<\/h2>/);
    const induced = await cli(['skills', 'induce', out, '--out', path.join(folder, 'skills')]);
    expect(induced.code, induced.stderr).toBe(0);
    expect(induced.stdout).toContain('1 run folders: 1 used, 0 skipped; 1 skills in');
    expect(readdirSync(path.join(folder, 'skills')).filter((name) => name.endsWith('.yaml'))).toHaveLength(1);
    const exported = await cli(['export', runFolder, '--to', 'maestro', '--out', path.join(folder, 'flow.yaml')]);
    expect(exported.code, exported.stderr).toBe(0);
    expect(existsSync(path.join(folder, 'flow.yaml'))).toBe(true);
    const resumed = await bench('--resume');
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(`${resumed.stdout}${resumed.stderr}`).toContain('1/1 runs, 1 ok, 0 errors, 0 running (resumed: 1 runs already done)');
    expect(readdirSync(runFolder)).toEqual(['trace.jsonl.gz']);
  });

  it('negative control: the same run folder without its trace is refused by debug, found by no induce, not exported', async () => {
    rmSync(path.join(runFolder, 'trace.jsonl.gz'));
    const debug = await cli(['debug', runFolder]);
    expect(debug.code).toBe(2);
    expect(debug.stderr).toContain('no trace.jsonl in');
    expect((await cli(['debug', path.join(runFolder, 'trace.jsonl')])).stderr).toMatch(/trace\.jsonl does not exist; pass a run folder/);
    const induced = await cli(['skills', 'induce', out, '--out', path.join(folder, 'skills-none')]);
    expect(induced.code).toBe(1);
    expect(induced.stdout).toContain('0 run folders: 0 used, 0 skipped; 0 skills in');
    expect((await cli(['export', runFolder, '--to', 'maestro', '--out', path.join(folder, 'none.yaml')])).code).toBe(2);
  });
});
