// A model endpoint that answers 200 with an HTML page, or with an empty `choices` list, is
// a named failure that is retried like a server error; a run's result counts the calls
// and, apart, the requests its retries took. Requests on a long-lived abort signal leave
// no listener on it.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { getEventListeners } from 'node:events';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTask } from '../../../src/agent/run-task.js';
import { simulatorForTask } from '../../../src/bench/simulator-for-task.js';
import { SimDevice } from '../../../src/device/sim-device.js';
import { startMockOpenAiServer, type MockReply } from '../../../src/model/mock-openai-server.js';
import { ModelCallError } from '../../../src/model/model-call-error.js';
import { modelConfigFromEnv } from '../../../src/model/model-config-from-env.js';
import { OpenAiLanguageModel } from '../../../src/model/openai-language-model.js';
import { loadSuite } from '../../../src/tasks/load-task-file.js';

const repoRoot = path.resolve(import.meta.dirname, '../../..');
const loginPage: MockReply = { status: 200, body: '<html><body>Sign in to the gateway</body></html>', headers: { 'content-type': 'text/html' } };
const noChoices: MockReply = { status: 200, body: { id: 'x', object: 'chat.completion', created: 0, model: 'm', choices: [] } };
let folder: string;

beforeAll(async () => {
  folder = await mkdtemp(path.join(tmpdir(), 'senseact-transport-'));
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

/** A model on a mock endpoint whose replies come from `replies` in turn (the last repeats). */
async function modelAnswering(replies: readonly MockReply[]) {
  let index = 0;
  const server = await startMockOpenAiServer({ reply: () => replies[Math.min(index++, replies.length - 1)]! });
  const model = new OpenAiLanguageModel({ config: modelConfigFromEnv({ SENSEACT_BASE_URL: server.url, SENSEACT_MODEL: 'm' }), retry: { initialDelayMs: 1, maxDelayMs: 2 } });
  return { server, model };
}

async function failure(replies: readonly MockReply[]): Promise<{ error: ModelCallError; requests: number }> {
  const { server, model } = await modelAnswering(replies);
  try {
    await model.generate({ role: 'planner', messages: [{ role: 'user', content: 'hi' }] });
  } catch (error) {
    if (!ModelCallError.isInstance(error)) throw error;
    return { error, requests: server.requests.length };
  } finally {
    await server.close();
  }
  throw new Error('expected a ModelCallError');
}

describe('model transport errors', () => {
  it('an HTML page with status 200 is invalid-response, retried, and its start quoted', async () => {
    const { error, requests } = await failure([loginPage]);
    expect([error.failure, error.attempts, requests]).toEqual(['invalid-response', 4, 4]);
    expect(error.message).toContain('answered status 200 with a non-JSON body instead of a chat completion ("<html><body>Sign in to the gateway</body></html>")');
    expect(error.message).toContain('SENSEACT_BASE_URL');
  });

  it("an empty choices list is invalid-response (the server's doing, not the model's empty answer), retried", async () => {
    const { error, requests } = await failure([noChoices]);
    expect([error.failure, error.attempts, requests]).toEqual(['invalid-response', 4, 4]);
    expect(error.message).toContain('empty `choices` list');
  });

  it('negative control: a refused key is not retried', async () => {
    const { error, requests } = await failure([{ status: 401, body: { error: { message: 'bad key', type: 'invalid_request_error' } } }]);
    expect([error.failure, error.attempts, requests]).toEqual(['client-error', 1, 1]);
  });

  it('a reply after two bad answers counts one call and three requests in the run result', async () => {
    const suite = await loadSuite('sim', { tasksRoot: path.join(repoRoot, 'tasks') });
    const task = suite.tasks.find((candidate) => candidate.id === 'settings-open')!;
    const finish = JSON.stringify({ intent: 'done', finish: true });
    const { server, model } = await modelAnswering([loginPage, noChoices, finish]);
    const device = new SimDevice(simulatorForTask(task));
    const result = await runTask({ task, mode: 'senseact-text', policy: 'llm', models: { planner: model }, device, traceRoot: folder, suite: 'transport', probe: device });
    await server.close();
    expect(result.error).toBeNull();
    expect([result.llmCalls, result.modelAttempts, server.requests.length]).toEqual([1, 3, 3]);
  });
});

describe('the abort signal of a bench', () => {
  it('twenty requests on one signal leave no abort listener on it (no MaxListenersExceededWarning)', async () => {
    const { server, model } = await modelAnswering(['{"ok": true}']);
    const controller = new AbortController();
    try {
      for (let index = 0; index < 20; index++) await model.generate({ role: 'planner', messages: [{ role: 'user', content: 'hi' }], signal: controller.signal });
      expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    } finally {
      await server.close();
    }
  });

  it('negative control: the SDK given the signal itself keeps one listener per request', async () => {
    const { server } = await modelAnswering(['{"ok": true}']);
    const controller = new AbortController();
    const client = new OpenAI({ baseURL: server.url, apiKey: 'x', maxRetries: 0 });
    try {
      for (let index = 0; index < 3; index++) await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }, { signal: controller.signal });
      expect(getEventListeners(controller.signal, 'abort')).toHaveLength(3);
    } finally {
      await server.close();
    }
  });

  it('aborting the signal still stops a request in flight', async () => {
    const server = await startMockOpenAiServer({ reply: () => ({ text: 'late', delayMs: 5_000 }) });
    const model = new OpenAiLanguageModel({ config: modelConfigFromEnv({ SENSEACT_BASE_URL: server.url, SENSEACT_MODEL: 'm' }) });
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('bench cancelled')), 100);
    try {
      const error = await model.generate({ role: 'planner', messages: [{ role: 'user', content: 'hi' }], signal: controller.signal }).catch((caught: unknown) => caught);
      expect(ModelCallError.isInstance(error) && error.failure).toBe('aborted');
    } finally {
      await server.close();
    }
  });
});
