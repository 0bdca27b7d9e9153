// How a structured request reaches an endpoint: the mode and its default per endpoint,
// the strict form of the agent's schemas, and the sampling settings per role.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { planReplySchema, reactReplySchema } from '../../../src/agent/planning/plan-reply.js';
import { chatRequestBody, type ChatBodyInput } from '../../../src/model/chat-request-body.js';
import { noQuirks } from '../../../src/model/endpoint-quirks.js';
import { isSchema, jsonSchemaOf, strictJsonSchema, type JsonSchema } from '../../../src/model/json-schema.js';
import { defaultStructuredOutputMode, modelConfigFromEnv } from '../../../src/model/model-config-from-env.js';

/** Every object node of a schema, with its path. */
function objects(node: unknown, path = '(root)'): [string, JsonSchema][] {
  if (!isSchema(node)) return Array.isArray(node) ? node.flatMap((item, index) => objects(item, `${path}|${index}`)) : [];
  const own: [string, JsonSchema][] = isSchema(node['properties']) ? [[path, node]] : [];
  return [...own, ...Object.entries(node).flatMap(([key, value]) => objects(value, `${path}.${key}`))];
}

describe('strictJsonSchema', () => {
  it("turns the planner's schema into OpenAI's strict subset: all keys required, none extra, optional ones nullable", () => {
    const input = jsonSchemaOf(planReplySchema)!;
    const strict = strictJsonSchema(input);
    if (!strict.success) throw new Error(strict.error);
    for (const [path, node] of objects(strict.value)) {
      expect(node['required'], path).toEqual(Object.keys(node['properties'] as object));
      expect(node['additionalProperties'], path).toBe(false);
    }
    const text = JSON.stringify(strict.value);
    for (const keyword of ['"default"', '"minLength"', '"maxItems"', '"$schema"']) expect(text).not.toContain(keyword);
    const properties = strict.value['properties'] as Record<string, JsonSchema>;
    expect(properties['intent']).toEqual({ type: 'string' });
    expect(properties['answer']).toEqual({ type: ['string', 'null'] });
    expect(properties['finish']).toEqual({ type: ['boolean', 'null'] });
    // The input schema itself is untouched (it still says which keys are optional).
    expect(input['required']).toEqual(['intent']);
  });

  it('keeps a nullable union nullable once, and refuses objects with open keys', () => {
    const strict = strictJsonSchema(jsonSchemaOf(reactReplySchema)!);
    if (!strict.success) throw new Error(strict.error);
    const action = (strict.value['properties'] as Record<string, JsonSchema>)['action']!;
    expect((action['anyOf'] as unknown[]).filter((branch) => JSON.stringify(branch) === '{"type":"null"}')).toHaveLength(1);
    const open = strictJsonSchema(jsonSchemaOf(z.object({ values: z.record(z.string(), z.number()) }))!);
    expect(open).toEqual({ success: false, error: expect.stringMatching(/\(root\)\.values is an object with open keys/) as unknown });
  });
});

describe('chatRequestBody', () => {
  const base: ChatBodyInput = {
    model: 'm',
    messages: [{ role: 'user', content: 'hi' }],
    request: { role: 'planner', messages: [], responseFormat: { name: 'Plan Reply!', schema: jsonSchemaOf(planReplySchema)! } },
    settings: {},
    structured: 'json_schema',
    jsonMode: false,
    quirks: noQuirks,
  };

  it('asks for strict json_schema, json_object or nothing by mode', () => {
    const strict = chatRequestBody(base).response_format;
    expect(strict).toMatchObject({ type: 'json_schema', json_schema: { name: 'Plan_Reply_', strict: true } });
    expect(chatRequestBody({ ...base, structured: 'json_object' }).response_format).toEqual({ type: 'json_object' });
    expect(chatRequestBody({ ...base, structured: 'none' })).not.toHaveProperty('response_format');
    const open = chatRequestBody({ ...base, request: { ...base.request, responseFormat: { name: 'x', schema: jsonSchemaOf(z.record(z.string(), z.number()))! } } });
    expect(open.response_format).toMatchObject({ type: 'json_schema', json_schema: { strict: false } });
  });

  it("uses the role's settings where the request sets none, and leaves out what the endpoint refused", () => {
    const body = chatRequestBody({ ...base, settings: { temperature: 0.2, topP: 0.9, seed: 7, maxTokens: 300 }, request: { ...base.request, temperature: 0 } });
    expect(body).toMatchObject({ temperature: 0, top_p: 0.9, seed: 7, max_tokens: 300 });
    const adapted = chatRequestBody({ ...base, settings: { temperature: 0.2, topP: 0.9, seed: 7, maxTokens: 300 }, quirks: { ...noQuirks, dropTopP: true, dropSeed: true, maxCompletionTokens: true } });
    expect(adapted).toMatchObject({ temperature: 0.2, max_completion_tokens: 300 });
    expect(adapted).not.toHaveProperty('top_p');
    expect(adapted).not.toHaveProperty('seed');
    expect(chatRequestBody({ ...base, request: { role: 'planner', messages: [] } })).toEqual({ model: 'm', messages: base.messages });
  });
});

describe('structured mode and per-role settings from the environment', () => {
  it('defaults to json_schema for OpenAI and local servers, json_object elsewhere', () => {
    expect(defaultStructuredOutputMode('https://api.openai.com/v1')).toBe('json_schema');
    expect(defaultStructuredOutputMode('http://127.0.0.1:11434/v1')).toBe('json_schema');
    expect(defaultStructuredOutputMode('https://api.together.xyz/v1')).toBe('json_object');
    const config = modelConfigFromEnv({ SENSEACT_API_KEY: 'k' });
    expect([config.structured, config.structuredSource]).toEqual(['json_schema', 'default']);
  });

  it('SENSEACT_STRUCTURED wins over the default and the option over both; a bad value is a problem that names the variable', () => {
    expect(modelConfigFromEnv({ SENSEACT_API_KEY: 'k', SENSEACT_STRUCTURED: 'NONE' })).toMatchObject({ structured: 'none', structuredSource: 'env:SENSEACT_STRUCTURED' });
    expect(modelConfigFromEnv({ SENSEACT_API_KEY: 'k', SENSEACT_STRUCTURED: 'none' }, { structured: 'json_object' })).toMatchObject({ structured: 'json_object', structuredSource: 'option' });
    const bad = modelConfigFromEnv({ SENSEACT_API_KEY: 'k', SENSEACT_STRUCTURED: 'grammar' });
    expect(bad.ready).toBe(false);
    expect(bad.problems.join('\n')).toMatch(/SENSEACT_STRUCTURED must be one of json_schema, json_object, none, got "grammar"/);
  });

  it('resolves temperature, top_p, seed and max_tokens per role: role over all, option over environment', () => {
    const config = modelConfigFromEnv(
      { SENSEACT_API_KEY: 'k', SENSEACT_TEMPERATURE: '0.7', SENSEACT_SEED: '42', SENSEACT_PLANNER_TEMPERATURE: '0', SENSEACT_VISION_MAX_TOKENS: '200', SENSEACT_VERIFIER_TOP_P: '0.5' },
      { generation: { all: { seed: 1 }, judge: { temperature: 1.5 } } },
    );
    expect(config.generation?.planner).toEqual({ temperature: 0, seed: 1 });
    expect(config.generation?.vision).toEqual({ temperature: 0.7, seed: 1, maxTokens: 200 });
    expect(config.generation?.verifier).toEqual({ temperature: 0.7, seed: 1, topP: 0.5 });
    expect(config.generation?.judge).toEqual({ temperature: 1.5, seed: 1 });
    expect(config.problems).toEqual([]);
  });

  it('reports a value out of range or not a number, naming the variable', () => {
    const config = modelConfigFromEnv({ SENSEACT_API_KEY: 'k', SENSEACT_TEMPERATURE: 'warm', SENSEACT_PLANNER_TOP_P: '0', SENSEACT_MAX_TOKENS: '12.5' });
    expect(config.problems).toHaveLength(3);
    expect(config.problems.join('\n')).toMatch(/SENSEACT_TEMPERATURE is not a valid temperature \("warm"\)/);
    expect(config.problems.join('\n')).toMatch(/SENSEACT_PLANNER_TOP_P is not a valid topP/);
    expect(config.problems.join('\n')).toMatch(/SENSEACT_MAX_TOKENS is not a valid maxTokens/);
    expect(config.generation?.planner).toBeUndefined();
  });
});
