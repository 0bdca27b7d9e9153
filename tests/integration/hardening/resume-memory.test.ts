// --resume after a kill gives the results and the certificate memory an uninterrupted
// bench gives: certificates of runs the journal does not hold (in flight at the kill, or
// cut off with the journal's torn tail) are dropped before the remaining runs start.
// The real kill -9 at three moments: scripts/attack-senseact.ts --rows resume.
import { appendFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../../src/cli/main.js';
import type { MemoryRecord } from '../../../src/memory/certificate-memory.js';
import { loadSuite } from '../../../src/tasks/load-task-file.js';

const repoRoot = path.resolve(import.meta.dirname, '../../..');
const suite = await loadSuite('sim', { tasksRoot: path.join(repoRoot, 'tasks') });
const ids = ['settings-wifi-off', 'settings-dark-theme', 'settings-battery-percentage'];
let folder: string;
let tasksDir: string;

beforeAll(async () => {
  folder = await mkdtemp(path.join(tmpdir(), 'senseact-resume-'));
  tasksDir = path.join(folder, 'suite');
  await mkdir(tasksDir);
  await writeFile(path.join(tasksDir, 'tasks.yaml'), JSON.stringify({ tasks: suite.tasks.filter((task) => ids.includes(task.id)) }));
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

async function bench(out: string, resume = false, extra: readonly string[] = []): Promise<number> {
  return main(['bench', '--suite', tasksDir, '--mode', 'senseact', '--device', 'sim', '--policy', 'oracle', '--out', out, ...(resume ? ['--resume'] : []), ...extra], { stdout: () => undefined, stderr: () => undefined, cwd: folder, env: {} });
}

/** The state a kill -9 leaves after the first journaled run: one journal line and a torn one (results.json as the last write left it). */
function killAfterFirstRun(out: string): void {
  const journal = readFileSync(path.join(out, 'results.jsonl'), 'utf8').split('\n');
  writeFileSync(path.join(out, 'results.jsonl'), `${journal[0]}\n${journal[1]!.slice(0, 40)}`);
}

/** An app memory file with the runs' names made independent of the out dir and the order runs finished in. */
function appMemory(dir: string): unknown {
  const file = JSON.parse(readFileSync(path.join(dir, 'com.android.settings.json'), 'utf8')) as { learnedRuns: string[]; pages: { scope: string }[]; links: { from: string; to: string; unit: string }[] };
  return {
    ...file,
    learnedRuns: file.learnedRuns.map((run) => run.slice(run.indexOf('#'))).sort(),
    pages: [...file.pages].sort((a, b) => a.scope.localeCompare(b.scope)),
    links: [...file.links].sort((a, b) => `${a.from}>${a.to}>${a.unit}`.localeCompare(`${b.from}>${b.to}>${b.unit}`)),
  };
}

/** What two benches of the same runs must agree on: everything but times and trace paths. */
function comparable(out: string): unknown {
  const results = JSON.parse(readFileSync(path.join(out, 'results.json'), 'utf8')) as { tasks: Record<string, unknown>[]; complete: boolean };
  return { complete: results.complete, tasks: results.tasks.map(({ latency: _latency, traceDir: _traceDir, conditions, ...rest }) => ({ ...rest, conditions: { ...(conditions as object), startedAt: 'each invocation' } })) };
}

const memoryFile = (out: string): string => path.join(out, 'memory', 'senseact.jsonl');
const records = (out: string): MemoryRecord[] => readFileSync(memoryFile(out), 'utf8').split('\n').filter((line) => line.startsWith('{') && line.endsWith('}')).map((line) => JSON.parse(line) as MemoryRecord);

describe('--resume and the certificate memory', () => {
  it('drops what unfinished runs wrote: results and memory equal an uninterrupted bench', async () => {
    const reference = path.join(folder, 'reference');
    expect(await bench(reference)).toBe(0);
    const referenceMemory = readFileSync(memoryFile(reference), 'utf8');
    expect(new Set(records(reference).map((record) => record.run))).toEqual(new Set(ids.map((id) => `${id}/senseact-r0`)));

    // The state a kill leaves after the first run: one journal line (then a torn one), the
    // results file gone, and a memory that holds certificates of the runs after it.
    const killed = path.join(folder, 'killed');
    expect(await bench(killed)).toBe(0);
    const journal = readFileSync(path.join(killed, 'results.jsonl'), 'utf8').split('\n');
    writeFileSync(path.join(killed, 'results.jsonl'), `${journal[0]}\n${journal[1]!.slice(0, 40)}`);
    rmSync(path.join(killed, 'results.json'));
    appendFileSync(memoryFile(killed), '{"version":1,"id":"torn-mid-wri');
    const stray = records(killed).filter((record) => record.run !== `${ids[0]}/senseact-r0`);
    expect(stray.length).toBeGreaterThan(0);

    expect(await bench(killed, true)).toBe(0);
    expect(comparable(killed)).toEqual(comparable(reference));
    expect(readFileSync(memoryFile(killed), 'utf8')).toBe(referenceMemory);
  });

  it('at --concurrency 2 with --app-memory: a killed run is not learned twice; changed planning options are refused, named', async () => {
    const options = (memory: string) => ['--concurrency', '2', '--app-memory', memory];
    const reference = path.join(folder, 'app-reference');
    expect(await bench(reference, false, options(path.join(folder, 'app-memory-reference')))).toBe(0);
    const killed = path.join(folder, 'app-killed');
    const memory = path.join(folder, 'app-memory-killed');
    expect(await bench(killed, false, options(memory))).toBe(0);
    killAfterFirstRun(killed);
    // Dropping, moving or adding planning aids on resume is refused with the option named.
    const refused: string[] = [];
    const stderr = (text: string) => { refused.push(text); };
    for (const changed of [['--concurrency', '2'], ['--concurrency', '2', '--app-memory', path.join(folder, 'elsewhere')], [...options(memory), '--meta-plan'], [...options(memory), '--vote', '3']]) {
      const code = await main(['bench', '--suite', tasksDir, '--mode', 'senseact', '--device', 'sim', '--policy', 'oracle', '--out', killed, '--resume', ...changed], { stdout: () => undefined, stderr, cwd: folder, env: {} });
      expect(code).toBe(2);
    }
    expect(refused.join('')).toMatch(/--app-memory: the run used .*app-memory-killed, this one \(none\)[\s\S]*--app-memory: the run used .*, this one .*elsewhere[\s\S]*--meta-plan: the run used off, this one on[\s\S]*--vote: the run used 1, this one 3/);
    expect(await bench(killed, true, options(memory))).toBe(0);
    // The memory equals the uninterrupted bench's: the run the kill cut off after it learned is not learned again.
    expect(appMemory(memory)).toEqual(appMemory(path.join(folder, 'app-memory-reference')));
    // Outcomes match too; a re-run's prompt may differ (it meets the hints its killed attempt left).
    const outcomes = (out: string) => (JSON.parse(readFileSync(path.join(out, 'results.json'), 'utf8')) as { tasks: { id: string; success: boolean }[] }).tasks.map((task) => `${task.id} ${task.success}`).sort();
    expect(outcomes(killed)).toEqual(outcomes(reference));
    expect((appMemory(memory) as { learnedRuns: string[] }).learnedRuns).toHaveLength(ids.length);
  });

  it('a --tasks subset on resume keeps the finished runs of the other tasks in results.json', async () => {
    const out = path.join(folder, 'subset');
    expect(await bench(out)).toBe(0);
    killAfterFirstRun(out);
    const first = JSON.parse(readFileSync(path.join(out, 'results.jsonl'), 'utf8').split('\n')[0]!) as { id: string };
    const other = ids.find((id) => id !== first.id)!;
    expect(await bench(out, true, ['--tasks', other])).toBe(0);
    const results = JSON.parse(readFileSync(path.join(out, 'results.json'), 'utf8')) as { tasks: { id: string }[]; complete: boolean };
    expect(results.tasks.map((task) => task.id).sort()).toEqual([first.id, other].sort());
    expect(results.complete).toBe(true);
  });
});
