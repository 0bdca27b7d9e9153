import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { generateStructured, validateReply } from '../../../src/model/generate-structured.js';
import { InvalidModelReplyError } from '../../../src/model/invalid-model-reply-error.js';
import { ModelCallError } from '../../../src/model/model-call-error.js';
import { ScriptedLanguageModel, ScriptedVisionModel } from '../../../src/model/scripted-language-model.js';
import { SenseActError } from '../../../src/util/senseact-error.js';

const planSchema = z.object({ intent: z.string().min(1), units: z.array(z.string()) });

describe('generateStructured', () => {
  it('returns the validated value and asks for JSON with the schema', async () => {
    const model = new ScriptedLanguageModel({ replies: ['```json\n{"intent": "open settings", "units": ["n1"]}\n```'] });
    const result = await generateStructured(model, { role: 'planner', schema: planSchema, schemaName: 'Plan', messages: [{ role: 'user', content: 'Task: open settings' }] });
    expect(result.value).toEqual({ intent: 'open settings', units: ['n1'] });
    expect(result.attempts).toBe(1);
    const sent = model.calls[0]?.request.messages ?? [];
    expect(sent.map((message) => message.role)).toEqual(['system', 'user']);
    expect(sent[0]?.content).toContain('(Plan)');
    expect(sent[0]?.content).toContain('"intent"');
  });

  it('puts the JSON instruction into an existing leading system message', async () => {
    const model = new ScriptedLanguageModel({ replies: ['{"intent": "x", "units": []}'] });
    await generateStructured(model, { role: 'planner', schema: planSchema, messages: [{ role: 'system', content: 'You plan.' }, { role: 'user', content: 'go' }] });
    const sent = model.calls[0]?.request.messages ?? [];
    expect(sent.map((message) => message.role)).toEqual(['system', 'user']);
    expect(sent[0]?.content).toMatch(/^You plan\.\n\nReply with a single JSON object/);
  });

  it('retries an invalid reply with the validation error appended, and sums usage', async () => {
    const model = new ScriptedLanguageModel({
      replies: [
        { text: '{"intent": "", "units": "n1"}', usage: { promptTokens: 100, completionTokens: 10 } },
        { text: '{"intent": "tap", "units": ["n1"]}', usage: { promptTokens: 150, completionTokens: 12 } },
      ],
    });
    const result = await generateStructured(model, { role: 'planner', schema: planSchema, messages: [{ role: 'user', content: 'go' }], instructJson: false });
    expect(result.value.intent).toBe('tap');
    expect(result.attempts).toBe(2);
    expect(result.usage).toEqual({ promptTokens: 250, completionTokens: 22 });
    const retry = model.calls[1]?.request.messages ?? [];
    expect(retry.map((message) => message.role)).toEqual(['user', 'assistant', 'user']);
    expect(retry[1]?.content).toBe('{"intent": "", "units": "n1"}');
    expect(retry[2]?.content).toMatch(/intent: .*>=1 characters/);
    expect(retry[2]?.content).toMatch(/units: /);
  });

  it('throws InvalidModelReplyError after the retries, carrying raw text, model, usage and issues', async () => {
    const model = new ScriptedLanguageModel({ model: 'tiny-model', replies: ['no json', 'still {"bad": 1}', 'nope'] });
    const error = await generateStructured(model, { role: 'verifier', schema: planSchema, messages: [{ role: 'user', content: 'q' }], maxRetries: 2 }).catch((caught: unknown) => caught);
    expect(InvalidModelReplyError.isInstance(error)).toBe(true);
    expect(ModelCallError.isInstance(error)).toBe(false);
    expect(SenseActError.isInstance(error)).toBe(true);
    if (!InvalidModelReplyError.isInstance(error)) return;
    expect(error.rawText).toBe('nope');
    expect(error.rawTexts).toEqual(['no json', 'still {"bad": 1}', 'nope']);
    expect(error.model).toBe('tiny-model');
    expect(error.role).toBe('verifier');
    expect(error.attempts).toBe(3);
    expect(error.usage.completionTokens).toBeGreaterThan(0);
    expect(error.issues[0]?.message).toMatch(/No parsable JSON/);
    expect(error.message).toMatch(/The endpoint answered; the model's replies did not fit/);
    expect(model.calls).toHaveLength(3);
  });

  it('says when a reply was cut off by the token limit', async () => {
    const model = new ScriptedLanguageModel({ replies: [{ text: '{"intent": "tap the', finishReason: 'length' }, '{"intent": "tap", "units": []}'] });
    const result = await generateStructured(model, { role: 'planner', schema: planSchema, messages: [{ role: 'user', content: 'go' }], maxTokens: 8 });
    expect(result.attempts).toBe(2);
    expect(model.calls[1]?.request.messages.at(-1)?.content).toMatch(/cut off by the token limit \(maxTokens 8\)/);
  });

  it('lets model-call errors through unchanged (no retry of infrastructure errors here)', async () => {
    const failure = new Error('endpoint down');
    const model = new ScriptedLanguageModel({ replies: [{ error: failure }] });
    await expect(generateStructured(model, { role: 'planner', schema: planSchema, messages: [] })).rejects.toBe(failure);
    expect(model.calls).toHaveLength(1);
  });

  it('works with a vision model and keeps the images in the request', async () => {
    const model = new ScriptedVisionModel({ replies: ['{"intent": "tap", "units": []}'] });
    const png = new Uint8Array([137, 80, 78, 71]);
    const result = await generateStructured(model, { role: 'vision', schema: planSchema, messages: [{ role: 'user', content: 'where?', images: [{ png, detail: 'low' }] }] });
    expect(result.value.units).toEqual([]);
    const first = model.calls[0]?.request.messages[1];
    expect(first && 'images' in first ? first.images[0]?.png : undefined).toBe(png);
  });

  it('validateReply skips an example object quoted before the answer', () => {
    const result = validateReply('Format: {"intent": "<text>"}. Answer: {"intent": "tap", "units": ["n1"]}', planSchema);
    expect(result).toEqual({ success: true, value: { intent: 'tap', units: ['n1'] }, repairs: [{ kind: 'surrounding-text' }] });
  });

  it('validateReply reports zod paths', () => {
    const result = validateReply('{"intent": "x", "units": [1]}', planSchema);
    expect(result.success).toBe(false);
    if (!result.success) expect(result.issues[0]?.path).toEqual(['units', 0]);
  });
});
