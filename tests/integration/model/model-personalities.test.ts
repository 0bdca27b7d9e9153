// Real endpoints, played by the mock server: models with the usual habits (strict,
// chatty, fenced, thinking, sloppy, the paper's two-field format, broken) answer the
// SenseAct loop through the real OpenAI client. What completes, what is repaired, what is
// refused and how.
import { describe, expect, it } from 'vitest';
import { planReplySchema } from '../../../src/agent/planning/plan-reply.js';
import { runTask } from '../../../src/agent/run-task.js';
import { simulatorForTask } from '../../../src/bench/simulator-for-task.js';
import { SimDevice } from '../../../src/device/sim-device.js';
import { generateStructured } from '../../../src/model/generate-structured.js';
import { InvalidModelReplyError } from '../../../src/model/invalid-model-reply-error.js';
import { personalityReply, type MockPersonality } from '../../../src/model/mock-model-personality.js';
import type { MockChatRequest } from '../../../src/model/mock-openai-server.js';
import { modelConfigFromEnv } from '../../../src/model/model-config-from-env.js';
import { OpenAiLanguageModel } from '../../../src/model/openai-language-model.js';
import { OpenAiVisionModel } from '../../../src/model/openai-vision-model.js';
import { readTrace } from '../../../src/trace/read-trace.js';
import { fastRetry, mockEndpointPerTest } from '../../helpers/mock-endpoint.js';
import { simSuiteTask, temporaryRunRoot } from '../../helpers/sim-suite.js';

const task = simSuiteTask('settings-dark-theme');
const runs = temporaryRunRoot('senseact-personalities-');
const mocks = mockEndpointPerTest();

/**
 * What a capable model would answer on the dark-theme task, read from the prompt it was
 * sent (the last `<screen>` in it): open Display, switch Dark theme on, finish.
 */
function darkThemeAnswer(request: MockChatRequest): Record<string, unknown> {
  if (request.model === 'verifier-model') return { verdict: 'pass', reason: 'the switch shows on' };
  const screens = [...request.texts.join('\n').matchAll(/<screen>\n([\s\S]*?)\n<\/screen>/g)];
  const screen = screens.at(-1)?.[1] ?? '';
  const toggle = /\[(n[0-9a-f]+)\] toggle "Dark theme" (checked|unchecked)/.exec(screen);
  if (toggle?.[2] === 'checked') return { intent: 'Dark theme is on: done', finish: true };
  if (toggle) return { intent: 'Switch dark theme on', expectation: 'checked(label~"Dark theme")', commitment: [{ unit: toggle[1], checked: true }] };
  const display = /\[(n[0-9a-f]+)\] click "Display"/.exec(screen);
  if (display) return { intent: 'Open Display', expectation: 'exists(text="Dark theme")', commitment: [{ unit: display[1] }] };
  const scroll = /\[(n[0-9a-f]+)\] scroll /.exec(screen);
  return { intent: 'Look further down for Display', commitment: [{ unit: scroll?.[1] ?? 'nav-back', direction: 'down' }] };
}

function endpoint(url: string, env: Record<string, string> = {}) {
  return modelConfigFromEnv({ SENSEACT_BASE_URL: url, SENSEACT_PLANNER_MODEL: 'planner-model', SENSEACT_VERIFIER_MODEL: 'verifier-model', SENSEACT_VISION_MODEL: 'vision-model', ...env });
}

async function runWith(personality: MockPersonality, env: Record<string, string> = {}) {
  const mock = await mocks.start((request) => personalityReply(personality, darkThemeAnswer(request), request));
  const config = endpoint(mock.url, env);
  const language = new OpenAiLanguageModel({ config, retry: fastRetry });
  const device = new SimDevice(simulatorForTask(task, { seed: 3 }));
  const result = await runTask({
    task,
    mode: 'senseact',
    policy: 'llm',
    device,
    probe: device,
    models: { planner: language, verifier: language, vision: new OpenAiVisionModel({ config, retry: fastRetry }) },
    traceRoot: runs.dir(),
    suite: `personality-${personality}`,
  });
  const trace = await readTrace(result.traceDir);
  const plans = trace.events.filter((event) => event.type === 'plan-end');
  return { result, mock, plans, repairs: [...new Set(plans.flatMap((event) => (event['repairs'] as string[] | undefined) ?? []).map((line) => line.split(' ')[0]))] };
}

describe('model personalities through the SenseAct loop and the real client', () => {
  it('strict: completes; the strict schema is requested, and its nulls for absent keys follow it: no repair', async () => {
    const { result, mock, repairs } = await runWith('strict');
    expect(result.success, result.reason).toBe(true);
    expect(result.error).toBeNull();
    const format = (mock.requests[0]?.body as { response_format?: { type: string; json_schema?: { name: string; strict: boolean } } }).response_format;
    expect(format).toMatchObject({ type: 'json_schema', json_schema: { name: 'PlanReply', strict: true } });
    expect(repairs).toEqual([]);
    // The run's result counts every planner reply as read and none as repaired.
    const byModel = (model: string) => mock.requests.filter((request) => request.model === model).length;
    expect(result.replyRepairs?.planner).toEqual({ replies: byModel('planner-model'), repaired: 0, invalid: 0, kinds: {} });
    if (byModel('verifier-model') > 0) expect(result.replyRepairs?.verifier).toEqual({ replies: byModel('verifier-model'), repaired: 0, invalid: 0, kinds: {} });
  });

  it('the same nulls in reply to a request that sent no schema (json_object) are a repair (negative control)', async () => {
    const withNulls = JSON.stringify({ intent: 'Open Display', expectation: 'exists(text="Dark theme")', commitment: [{ unit: 'n3a5d', value: null, checked: null, direction: null, longPress: null }], finish: false, answer: null, lookFor: null, dependsOn: null, subtasksDone: null, skill: null, arguments: null });
    const mock = await mocks.start(() => withNulls);
    const ask = (mode: string) => generateStructured(new OpenAiLanguageModel({ config: endpoint(mock.url, { SENSEACT_STRUCTURED: mode }), retry: fastRetry }), { role: 'planner', schema: planReplySchema, schemaName: 'PlanReply', messages: [{ role: 'user', content: 'Reply with JSON.' }], instructJson: false });
    expect((await ask('json_schema')).repairs).toEqual([]);
    expect(new Set((await ask('json_object')).repairs.map((repair) => repair.kind))).toEqual(new Set(['null-optional']));
  });

  it.each([
    ['chatty', ['surrounding-text']],
    ['fenced', ['fence']],
    ['explained', ['fence', 'surrounding-text']],
    ['thinking', ['think-block']],
    ['sloppy', ['single-quotes', 'trailing-comma', 'python-literals', 'key-case']],
  ] as const)('%s: completes, and the trace says what was repaired', async (personality, expected) => {
    const { result, repairs, mock } = await runWith(personality, { SENSEACT_STRUCTURED: 'none' });
    expect(result.success, result.reason).toBe(true);
    expect(result.error).toBeNull();
    expect(repairs.sort()).toEqual([...expected].sort());
    // Every reply of every role was repaired, and counted under the kinds it took (a verdict has no boolean to rewrite).
    const kinds = new Set<string>();
    for (const [role, model] of [['planner', 'planner-model'], ['verifier', 'verifier-model']] as const) {
      const requests = mock.requests.filter((request) => request.model === model).length;
      if (role === 'planner') expect(requests).toBeGreaterThan(0);
      if (requests === 0) continue;
      expect(result.replyRepairs?.[role]).toMatchObject({ replies: requests, repaired: requests, invalid: 0 });
      for (const kind of Object.keys(result.replyRepairs?.[role]?.kinds ?? {})) kinds.add(kind);
    }
    expect([...kinds].sort()).toEqual([...expected].sort());
  });

  it("paper-format: the model's failure of the run (no infrastructure error) that names the two-field format, after asking the model to add the commitment", async () => {
    const { result, mock } = await runWith('paper-format');
    expect(result.success).toBe(false);
    expect(result.error).toBeNull();
    expect(result.stopReason).toMatch(/^model reply: planner-model \(role planner\) gave no valid reply in 3 attempt\(s\)/);
    expect(result.stopReason).toMatch(/two-field \{intent, expectation\} planner format/);
    expect(mock.requests).toHaveLength(3);
    expect(mock.requests[1]?.texts.at(-1)).toMatch(/commitment: an intent with an expectation is not enough/);
  });

  it("broken: the model's failure of the run after 3 attempts, not an infrastructure error", async () => {
    const { result, mock } = await runWith('broken');
    expect(result.success).toBe(false);
    expect(result.error).toBeNull();
    expect(result.stopReason).toMatch(/gave no valid reply in 3 attempt\(s\).*No parsable JSON/);
    expect(result.reason).toMatch(/^model reply: /);
    expect(mock.requests).toHaveLength(3);
  });
});

describe('structured output and sampling settings on the wire', () => {
  const plan = { intent: 'Open Display', expectation: 'exists(text="Dark theme")', commitment: [{ unit: 'n3a5d' }] };
  const ask = (config: ReturnType<typeof endpoint>) =>
    generateStructured(new OpenAiLanguageModel({ config, retry: fastRetry }), { role: 'planner', schema: planReplySchema, schemaName: 'PlanReply', messages: [{ role: 'user', content: 'Reply with JSON.' }], instructJson: false });

  it('sends no response_format with SENSEACT_STRUCTURED=none, json_object with json_object', async () => {
    const mock = await mocks.start(() => JSON.stringify(plan));
    await ask(endpoint(mock.url, { SENSEACT_STRUCTURED: 'none' }));
    await ask(endpoint(mock.url, { SENSEACT_STRUCTURED: 'json_object' }));
    expect(mock.requests.map((request) => (request.body as { response_format?: unknown }).response_format)).toEqual([undefined, { type: 'json_object' }]);
  });

  it('falls back json_schema → json_object once for a server that refuses it, and remembers', async () => {
    const mock = await mocks.start((request) => {
      const format = (request.body as { response_format?: { type: string } }).response_format;
      if (format?.type === 'json_schema') return { status: 400, body: { error: { message: "Invalid parameter: 'response_format' of type 'json_schema' is not supported with this model.", type: 'invalid_request_error' } } };
      return JSON.stringify(plan);
    });
    const config = endpoint(mock.url);
    const model = new OpenAiLanguageModel({ config, retry: fastRetry });
    const options = { role: 'planner' as const, schema: planReplySchema, schemaName: 'PlanReply', messages: [{ role: 'user' as const, content: 'Reply with JSON.' }], instructJson: false };
    expect((await generateStructured(model, options)).value.intent).toBe('Open Display');
    await generateStructured(model, options);
    expect(mock.requests.map((request) => (request.body as { response_format?: { type: string } }).response_format?.type)).toEqual(['json_schema', 'json_object', 'json_object']);
  });

  it("sends the role's temperature, top_p, seed and max_tokens, a request's own values first", async () => {
    const mock = await mocks.start(() => JSON.stringify(plan));
    const config = endpoint(mock.url, { SENSEACT_PLANNER_TEMPERATURE: '0', SENSEACT_TOP_P: '0.9', SENSEACT_SEED: '11', SENSEACT_PLANNER_MAX_TOKENS: '400', SENSEACT_VISION_TEMPERATURE: '0.5' });
    await ask(config);
    await generateStructured(new OpenAiLanguageModel({ config, retry: fastRetry }), { role: 'planner', schema: planReplySchema, messages: [{ role: 'user', content: 'JSON' }], temperature: 0.3, maxTokens: 99 });
    expect(mock.requests[0]?.body).toMatchObject({ temperature: 0, top_p: 0.9, seed: 11, max_tokens: 400 });
    expect(mock.requests[1]?.body).toMatchObject({ temperature: 0.3, top_p: 0.9, seed: 11, max_tokens: 99 });
  });

  it("a reply that never validates is InvalidModelReplyError (the model's failure of a run, no infrastructure error)", async () => {
    const mock = await mocks.start((request) => personalityReply('broken', plan, request));
    await expect(ask(endpoint(mock.url))).rejects.toSatisfy((error) => InvalidModelReplyError.isInstance(error));
  });
});
