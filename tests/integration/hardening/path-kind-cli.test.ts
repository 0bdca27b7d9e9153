// A folder where the CLI reads or writes a file (or a file where it makes a folder) is
// bad input: exit 2 and a message naming the path and what it should be, never an
// EISDIR/EEXIST stack trace. Negative controls: the same commands on the right kind of
// path do not exit 2.
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../../src/cli/main.js';
import { temporaryRunRoot } from '../../helpers/sim-suite.js';
import { writeSyntheticBench } from '../report/synthetic-run-folder.js';

const root = temporaryRunRoot('senseact-path-kind-');
const repoRoot = path.resolve(import.meta.dirname, '../../..');

async function cli(args: readonly string[], env: Record<string, string> = {}): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(args, { stdout: (text) => { out += text; }, stderr: (text) => { err += text; }, cwd: root.dir(), env });
  return { code, out, err };
}

/** Runs the command and expects exit 2 with a message naming `named` as a folder (or a file) of the wrong kind. */
async function expectPathKind(args: readonly string[], named: string, found: 'folder' | 'file', env: Record<string, string> = {}): Promise<void> {
  const run = await cli(args, env);
  expect(run.err).not.toMatch(/^\s+at /m);
  expect(run.err).toContain(`${named} is a ${found}`);
  expect(run.code).toBe(2);
}

const bench = (...extra: string[]) => ['bench', '--suite', 'sim', '--tasks', 'settings-airplane-on', '--mode', 'senseact', '--device', 'sim', ...extra];

describe('a path of the wrong kind', () => {
  it('a folder for a cassette, a device profile, an app memory file or a skill file: exit 2 naming it', async () => {
    const folder = path.join(root.dir(), 'D');
    await mkdir(folder);
    await expectPathKind(['cassette', folder], `cassette ${folder}`, 'folder');
    await expectPathKind(bench('--policy', 'llm', '--out', path.join(root.dir(), 'o1')), `cassette ${folder}`, 'folder', { SENSEACT_CASSETTE: `replay:${folder}` });
    await expectPathKind(bench('--policy', 'llm', '--out', path.join(root.dir(), 'o2')), `cassette ${folder}`, 'folder', { SENSEACT_CASSETTE: `record:${folder}`, OPENAI_API_KEY: 'sk-test' });
    await expectPathKind(['devices', 'check', folder], `device profile ${folder}`, 'folder');
    await expectPathKind(['observe', folder], `device profile ${folder}`, 'folder');
    await expectPathKind(bench('--policy', 'oracle', '--device', folder, '--out', path.join(root.dir(), 'o3')), `device profile ${folder}`, 'folder');
    await mkdir(path.join(root.dir(), 'memory', 'com.x.json'), { recursive: true });
    await expectPathKind(['memory', 'list', '--dir', path.join(root.dir(), 'memory')], `app memory file ${path.join(root.dir(), 'memory', 'com.x.json')}`, 'folder');
    await mkdir(path.join(root.dir(), 'skills', 'x.yaml'), { recursive: true });
    await expectPathKind(bench('--policy', 'oracle', '--skills', path.join(root.dir(), 'skills'), '--out', path.join(root.dir(), 'o4')), `skill file ${path.join(root.dir(), 'skills', 'x.yaml')}`, 'folder');
    const junit = await cli(bench('--policy', 'oracle', '--junit', folder, '--out', path.join(root.dir(), 'o5')));
    expect(junit.code).toBe(2);
    expect(junit.err).toContain('--junit');
    expect(junit.err).toContain('is a folder');
    // Negative control: a real profile passes.
    expect((await cli(['devices', 'check', path.join(repoRoot, 'devices', 'sim.yaml')])).code).toBe(0);
  });

  it('a trace.jsonl or results.jsonl that is a folder, and --out that is a file: exit 2 naming it', async () => {
    const out = path.join(root.dir(), 'bench');
    await writeSyntheticBench(out, 1, { screenshots: false, hostile: false });
    expect((await cli(['report', out])).code).toBe(0);
    const results = JSON.parse(await readFile(path.join(out, 'results.json'), 'utf8')) as { tasks: { traceDir: string }[] };
    const runFolder = path.join(out, results.tasks[0]!.traceDir);
    expect((await cli(['debug', runFolder])).code).toBe(0);
    const trace = path.join(runFolder, 'trace.jsonl');
    await rm(trace);
    await mkdir(trace);
    await expectPathKind(['debug', runFolder], `trace ${trace}`, 'folder');
    await expectPathKind(['report', out], `trace ${trace}`, 'folder');
    const resumeOut = path.join(root.dir(), 'resume');
    await mkdir(path.join(resumeOut, 'results.jsonl'), { recursive: true });
    await expectPathKind(bench('--policy', 'oracle', '--resume', '--out', resumeOut), `results journal ${path.join(resumeOut, 'results.jsonl')}`, 'folder');
    const file = path.join(root.dir(), 'F');
    await writeFile(file, 'x');
    await expectPathKind(bench('--policy', 'oracle', '--out', file), file, 'file');
  });
});
