import { describe, expect, it } from 'vitest';
import { ModelConfigError } from '../../../src/model/model-config-error.js';
import { defaultBaseUrl, defaultModels, modelConfigFromEnv, requireModelConfig } from '../../../src/model/model-config-from-env.js';
import { OpenAiLanguageModel } from '../../../src/model/openai-language-model.js';

describe('modelConfigFromEnv', () => {
  it('uses defaults and reports the missing key, naming the option and the variables', () => {
    const config = modelConfigFromEnv({});
    expect(config.baseUrl).toBe(defaultBaseUrl);
    expect(config.models).toEqual(defaultModels);
    expect(config.roles.planner).toEqual({ model: 'gpt-4o', source: 'default', explicit: false });
    expect(config.ready).toBe(false);
    expect(config.problems[0]).toMatch(/apiKey option.*SENSEACT_API_KEY.*OPENAI_API_KEY/);
    expect(() => requireModelConfig(config, ['planner'])).toThrow(/planner is incomplete[\s\S]*SENSEACT_API_KEY/);
    const error = (() => {
      try {
        requireModelConfig(config);
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(ModelConfigError.isInstance(error)).toBe(true);
  });

  it('prefers options over SENSEACT_* over OPENAI_* variables', () => {
    const env = { OPENAI_API_KEY: 'sk-openai-xxxxxxxxxxxxxxxx', SENSEACT_API_KEY: 'sk-senseact-xxxxxxxxxxxx', OPENAI_BASE_URL: 'https://a.example/v1', SENSEACT_BASE_URL: 'https://b.example/v1/' };
    const fromEnv = modelConfigFromEnv(env);
    expect(fromEnv.apiKey).toBe('sk-senseact-xxxxxxxxxxxx');
    expect(fromEnv.apiKeySource).toBe('env:SENSEACT_API_KEY');
    expect(fromEnv.baseUrl).toBe('https://b.example/v1');
    expect(fromEnv.ready).toBe(true);
    const fromOptions = modelConfigFromEnv(env, { apiKey: 'option-key-123456', baseUrl: 'https://c.example/v1', models: { vision: 'my-vlm' } });
    expect(fromOptions.apiKeySource).toBe('option');
    expect(fromOptions.baseUrl).toBe('https://c.example/v1');
    expect(fromOptions.roles.vision).toEqual({ model: 'my-vlm', source: 'option', explicit: true });
  });

  it('per-role variables, borrowing between text roles, and SENSEACT_MODEL for the rest', () => {
    const config = modelConfigFromEnv({ SENSEACT_API_KEY: 'k', SENSEACT_PLANNER_MODEL: 'qwen-72b', SENSEACT_MODEL: 'qwen-vl-7b' });
    expect(config.models.planner).toBe('qwen-72b');
    expect(config.roles.verifier.source).toBe('role:planner');
    expect(config.models.verifier).toBe('qwen-72b');
    expect(config.roles.judge).toEqual({ model: 'qwen-72b', source: 'role:verifier', explicit: true });
    expect(config.roles.vision).toEqual({ model: 'qwen-vl-7b', source: 'env:SENSEACT_MODEL', explicit: true });
  });

  it('needs no key for loopback servers', () => {
    for (const url of ['http://127.0.0.1:8000/v1', 'http://localhost:11434/v1', 'http://[::1]:1234/v1']) {
      const config = modelConfigFromEnv({ SENSEACT_BASE_URL: url });
      expect(config.apiKeyRequired, url).toBe(false);
      expect(config.ready, url).toBe(true);
    }
  });

  it('reads the per-attempt timeout, and reports a bad one', () => {
    expect(modelConfigFromEnv({ SENSEACT_API_KEY: 'k', SENSEACT_MODEL_TIMEOUT_MS: '180000' }).timeoutMs).toBe(180_000);
    expect(modelConfigFromEnv({ SENSEACT_API_KEY: 'k', SENSEACT_MODEL_TIMEOUT_MS: '1' }, { timeoutMs: 5 }).timeoutMs).toBe(5);
    expect(modelConfigFromEnv({ SENSEACT_API_KEY: 'k' })).not.toHaveProperty('timeoutMs');
    const bad = modelConfigFromEnv({ SENSEACT_API_KEY: 'k', SENSEACT_MODEL_TIMEOUT_MS: 'soon' });
    expect(bad.ready).toBe(false);
    expect(bad.problems[0]).toMatch(/SENSEACT_MODEL_TIMEOUT_MS.*"soon"/);
  });

  it('refuses a timeout Node cannot keep (longer than 2^31 - 1 ms fires after 1 ms), a fraction, zero, in the environment and the option', () => {
    for (const text of ['1e12', '2147483648', '0.5', '0', '-5']) {
      const config = modelConfigFromEnv({ SENSEACT_API_KEY: 'k', SENSEACT_MODEL_TIMEOUT_MS: text });
      expect(config.problems, text).toEqual([`SENSEACT_MODEL_TIMEOUT_MS must be a whole number of milliseconds from 1 to 2147483647 (e.g. 60000 for a minute), got "${text}" (or pass the timeoutMs option).`]);
    }
    expect(modelConfigFromEnv({ SENSEACT_API_KEY: 'k' }, { timeoutMs: Number.NaN }).problems).toEqual(['The timeoutMs option must be a whole number of milliseconds from 1 to 2147483647 (e.g. 60000 for a minute), got NaN.']);
    // Control: the longest timer Node keeps is accepted.
    expect(modelConfigFromEnv({ SENSEACT_API_KEY: 'k', SENSEACT_MODEL_TIMEOUT_MS: '2147483647' }).timeoutMs).toBe(2_147_483_647);
    const config = modelConfigFromEnv({ SENSEACT_BASE_URL: 'http://127.0.0.1:1/v1' });
    expect(() => new OpenAiLanguageModel({ config, timeoutMs: 3e9 })).toThrow(/timeoutMs option, or SENSEACT_MODEL_TIMEOUT_MS\) must be a whole number of milliseconds from 1 to 2147483647.*got 3000000000/);
    expect(() => new OpenAiLanguageModel({ config, timeoutMs: 30_000 })).not.toThrow();
  });

  it('reports a malformed base URL', () => {
    const config = modelConfigFromEnv({ SENSEACT_BASE_URL: 'not a url', SENSEACT_API_KEY: 'k' });
    expect(config.problems.join(' ')).toMatch(/"not a url".*SENSEACT_BASE_URL.*not a URL/);
  });

  it('the adapter refuses to start without a key for a remote endpoint', () => {
    expect(() => new OpenAiLanguageModel({ config: modelConfigFromEnv({}) })).toThrow(/SENSEACT_API_KEY/);
    expect(new OpenAiLanguageModel({ config: modelConfigFromEnv({ SENSEACT_BASE_URL: 'http://127.0.0.1:9/v1' }) }).modelName('planner')).toBe('gpt-4o');
  });
});
