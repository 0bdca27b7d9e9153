import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { generateStructured } from '../../../src/model/generate-structured.js';
import { modelConfigFromEnv, requireModelConfig } from '../../../src/model/model-config-from-env.js';
import { OpenAiLanguageModel } from '../../../src/model/openai-language-model.js';

// Talks to a real OpenAI-compatible endpoint: run with SENSEACT_LIVE_MODEL_TESTS=1 and the
// usual SENSEACT_BASE_URL / SENSEACT_API_KEY / SENSEACT_PLANNER_MODEL. Skipped otherwise.
const live = process.env['SENSEACT_LIVE_MODEL_TESTS'] === '1';

describe.skipIf(!live)('live endpoint', () => {
  it('answers a structured question through generateStructured', async () => {
    const config = requireModelConfig(modelConfigFromEnv(process.env), ['planner']);
    const model = new OpenAiLanguageModel({ config, timeoutMs: 60_000 });
    const result = await generateStructured(model, {
      role: 'planner',
      schema: z.object({ sum: z.number() }),
      messages: [{ role: 'user', content: 'What is 2 + 3? Answer as {"sum": <number>}.' }],
      temperature: 0,
    });
    expect(result.value.sum).toBe(5);
    expect(result.usage.promptTokens).toBeGreaterThan(0);
  });
});
