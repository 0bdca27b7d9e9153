import { describe, expect, it } from 'vitest';
import type { CliIo } from '../../../src/cli/cli-io.js';
import { main } from '../../../src/cli/main.js';
import { checkMaxTokens } from '../../../src/cli/commands/models-command.js';
import type { MockChatRequest, MockReply } from '../../../src/model/mock-openai-server.js';
import { mockEndpointPerTest } from '../../helpers/mock-endpoint.js';

function fakeIo(env: Record<string, string>): CliIo & { out: () => string; err: () => string } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return {
    stdout: (text) => void stdout.push(text),
    stderr: (text) => void stderr.push(text),
    cwd: process.cwd(),
    env,
    out: () => stdout.join(''),
    err: () => stderr.join(''),
  };
}

const mocks = mockEndpointPerTest();

describe('senseact models', () => {
  it('shows roles with their sources and never prints the key', async () => {
    const io = fakeIo({ SENSEACT_API_KEY: 'sk-hidden-abcdefghijklmnop', SENSEACT_PLANNER_MODEL: 'qwen-72b', SENSEACT_VISION_MODEL: 'qwen-vl' });
    const code = await main(['models'], io);
    expect(code).toBe(0);
    const out = io.out();
    expect(out).toMatch(/endpoint +https:\/\/api\.openai\.com\/v1 +\(default\)/);
    expect(out).toMatch(/api key +set \(env:SENSEACT_API_KEY\)/);
    expect(out).toMatch(/planner +qwen-72b +env:SENSEACT_PLANNER_MODEL/);
    expect(out).toMatch(/verifier +qwen-72b +role:planner/);
    expect(out).toMatch(/vision +qwen-vl +env:SENSEACT_VISION_MODEL/);
    expect(out).not.toContain('sk-hidden');
    expect(out).toMatch(/replies +structured output json_schema +\(default\)/);
  });

  it('shows the structured-output mode and the sampling settings per role, with their source', async () => {
    const io = fakeIo({ SENSEACT_API_KEY: 'sk-hidden-abcdefghijklmnop', SENSEACT_STRUCTURED: 'json_object', SENSEACT_PLANNER_TEMPERATURE: '0', SENSEACT_SEED: '7' });
    expect(await main(['models'], io)).toBe(0);
    expect(io.out()).toMatch(/replies +structured output json_object +\(env:SENSEACT_STRUCTURED\)/);
    expect(io.out()).toMatch(/planner +gpt-4o +default +seed=7 temperature=0/);
    expect(io.out()).toMatch(/vision +gpt-4o +default +seed=7\n/);
  });

  it('exits 2 and names the variables when the key is missing', async () => {
    const io = fakeIo({});
    const code = await main(['models', '--json'], io);
    expect(code).toBe(2);
    expect(JSON.parse(io.out())).toMatchObject({ ready: false, apiKey: 'MISSING' });
    expect(io.err()).toMatch(/SENSEACT_API_KEY.*OPENAI_API_KEY/);
  });

  it('--check calls each distinct model once, the vision model with an image', async () => {
    const server = await mocks.start((request) => (request.images.length > 0 ? 'Red' : 'OK'));
    const io = fakeIo({ SENSEACT_BASE_URL: server.url, SENSEACT_PLANNER_MODEL: 'big', SENSEACT_VERIFIER_MODEL: 'small', SENSEACT_VISION_MODEL: 'eyes' });
    const code = await main(['models', '--check'], io);
    expect(io.err()).toBe('');
    expect(code).toBe(0);
    expect(server.requests.map((request) => [request.model, request.images.length])).toEqual([
      ['big', 0],
      ['small', 0],
      ['eyes', 1],
    ]);
    expect(io.out()).toMatch(/ok +big \(planner, certifier, extractor\)/);
    expect(io.out()).toMatch(/ok +eyes \(vision, with an image\).*"Red"/);
  });

  it('--check fails a model that answers, but not what was asked', async () => {
    const server = await mocks.start((request) => (request.images.length > 0 ? 'Blue' : request.model === 'wrong' ? 'Hello! How can I help you today?' : 'OK.'));
    const io = fakeIo({ SENSEACT_BASE_URL: server.url, SENSEACT_PLANNER_MODEL: 'wrong', SENSEACT_VERIFIER_MODEL: 'right', SENSEACT_VISION_MODEL: 'blind' });
    const code = await main(['models', '--check'], io);
    expect(code).toBe(1);
    expect(io.out()).toMatch(/FAIL +wrong \(planner, certifier, extractor\): replied "Hello! How can I help you today\?", expected the word OK/);
    expect(io.out()).toMatch(/ok +right \(verifier, judge\): .*replied "OK\."/);
    expect(io.out()).toMatch(/FAIL +blind \(vision, with an image\): replied "Blue", expected red .* and that it accepts images/);
  });

  it('--check exits 1 when a model fails', async () => {
    const server = await mocks.start((request) => (request.model === 'eyes' ? { status: 404, body: { error: { message: 'model eyes not found' } } } : 'OK'));
    const io = fakeIo({ SENSEACT_BASE_URL: server.url, SENSEACT_MODEL: 'one', SENSEACT_VISION_MODEL: 'eyes' });
    const code = await main(['models', '--check', '--json'], io);
    expect(code).toBe(1);
    const checks = (JSON.parse(io.out()) as { checks: { model: string; ok: boolean; error?: string }[] }).checks;
    expect(checks.map((check) => [check.model, check.ok])).toEqual([
      ['one', true],
      ['eyes', false],
    ]);
    expect(checks[1]?.error).toMatch(/HTTP 404.*model name/);
  });

  /** A reasoning model: it thinks for `thinking` tokens (reasoning_content) before it answers; a smaller budget leaves no answer. */
  const reasoningModel = (thinking: number) => (request: MockChatRequest): MockReply => {
    const body = request.body as { max_tokens?: number; max_completion_tokens?: number };
    const budget = body.max_completion_tokens ?? body.max_tokens ?? Number.POSITIVE_INFINITY;
    const answer = request.images.length > 0 ? 'Red' : 'OK';
    const content = budget > thinking ? answer : null;
    return { status: 200, body: { id: 'r', object: 'chat.completion', created: 0, model: request.model, choices: [{ index: 0, message: { role: 'assistant', content, reasoning_content: 'The user wants one word. '.repeat(20) }, finish_reason: content === null ? 'length' : 'stop' }], usage: { prompt_tokens: 20, completion_tokens: Math.min(budget, thinking + 1), total_tokens: 0 } } };
  };

  it('--check passes a reasoning model that thinks 300 tokens before it answers (5 reply tokens failed it)', async () => {
    const server = await mocks.start(reasoningModel(300));
    const io = fakeIo({ SENSEACT_BASE_URL: server.url, SENSEACT_MODEL: 'thinker' });
    expect(await main(['models', '--check'], io)).toBe(0);
    expect(io.out()).toMatch(/ok +thinker \(planner/);
    expect(server.requests.every((request) => (request.body as { max_tokens?: number }).max_tokens === checkMaxTokens)).toBe(true);
  });

  it('--check names the token budget when the reasoning uses up every reply token (negative control: not "a chat model that answers in text")', async () => {
    const server = await mocks.start(reasoningModel(5000));
    const io = fakeIo({ SENSEACT_BASE_URL: server.url, SENSEACT_MODEL: 'overthinker' });
    expect(await main(['models', '--check'], io)).toBe(1);
    expect(io.out()).toMatch(/FAIL +overthinker \(planner.*reasoned \(reasoning_content\) and gave no answer.*spent the check's 1024 reply tokens on reasoning.*SENSEACT_<ROLE>_MAX_TOKENS/);
    expect(io.out()).not.toMatch(/a chat model that answers in text/);
  });

  it('--check reads the answer after a <think> block, not the word in it', async () => {
    const server = await mocks.start((request) => (request.model === 'thinks-ok' ? '<think>Should I say OK? Yes.</think>\nOK' : '<think>They want OK.</think>\nHello there!'));
    const io = fakeIo({ SENSEACT_BASE_URL: server.url, SENSEACT_PLANNER_MODEL: 'thinks-ok', SENSEACT_VERIFIER_MODEL: 'says-hello', SENSEACT_VISION_MODEL: 'thinks-ok' });
    await main(['models', '--check'], io);
    expect(io.out()).toMatch(/ok +thinks-ok \(planner, certifier, extractor\)/);
    expect(io.out()).toMatch(/FAIL +says-hello \(verifier, judge\): replied "Hello there!"/);
  });

  it('--check rides out one 429 (Retry-After honoured); a second in a row fails it', async () => {
    const limited: MockReply = { status: 429, body: { error: { message: 'Rate limit reached', type: 'requests' } }, headers: { 'retry-after-ms': '50' } };
    const counts = new Map<string, number>();
    const server = await mocks.start((request) => {
        const seen = (counts.get(request.model ?? '') ?? 0) + 1;
        counts.set(request.model ?? '', seen);
        if (request.model === 'busy-once' && seen === 1) return limited;
        if (request.model === 'busy') return limited;
        return request.images.length > 0 ? 'Red' : 'OK';
    });
    const io = fakeIo({ SENSEACT_BASE_URL: server.url, SENSEACT_PLANNER_MODEL: 'busy-once', SENSEACT_VERIFIER_MODEL: 'busy', SENSEACT_VISION_MODEL: 'eyes' });
    expect(await main(['models', '--check'], io)).toBe(1);
    expect(io.out()).toMatch(/ok +busy-once \(planner/);
    expect(io.out()).toMatch(/FAIL +busy \(verifier, judge\): Model call failed \(rate-limited, HTTP 429\).*after 2 attempt/);
    expect([counts.get('busy-once'), counts.get('busy')]).toEqual([2, 2]);
  });

  it('--timeout is whole milliseconds', async () => {
    const io = fakeIo({ SENSEACT_BASE_URL: 'http://127.0.0.1:9/v1' });
    expect(await main(['models', '--check', '--timeout', '1e12'], io)).toBe(2);
    expect(io.err()).toMatch(/--timeout must be a whole number of milliseconds from 1 to 2147483647 .*got "1e12"/);
  });
});
