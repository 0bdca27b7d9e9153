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

async function bench(out: string, resume = false): Promise<number> {
  return main(['bench', '--suite', tasksDir, '--mode', 'senseact', '--device', 'sim', '--policy', 'oracle', '--out', out, ...(resume ? ['--resume'] : [])], { stdout: () => undefined, stderr: () => undefined, cwd: folder, env: {} });
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
});
