// Hostile inputs at the command line: an alias bomb in a task file or a device profile, a
// predicate 20,000 deep, a DroidBot chain 20,000 deep. Each is bad input: exit 2 and a
// message that names the file and what to do, never a stack trace. Negative controls: the
// same commands on sound input do not exit 2.
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../../src/cli/main.js';
import { writeSyntheticBench } from '../report/synthetic-run-folder.js';
import { findTraceFile } from '../../../src/trace/read-trace.js';

const repoRoot = path.resolve(import.meta.dirname, '../../..');
const aliasBomb = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]', ...['b', 'c', 'd', 'e', 'f', 'g', 'h', 'i'].map((name, index) => `${name}: &${name} [${Array(9).fill(`*${'abcdefgh'[index]}`).join(',')}]`)].join('\n');
let folder: string;

beforeAll(async () => {
  folder = await mkdtemp(path.join(tmpdir(), 'senseact-bad-input-'));
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

async function cli(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(args, { stdout: (text) => { out += text; }, stderr: (text) => { err += text; }, cwd: folder, env: {} });
  return { code, out, err };
}

const screen = '<hierarchy rotation="0"><node index="0" text="OK" class="android.widget.Button" package="com.example" clickable="true" bounds="[0,0][100,100]"/></hierarchy>';

describe('bad input at the command line', () => {
  it('an alias bomb in a task file: exit 2 naming the file and line', async () => {
    await mkdir(path.join(folder, 'suite'));
    await writeFile(path.join(folder, 'suite', 'bomb.yaml'), `${aliasBomb}\ntasks: *i\n`);
    const run = await cli('bench', '--suite', path.join(folder, 'suite'), '--mode', 'senseact', '--device', 'sim', '--policy', 'oracle', '--out', path.join(folder, 'out'));
    expect(run.code).toBe(2);
    expect(run.err).toMatch(/bomb\.yaml:2:8: YAML aliases expand more than 100 times \(an alias bomb\?\)/);
    expect(run.err).not.toMatch(/^\s+at /m);
  });

  it('an alias bomb in a device profile: exit 2 naming the file and line; a sound profile passes', async () => {
    const bomb = path.join(folder, 'bomb-profile.yaml');
    await writeFile(bomb, `kind: sim\nname: bomb\n${aliasBomb}\n`);
    const run = await cli('devices', 'check', bomb);
    expect(run.code).toBe(2);
    expect(run.err).toContain(`${bomb}:4:8: YAML aliases expand more than 100 times`);
    const sound = path.join(folder, 'sound-profile.yaml');
    await writeFile(sound, (await readFile(path.join(repoRoot, 'devices/sim.yaml'), 'utf8')));
    expect((await cli('devices', 'check', sound)).code).toBe(0);
  });

  it('a predicate nested 20,000 deep, in text or JSON form: exit 2 with the limit; 64 deep is checked', async () => {
    const file = path.join(folder, 'screen.xml');
    await writeFile(file, screen);
    for (const predicate of [`${'not '.repeat(20_000)}exists(text="OK")`, `${'('.repeat(20_000)}exists(text="OK")${')'.repeat(20_000)}`, `exists(${'within('.repeat(20_000)}text="OK"${')'.repeat(20_000)})`]) {
      const run = await cli('check', file, predicate);
      expect(run.code).toBe(2);
      expect(run.err).toContain('nested deeper than 64 levels');
    }
    let json = '{"kind":"exists","query":{"text":{"op":"equals","value":"OK"}}}';
    for (let level = 0; level < 20_000; level++) json = `{"kind":"not","operand":${json}}`;
    const jsonRun = await cli('check', file, json);
    expect(jsonRun.code).toBe(2);
    expect(jsonRun.err).toContain('nests deeper than 256 levels');
    // 64 levels of not: even, so the check passes (exit 0).
    expect((await cli('check', file, `${'not '.repeat(64)}exists(text="OK")`)).code).toBe(0);
  });

  it('a predicate nested 20,000 deep in a task file: exit 2 naming file, task and field', async () => {
    await mkdir(path.join(folder, 'deep'));
    await writeFile(path.join(folder, 'deep', 'deep.yaml'), `tasks:\n- id: deep\n  app: com.example.app\n  instruction: deep\n  source: {benchmark: senseact}\n  success: {screen: '${'not '.repeat(20_000)}exists(text="OK")'}\n  allowedPackages: [com.example.app]\n  stepBudget: 3\n  difficulty: easy\n`);
    const run = await cli('bench', '--suite', path.join(folder, 'deep'), '--mode', 'senseact', '--device', 'sim', '--policy', 'oracle', '--out', path.join(folder, 'out-deep'));
    expect(run.code).toBe(2);
    expect(run.err).toMatch(/deep\.yaml:6:\d+: task "deep" field success\.screen: invalid predicate syntax: nested deeper than 64 levels/);
    expect(run.err.length).toBeLessThan(2_000);
  });

  it('a DroidBot chain 20,000 deep: exit 2 naming the view; a real state passes', async () => {
    const chain = path.join(folder, 'chain.json');
    await writeFile(chain, JSON.stringify({ views: Array.from({ length: 20_000 }, (_, id) => ({ temp_id: id, parent: id - 1, children: id + 1 < 20_000 ? [id + 1] : [], class: 'android.widget.FrameLayout', bounds: [[0, 0], [10, 10]] })) }));
    const run = await cli('inspect', chain);
    expect(run.code).toBe(2);
    expect(run.err).toMatch(/chain\.json: views\[1000\]: the views nest deeper than 1000 levels/);
    expect((await cli('inspect', path.join(repoRoot, 'tests/fixtures/autodroid/state_2023-10-20_134316.json'))).code).toBe(0);
  });

  it('a dump saved as UTF-16 with a byte-order mark reads like the UTF-8 one', async () => {
    const utf16 = path.join(folder, 'utf16.xml');
    await writeFile(utf16, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(screen, 'utf16le')]));
    const run = await cli('inspect', '--json', utf16);
    expect(run.code).toBe(0);
    expect(run.out).toContain('"label": "OK"');
  });

  it('report reads nothing outside the run folder: a traceDir of ../../.. is named, not read; the real one is read (control)', async () => {
    const bench = path.join(folder, 'report-bench');
    await writeSyntheticBench(bench, 1, { screenshots: false, hostile: false });
    const resultsFile = path.join(bench, 'results.json');
    const results = JSON.parse(await readFile(resultsFile, 'utf8')) as { tasks: { traceDir: string }[] };
    const control = await cli('report', bench);
    expect(control.code).toBe(0);
    expect(control.err).toBe('');
    expect(await readFile(path.join(bench, 'report', 'note-0', 'senseact-r0.html'), 'utf8')).toContain('open a new note');
    // The same run folder moved outside the bench dir, results.json pointing at it.
    const outside = path.join(folder, 'outside-run');
    await mkdir(outside);
    const trace = findTraceFile(path.join(bench, results.tasks[0]!.traceDir))!;
    await writeFile(path.join(outside, path.basename(trace)), await readFile(trace));
    results.tasks[0]!.traceDir = path.relative(bench, outside);
    expect(results.tasks[0]!.traceDir).toMatch(/^\.\.\//);
    await writeFile(resultsFile, JSON.stringify(results));
    const run = await cli('report', bench);
    expect(run.code).toBe(0);
    expect(run.err).toMatch(/^senseact report: note-0 senseact r0: the trace folder .*outside-run lies outside the run folder .*report-bench: not read/);
    const page = await readFile(path.join(bench, 'report', 'note-0', 'senseact-r0.html'), 'utf8');
    expect(page).toContain('lies outside the run folder');
    expect(page).not.toContain('open a new note');
  });
});
