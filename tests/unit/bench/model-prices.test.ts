import { describe, expect, it } from 'vitest';
import { pricesForModels } from '../../../src/bench/model-prices.js';

describe('pricesForModels', () => {
  it("uses the configured model's list price, also for a dated snapshot", () => {
    expect(pricesForModels(['gpt-4o-mini', 'gpt-4o-mini-2024-07-18'])).toEqual({
      label: 'gpt-4o-mini and gpt-4o-mini-2024-07-18 list price: $0.15 prompt / $0.60 completion per 1M tokens',
      promptPerMillionUsd: 0.15,
      completionPerMillionUsd: 0.6,
    });
    expect(pricesForModels(['gpt-4.1'])).toMatchObject({ promptPerMillionUsd: 2, completionPerMillionUsd: 8 });
  });

  it('says "unknown price" for a model without a known price, never another model\'s', () => {
    const prices = pricesForModels(['llama3.1:8b']);
    expect(prices).toEqual({ label: 'unknown price (no known price for llama3.1:8b; set one with --price-prompt and --price-completion)', promptPerMillionUsd: 0, completionPerMillionUsd: 0, unknown: true });
    expect(prices.label).not.toContain('gpt-4o');
    // A name that only starts like a known model is not that model.
    expect(pricesForModels(['gpt-4o-mini-tts']).unknown).toBe(true);
  });

  it('is unknown when the roles use models of different prices (tokens are not split by model)', () => {
    expect(pricesForModels(['gpt-4o-mini', 'gpt-4o'])).toMatchObject({ unknown: true, label: expect.stringContaining('gpt-4o-mini and gpt-4o have different prices') });
  });

  it('labels the gpt-4o reference price as a reference when no model was called (the oracle)', () => {
    expect(pricesForModels([])).toMatchObject({ promptPerMillionUsd: 2.5, label: expect.stringContaining('as a reference (no model was called)') });
  });
});
