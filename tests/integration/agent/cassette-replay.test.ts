// The llm policy through the real OpenAI-compatible adapter and `openai` client against
// the local mock server, recorded to a cassette, then replayed without any server: the
// replay must make the same calls and reach the same result.
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTask } from '../../../src/agent/run-task.js';
import { benchResultsSchema } from '../../../src/bench/bench-results.js';
import type { CliIo } from '../../../src/cli/cli-io.js';
import { main } from '../../../src/cli/main.js';
import { simulatorForTask } from '../../../src/bench/simulator-for-task.js';
import { SimDevice } from '../../../src/device/sim-device.js';
import { createConfiguredModels } from '../../../src/model/create-configured-models.js';
import { startMockOpenAiServer, type MockOpenAiServer } from '../../../src/model/mock-openai-server.js';
import { modelConfigFromEnv } from '../../../src/model/model-config-from-env.js';
import { loadSuite } from '../../../src/tasks/load-task-file.js';
import { readTrace } from '../../../src/trace/read-trace.js';

const repoRoot = path.resolve(import.meta.dirname, '..', '..', '..');
const task = (await loadSuite('sim', { tasksRoot: path.join(repoRoot, 'tasks') })).tasks.find((candidate) => candidate.id === 'settings-dark-theme')!;
const secret = 'sk-test-1234567890abcdefghijklmnop';
let root: string;
let server: MockOpenAiServer;

/** A stand-in planner served over HTTP: reads the screen in the prompt and answers like a careful model. */
function plannerReply(texts: readonly string[]): string {
  const prompt = texts.join('\n');
  const unit = (label: string): string | undefined => new RegExp(`\\[(n[0-9a-f]+)\\] [a-z-]+ "${label}"`).exec(prompt)?.[1];
  const darkOff = /\[(n[0-9a-f]+)\] toggle "Dark theme" unchecked/.exec(prompt)?.[1];
  if (darkOff) return JSON.stringify({ intent: 'Turn dark theme on', expectation: 'checked(is=switch, near(text="Dark theme"))', commitment: [{ unit: darkOff, checked: true }] });
  if (/toggle "Dark theme" checked/.test(prompt)) return JSON.stringify({ intent: 'Done', finish: true });
  const display = unit('Display');
  if (display) return `Sure! Here is my plan:\n\`\`\`json\n${JSON.stringify({ intent: 'Open Display', expectation: 'exists(text="Dark theme")', commitment: [{ unit: display }] })}\n\`\`\``;
  return JSON.stringify({ intent: 'Done', finish: true });
}

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'senseact-cassette-'));
  server = await startMockOpenAiServer({ reply: (request) => ({ text: plannerReply(request.texts), usage: { promptTokens: 400, completionTokens: 40 } }) });
});
afterAll(async () => {
  await server.close();
  await rm(root, { recursive: true, force: true });
});

async function play(models: ReturnType<typeof createConfiguredModels>, runId: string) {
  const device = new SimDevice(simulatorForTask(task, { seed: 3 }));
  return runTask({
    task,
    mode: 'senseact',
    policy: 'llm',
    device,
    probe: device,
    models: { planner: models.language, verifier: models.language, vision: models.vision },
    traceRoot: root,
    suite: 'cassette',
    runId,
    secrets: [secret],
  });
}

describe('cassettes', () => {
  it('records a run through the mock server and replays it identically, with no secret written', async () => {
    const cassette = path.join(root, 'run.cassette.jsonl');
    const config = modelConfigFromEnv({ SENSEACT_BASE_URL: server.url, SENSEACT_API_KEY: secret, SENSEACT_MODEL: 'mock-planner' });
    const recorded = await play(createConfiguredModels({ config, cassette: { mode: 'record', path: cassette } }), 'record');
    expect(recorded.success, recorded.reason).toBe(true);
    expect(recorded.llmCalls).toBe(server.requests.length);
    expect(server.requests[0]!.headers['authorization']).toBe(`Bearer ${secret}`);

    const requestsBefore = server.requests.length;
    const replayed = await play(createConfiguredModels({ config: modelConfigFromEnv({}), cassette: { mode: 'replay', path: cassette } }), 'replay');
    expect(server.requests.length).toBe(requestsBefore);
    const strip = (result: typeof recorded) => ({ ...result, traceDir: '', latency: null });
    expect(strip(replayed)).toEqual(strip(recorded));
    const plans = (dir: string) => readTrace(dir).events.filter((event) => event.type === 'plan-end' || event.type === 'act-end').map((event) => ({ ...event, t: 0, latencyMs: 0 }));
    expect(plans(replayed.traceDir)).toEqual(plans(recorded.traceDir));

    const written = await readFile(cassette, 'utf8');
    expect(written).not.toContain(secret);
    const traceFiles = await readFile(path.join(recorded.traceDir, 'trace.jsonl'), 'utf8');
    expect(traceFiles).not.toContain(secret);
  });

  it('fails loudly when the replayed run asks something that was not recorded', async () => {
    const cassette = path.join(root, 'empty.cassette.jsonl');
    const config = modelConfigFromEnv({ SENSEACT_BASE_URL: server.url, SENSEACT_API_KEY: secret });
    const models = createConfiguredModels({ config, cassette: { mode: 'record', path: cassette } });
    // Record nothing but an unrelated call, then replay the task against it.
    await models.language.generate({ role: 'planner', messages: [{ role: 'user', content: 'hello' }] });
    const result = await play(createConfiguredModels({ config: modelConfigFromEnv({}), cassette: { mode: 'replay', path: cassette } }), 'miss');
    expect(result.success).toBe(false);
    expect(result.error).toMatch(/cassette/i);
  });
});

describe('senseact bench with a configured model', () => {
  it('uses the llm policy through the real adapter, labels the results llm, and records usage', async () => {
    const suiteDir = path.join(root, 'one-task-suite');
    await mkdir(suiteDir, { recursive: true });
    const source = await readFile(path.join(repoRoot, 'tasks', 'sim', 'settings.yaml'), 'utf8');
    const block = source.slice(source.indexOf('- id: settings-dark-theme'), source.indexOf('- id: settings-brightness-zero'));
    await writeFile(path.join(suiteDir, 'tasks.yaml'), `tasks:\n${block}`);
    const out = path.join(root, 'bench-llm');
    let stdout = '';
    let stderr = '';
    const io: CliIo = { stdout: (text) => { stdout += text; }, stderr: (text) => { stderr += text; }, cwd: repoRoot, env: { SENSEACT_BASE_URL: server.url, SENSEACT_MODEL: 'mock-planner' } };
    const requestsBefore = server.requests.length;
    const code = await main(['bench', '--suite', suiteDir, '--mode', 'senseact', '--device', 'sim', '--policy', 'llm', '--out', out], io);
    expect(code, stderr).toBe(0);
    expect(stderr).toContain('policy: llm, because --policy llm was given: planner mock-planner');
    const results = benchResultsSchema.parse(JSON.parse(await readFile(path.join(out, 'results.json'), 'utf8')));
    expect(results.policy).toBe('llm');
    expect(results.oracle).toBe(false);
    const run = results.tasks[0]!;
    expect(run.success, run.reason).toBe(true);
    expect(run.llmCalls).toBe(server.requests.length - requestsBefore);
    expect(run.promptTokens).toBe(400 * run.llmCalls);
    expect(stdout).not.toContain('oracle policy');
  });
});
