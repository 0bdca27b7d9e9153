import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CassetteMissError } from '../../../src/model/cassette-miss-error.js';
import { CassetteReadError } from '../../../src/model/cassette-read-error.js';
import { readCassette } from '../../../src/model/cassette.js';
import { createConfiguredModels } from '../../../src/model/create-configured-models.js';
import { generateStructured } from '../../../src/model/generate-structured.js';
import { isModelInfrastructureError } from '../../../src/model/is-model-infrastructure-error.js';
import type { LanguageModel, ModelReply } from '../../../src/model/language-model.js';
import { MeteredLanguageModel } from '../../../src/model/metered-language-model.js';
import { startMockOpenAiServer, type MockOpenAiServer } from '../../../src/model/mock-openai-server.js';
import { modelConfigFromEnv } from '../../../src/model/model-config-from-env.js';
import { OpenAiLanguageModel } from '../../../src/model/openai-language-model.js';
import { OpenAiVisionModel } from '../../../src/model/openai-vision-model.js';
import { RecordingLanguageModel, RecordingVisionModel } from '../../../src/model/recording-language-model.js';
import { ReplayingLanguageModel, ReplayingVisionModel } from '../../../src/model/replaying-language-model.js';
import { UsageLedger } from '../../../src/model/usage-ledger.js';
import type { VisionModel } from '../../../src/model/vision-model.js';

const apiKey = 'sk-live-THISISASECRETKEY0123456789';
const localKey = 'local-secret-key-42';
let dir: string;
let server: MockOpenAiServer;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'senseact-cassette-'));
  let counter = 0;
  server = await startMockOpenAiServer({
    reply: (request) => {
      counter += 1;
      const last = request.texts.at(-1) ?? '';
      if (last.includes('plan')) return { text: `{"intent": "step ${counter}"}`, usage: { promptTokens: 100 + counter, completionTokens: 7 } };
      return { text: `echo ${counter}: ${last} (key was ${apiKey})`, usage: { promptTokens: 50, completionTokens: 11 } };
    },
  });
});

afterEach(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

/** One "agent run": a fixed sequence of calls, including a repeated identical request. */
async function run(model: LanguageModel): Promise<{ replies: ModelReply[]; ledger: UsageLedger }> {
  const ledger = new UsageLedger();
  const metered = new MeteredLanguageModel(model, { ledger });
  const replies: ModelReply[] = [];
  const planned = await generateStructured(metered, { role: 'planner', schema: z.object({ intent: z.string() }), messages: [{ role: 'user', content: 'plan the next intent' }] });
  replies.push(planned.reply);
  replies.push(await metered.generate({ role: 'verifier', messages: [{ role: 'user', content: `verify; my key is ${apiKey}` }] }));
  replies.push(await metered.generate({ role: 'verifier', messages: [{ role: 'user', content: 'same question' }] }));
  replies.push(await metered.generate({ role: 'verifier', messages: [{ role: 'user', content: 'same question' }] }));
  return { replies, ledger };
}

function openAi(): OpenAiLanguageModel {
  return new OpenAiLanguageModel({
    config: modelConfigFromEnv({ SENSEACT_BASE_URL: server.url, SENSEACT_API_KEY: apiKey, SENSEACT_PLANNER_MODEL: 'planner-x', SENSEACT_VERIFIER_MODEL: 'verifier-y' }),
    retry: { initialDelayMs: 1 },
  });
}

describe('cassettes', () => {
  it('records through the real client and replays identically, without the server', async () => {
    const path = join(dir, 'run.cassette.jsonl');
    const recorder = new RecordingLanguageModel(openAi(), { path, secrets: [apiKey] });
    const recorded = await run(recorder);
    expect(recorder.recorded).toBe(4);
    expect(server.requests).toHaveLength(4);
    expect(recorded.replies[2]?.text).not.toBe(recorded.replies[3]?.text);

    await server.close();
    const replayer = new ReplayingLanguageModel({ path });
    const replayed = await run(replayer);
    // Secrets in reply texts are redacted on disk, so compare against the cassette's texts.
    const onDisk = readCassette(path).map((entry) => entry.reply.text);
    expect(replayed.replies.map((reply) => reply.text)).toEqual(onDisk);
    expect(replayed.replies.map((reply) => reply.text)).toEqual(recorded.replies.map((reply) => reply.text.split(apiKey).join('[REDACTED]')));
    expect(replayed.replies.map((reply) => reply.usage)).toEqual(recorded.replies.map((reply) => reply.usage));
    expect(replayed.replies.map((reply) => reply.latencyMs)).toEqual(recorded.replies.map((reply) => reply.latencyMs));
    expect(replayed.replies.map((reply) => reply.model)).toEqual(['planner-x', 'verifier-y', 'verifier-y', 'verifier-y']);
    expect(replayed.ledger.totals()).toEqual(recorded.ledger.totals());
    expect(replayer.replayed).toBe(4);
    expect(replayer.unused).toBe(0);
    expect(replayer.modelName('planner')).toBe('planner-x');
  });

  it('replay of a non-secret run is byte-identical', async () => {
    const path = join(dir, 'plain.jsonl');
    const recorder = new RecordingLanguageModel(openAi(), { path });
    const first = await recorder.generate({ role: 'planner', messages: [{ role: 'user', content: 'plan: open "Wi-Fi" ✓ — ünïcode' }] });
    const replay = new ReplayingLanguageModel({ path });
    const second = await replay.generate({ role: 'planner', messages: [{ role: 'user', content: 'plan: open "Wi-Fi" ✓ — ünïcode' }] });
    expect(Buffer.from(second.text).equals(Buffer.from(first.text))).toBe(true);
    expect(second).toEqual(first);
  });

  it('never writes a secret to the cassette file', async () => {
    const path = join(dir, 'secret.jsonl');
    await run(new RecordingLanguageModel(openAi(), { path, secrets: [apiKey, localKey] }));
    const text = readFileSync(path, 'utf8');
    expect(text).not.toContain(apiKey);
    expect(text).not.toMatch(/sk-[A-Za-z0-9_-]{12,}/);
    expect(text).not.toMatch(/authorization|bearer/i);
    expect(text).toContain('[REDACTED]');
    // The server did see the key: redaction happens on the way to disk only.
    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${apiKey}`);
  });

  it('a miss in replay throws CassetteMissError naming the hash and the request', async () => {
    const path = join(dir, 'miss.jsonl');
    await run(new RecordingLanguageModel(openAi(), { path }));
    const replayer = new ReplayingLanguageModel({ path });
    const error = await replayer.generate({ role: 'planner', messages: [{ role: 'user', content: 'a prompt that changed since recording' }] }).catch((caught: unknown) => caught);
    expect(CassetteMissError.isInstance(error)).toBe(true);
    const message = (error as Error).message;
    expect(message).toMatch(/hash [0-9a-f]{32}/);
    expect(message).toContain((error as CassetteMissError).hash);
    expect(message).toContain('a prompt that changed since recording');
    expect(message).toContain(path);
  });

  it('a third identical call when two were recorded is a miss too', async () => {
    const path = join(dir, 'count.jsonl');
    await run(new RecordingLanguageModel(openAi(), { path }));
    const replayer = new ReplayingLanguageModel({ path });
    await run(replayer);
    const error = await replayer.generate({ role: 'verifier', messages: [{ role: 'user', content: 'same question' }] }).catch((caught: unknown) => caught);
    expect(CassetteMissError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(/only 2 call\(s\) with this hash were recorded, this is call 3/);
  });

  it('a different model for the same role misses', async () => {
    const path = join(dir, 'model.jsonl');
    await run(new RecordingLanguageModel(openAi(), { path }));
    const replayer = new ReplayingLanguageModel({ path, models: { verifier: 'another-model' } });
    await expect(replayer.generate({ role: 'verifier', messages: [{ role: 'user', content: 'same question' }] })).rejects.toThrow(/another-model/);
  });

  it('records and replays vision calls by image hash, storing no image bytes', async () => {
    const path = join(dir, 'vision.jsonl');
    const vision: VisionModel = new OpenAiVisionModel({ config: modelConfigFromEnv({ SENSEACT_BASE_URL: server.url, SENSEACT_VISION_MODEL: 'vlm' }) });
    const png = new Uint8Array(4096).map((_, index) => (index * 7) % 256);
    const request = { role: 'vision' as const, messages: [{ role: 'user' as const, content: 'what is at region 3?', images: [{ png, detail: 'low' as const }] }] };
    const recorded = await new RecordingVisionModel(vision, { path }).generate(request);
    const text = readFileSync(path, 'utf8');
    expect(text).not.toContain(Buffer.from(png).toString('base64').slice(0, 40));
    expect(readCassette(path)[0]?.request.messages[0]?.images).toEqual([{ sha256: expect.stringMatching(/^[0-9a-f]{64}$/) as unknown, bytes: 4096, detail: 'low', tokens: 85 }]);

    const replayer = new ReplayingVisionModel({ path });
    expect(await replayer.generate(request)).toEqual({ ...recorded, text: recorded.text.split(apiKey).join('[REDACTED]') });
    const otherImage = png.slice();
    otherImage[0] = 255;
    await expect(replayer.generate({ ...request, messages: [{ role: 'user', content: 'what is at region 3?', images: [{ png: otherImage, detail: 'low' }] }] })).rejects.toThrow(/Cassette miss/);
  });

  it('tolerates a torn last line, rejects a corrupt middle line and a missing file', async () => {
    const path = join(dir, 'torn.jsonl');
    await run(new RecordingLanguageModel(openAi(), { path }));
    appendFileSync(path, '{"v":1,"hash":"abc');
    expect(readCassette(path)).toHaveLength(4);
    writeFileSync(path, `not json\n${readFileSync(path, 'utf8')}`);
    expect(() => readCassette(path)).toThrow(/line 1: the line is not JSON/);
    const missing = (() => {
      try {
        return new ReplayingLanguageModel({ path: join(dir, 'nope.jsonl') });
      } catch (caught) {
        return caught;
      }
    })();
    expect(CassetteReadError.isInstance(missing)).toBe(true);
  });

  it('append mode continues occurrence numbering across recorders', async () => {
    const path = join(dir, 'append.jsonl');
    const request = { role: 'verifier' as const, messages: [{ role: 'user' as const, content: 'same question' }] };
    await new RecordingLanguageModel(openAi(), { path }).generate(request);
    await new RecordingLanguageModel(openAi(), { path, mode: 'append' }).generate(request);
    expect(readCassette(path).map((entry) => entry.occurrence)).toEqual([0, 1]);
    const replayer = new ReplayingLanguageModel({ path });
    const texts = [(await replayer.generate(request)).text, (await replayer.generate(request)).text];
    expect(texts[0]).not.toBe(texts[1]);
  });
});

describe('createConfiguredModels', () => {
  it('records text and vision calls into one cassette and replays them without an endpoint', async () => {
    const path = join(dir, 'stack', 'run.jsonl');
    const config = modelConfigFromEnv({ SENSEACT_BASE_URL: server.url, SENSEACT_API_KEY: apiKey, SENSEACT_VISION_MODEL: 'vlm' });
    const recording = createConfiguredModels({ config, cassette: { mode: 'record', path }, retry: { initialDelayMs: 1 } });
    expect(recording.description).toContain('recording to');
    const png = new Uint8Array([1, 2, 3, 4]);
    const textRequest = { role: 'verifier' as const, messages: [{ role: 'user' as const, content: 'is it on?' }] };
    const visionRequest = { role: 'vision' as const, messages: [{ role: 'user' as const, content: 'look', images: [{ png }] }] };
    const recorded = [await recording.language.generate(textRequest), await recording.vision.generate(visionRequest)];
    expect(readCassette(path).map((entry) => entry.role)).toEqual(['verifier', 'vision']);
    expect(readFileSync(path, 'utf8')).not.toContain(apiKey);

    await server.close();
    const replaying = createConfiguredModels({ config: modelConfigFromEnv({}), cassette: { mode: 'replay', path } });
    const replayed = [await replaying.language.generate(textRequest), await replaying.vision.generate(visionRequest)];
    expect(replayed.map((reply) => reply.usage)).toEqual(recorded.map((reply) => reply.usage));
    expect(replayed.map((reply) => reply.text)).toEqual(readCassette(path).map((entry) => entry.reply.text));
    const miss = await replaying.language.generate({ role: 'verifier', messages: [{ role: 'user', content: 'new question' }] }).catch((caught: unknown) => caught);
    expect(isModelInfrastructureError(miss)).toBe(true);
    expect(isModelInfrastructureError(new Error('agent gave up'))).toBe(false);
  });

  it('without a cassette talks to the endpoint and refuses a remote endpoint without a key', async () => {
    const live = createConfiguredModels({ config: modelConfigFromEnv({ SENSEACT_BASE_URL: server.url }) });
    expect((await live.language.generate({ role: 'planner', messages: [{ role: 'user', content: 'hi' }] })).text).toMatch(/^echo/);
    expect(() => createConfiguredModels({ config: modelConfigFromEnv({}) })).toThrow(/SENSEACT_API_KEY/);
  });
});
