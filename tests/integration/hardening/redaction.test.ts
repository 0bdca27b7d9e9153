// No secret in any file a run writes: an endpoint that echoes the API key (in its replies
// and in a 401) leaves the key in none of the bench's files, the cassette or the debug
// log; a password typed into a password field leaves its value in none of the run's files,
// while the device did get it.
import { appendFileSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTask } from '../../../src/agent/run-task.js';
import { simulatorForTask } from '../../../src/bench/simulator-for-task.js';
import { main } from '../../../src/cli/main.js';
import { SimDevice } from '../../../src/device/sim-device.js';
import { CertificateMemory } from '../../../src/memory/certificate-memory.js';
import { loadSuite } from '../../../src/tasks/load-task-file.js';
import { findTraceFile, readTrace } from '../../../src/trace/read-trace.js';
import { setDebugSpec } from '../../../src/util/debug-log.js';
import { passwordPlaceholder, Redactor } from '../../../src/util/redactor.js';
import { echoedSpellings, startEchoingEndpoint } from '../../helpers/echoing-endpoint.js';
import { readableBytes } from '../../helpers/stored-bytes.js';

const repoRoot = path.resolve(import.meta.dirname, '../../..');
const suite = await loadSuite('sim', { tasksRoot: path.join(repoRoot, 'tasks') });
let folder: string;

beforeAll(async () => {
  folder = await mkdtemp(path.join(tmpdir(), 'senseact-redaction-'));
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

function filesUnder(root: string): string[] {
  return readdirSync(root, { withFileTypes: true, recursive: true }).filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
}

describe('redaction of every file a run writes', () => {
  it('an echoed API key reaches no file in any spelling: results, journal, report, memory, traces, cassette, debug log', async () => {
    // '/', '+', '&', '"' and '<' make the URL-encoded, base64, JSON- and HTML-escaped spellings differ from the key.
    const key = 'zq-echo/7Hc2+LmQ9&vX41"<Tw';
    const tasksDir = path.join(folder, 'suite');
    await mkdir(tasksDir);
    const { solution: _solution, ...task } = suite.tasks.find((candidate) => candidate.id === 'notes-create-text-note')!;
    await writeFile(path.join(tasksDir, 'tasks.yaml'), JSON.stringify({ tasks: [{ ...task, id: 'echo-a' }, { ...task, id: 'echo-b' }] }));
    const server = await startEchoingEndpoint();
    const out = path.join(folder, 'out');
    const cassette = path.join(folder, 'cassette', 'run.jsonl');
    const log = path.join(folder, 'debug.log');
    const env = { SENSEACT_BASE_URL: server.url, SENSEACT_API_KEY: key, SENSEACT_MODEL: 'mock-model', SENSEACT_CASSETTE: `record:${cassette}` };
    setDebugSpec('senseact:*');
    const write = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((chunk: string | Uint8Array) => {
      appendFileSync(log, chunk);
      return true;
    }) as typeof process.stderr.write;
    let code: number;
    try {
      code = await main(['bench', '--suite', tasksDir, '--mode', 'senseact,react-text', '--device', 'sim', '--policy', 'llm', '--out', out], { stdout: () => undefined, stderr: () => undefined, cwd: folder, env });
    } finally {
      process.stderr.write = write;
      setDebugSpec(undefined);
      await server.close();
    }
    // Every run finished; those the endpoint refused ended in infrastructure errors, which bench reports with exit 4.
    expect(code).toBe(4);
    // The echo happened: the endpoint got the key, answered with it, then refused quoting it.
    expect(server.requests.every((request) => request.headers['authorization'] === `Bearer ${key}`)).toBe(true);
    expect(server.requests.length).toBeGreaterThan(6);
    const written = [...filesUnder(out), cassette, log];
    for (const expected of ['results.json', 'results.jsonl', 'report.html', 'senseact.jsonl', 'trace.jsonl.gz', 'run.jsonl', 'debug.log']) expect(written.map((file) => path.basename(file))).toContain(expected);
    for (const [name, spelling] of Object.entries(echoedSpellings(key))) {
      expect(written.filter((file) => readableBytes(file).includes(spelling)).map((file) => `${name}: ${path.relative(folder, file)}`)).toEqual([]);
    }
    // What was redacted is still there as a marker (negative control: the files are not empty of it).
    expect(readFileSync(path.join(out, 'results.json'), 'utf8')).toContain('[REDACTED]');
    expect(readFileSync(path.join(out, 'memory', 'senseact.jsonl'), 'utf8')).toContain('Use the key raw [REDACTED], base64 [REDACTED]');
    expect(readFileSync(log, 'utf8').length).toBeGreaterThan(100);
  });

  it('a password in the base URL reaches no file and not stderr; the user name and host stay (negative control)', async () => {
    const password = 'pw-Base-9Qm2xV7';
    const out = path.join(folder, 'out-url');
    const log = path.join(folder, 'debug-url.log');
    let stderr = '';
    const env = { SENSEACT_BASE_URL: `http://lab-user:${password}@127.0.0.1:9/v1`, SENSEACT_API_KEY: 'sk-unused-key-0000', SENSEACT_MODEL: 'mock-model' };
    setDebugSpec('senseact:*');
    const write = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((chunk: string | Uint8Array) => {
      appendFileSync(log, chunk);
      return true;
    }) as typeof process.stderr.write;
    try {
      await main(['bench', '--suite', 'sim', '--tasks', 'notes-create-text-note', '--mode', 'senseact', '--device', 'sim', '--policy', 'llm', '--out', out], { stdout: () => undefined, stderr: (text) => { stderr += text; }, cwd: repoRoot, env });
    } finally {
      process.stderr.write = write;
      setDebugSpec(undefined);
    }
    const written = [...filesUnder(out), log];
    expect(written.length).toBeGreaterThan(3);
    expect(written.filter((file) => readableBytes(file).includes(password)).map((file) => path.relative(folder, file))).toEqual([]);
    expect(stderr).not.toContain(password);
    expect(readFileSync(path.join(out, 'results.json'), 'utf8')).toContain('lab-user:[REDACTED]@127.0.0.1');
  });

  it('a device profile named lab-${VAR} records the name as written, not the value', async () => {
    const profile = path.join(folder, 'lab.yaml');
    await writeFile(profile, 'kind: sim\nname: lab-${LAB_SECRET_ID}\n');
    const out = path.join(folder, 'out-profile');
    const code = await main(['bench', '--suite', 'sim', '--tasks', 'notes-create-text-note', '--mode', 'senseact', '--device', profile, '--policy', 'oracle', '--out', out], { stdout: () => undefined, stderr: () => undefined, cwd: repoRoot, env: { LAB_SECRET_ID: 'value-of-lab-7731' } });
    expect(code).toBe(0);
    const files = filesUnder(out);
    expect(files.filter((file) => readableBytes(file).includes('value-of-lab-7731'))).toEqual([]);
    expect(files.some((file) => readableBytes(file).includes('lab-${LAB_SECRET_ID}'))).toBe(true);
  });

  it.each(['full', 'compact'] as const)('a typed password (%s trace): the device gets it, no file keeps it, the act is recorded with a placeholder', async (traceFormat) => {
    const password = 'Hunter2-correct-horse';
    const task = suite.tasks.find((candidate) => candidate.id === 'settings-wifi-join-cafenet')!;
    expect(task.instruction).toContain(password);
    for (const mode of ['senseact', 'react-text'] as const) {
      const simulator = simulatorForTask(task);
      const device = new SimDevice(simulator);
      const redactor = new Redactor();
      const memory = await CertificateMemory.open(path.join(folder, `memory-${traceFormat}-${mode}.jsonl`), { redactor });
      const root = path.join(folder, `password-${traceFormat}-${mode}`);
      const result = await runTask({ task, mode, policy: 'oracle', device, traceRoot: root, suite: 'password', redactor, memory, probe: device, traceFormat });
      await memory.close();
      expect(result.success).toBe(true);
      expect((simulator.appState('com.android.settings') as { network: { wifiNetwork: string } }).network.wifiNetwork).toBe('CafeNet');
      const files = [...filesUnder(root), ...(mode === 'senseact' ? [path.join(folder, `memory-${traceFormat}-${mode}.jsonl`)] : [])];
      expect(files.length).toBeGreaterThan(traceFormat === 'full' ? 10 : 1);
      expect(files.filter((file) => readableBytes(file).includes(password))).toEqual([]);
      // What the run recorded is readable through the compression: the typed value became the placeholder.
      expect(files.some((file) => readableBytes(file).includes(passwordPlaceholder))).toBe(true);
      const typed = readTrace(result.traceDir).events.filter((event) => event.type === 'act-end' && (event.action as { type: string }).type === 'type');
      expect(typed.map((event) => (event.type === 'act-end' ? event.action['text'] : ''))).toEqual([passwordPlaceholder]);
      expect(readableBytes(findTraceFile(result.traceDir)!).toString('utf8')).toContain(`password ${passwordPlaceholder}`);
    }
  });

  it('negative control: text typed into an ordinary field stays in the record', async () => {
    const task = suite.tasks.find((candidate) => candidate.id === 'settings-device-name')!;
    const device = new SimDevice(simulatorForTask(task));
    const result = await runTask({ task, mode: 'senseact', policy: 'oracle', device, traceRoot: path.join(folder, 'plain'), suite: 'plain', probe: device });
    const typed = readTrace(result.traceDir).events.filter((event) => event.type === 'act-end' && (event.action as { type: string }).type === 'type');
    expect(typed.length).toBeGreaterThan(0);
    expect(typed.every((event) => event.type === 'act-end' && event.action['text'] !== passwordPlaceholder)).toBe(true);
  });
});
