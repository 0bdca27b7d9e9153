import { defaultTokenPrices, type TokenPrices } from './bench-results.js';

/**
 * OpenAI's published list prices in US dollars per 1M tokens (standard tier, text and
 * image input both billed as prompt tokens), by model name. A dated snapshot
 * (`gpt-4o-2024-08-06`) takes its family's price. Models not listed have no known price.
 */
export const knownModelPrices: Readonly<Record<string, { readonly prompt: number; readonly completion: number }>> = {
  'gpt-4o': { prompt: 2.5, completion: 10 },
  'gpt-4o-mini': { prompt: 0.15, completion: 0.6 },
  'gpt-4.1': { prompt: 2, completion: 8 },
  'gpt-4.1-mini': { prompt: 0.4, completion: 1.6 },
  'gpt-4.1-nano': { prompt: 0.1, completion: 0.4 },
  'o4-mini': { prompt: 1.1, completion: 4.4 },
  'gpt-5': { prompt: 1.25, completion: 10 },
  'gpt-5-mini': { prompt: 0.25, completion: 2 },
  'gpt-5-nano': { prompt: 0.05, completion: 0.4 },
};

function knownPrice(model: string): { readonly prompt: number; readonly completion: number } | undefined {
  const family = model.replace(/^openai\//, '').replace(/-\d{4}-\d{2}-\d{2}$/, '');
  return Object.hasOwn(knownModelPrices, family) ? knownModelPrices[family] : undefined;
}

/**
 * The prices to estimate a benchmark's cost with, for the models that answered: the list
 * price when every model named has the same known one; otherwise prices marked
 * `unknown` (cost 0, shown as unknown) whose label names the models and the options that
 * set a price. With no model (the oracle policy) the gpt-4o list price is the reference,
 * and the label says so.
 */
export function pricesForModels(models: readonly string[]): TokenPrices {
  const distinct = [...new Set(models)];
  if (distinct.length === 0) return { ...defaultTokenPrices, label: `${defaultTokenPrices.label}, as a reference (no model was called)` };
  const prices = distinct.map(knownPrice);
  const first = prices[0];
  if (first !== undefined && prices.every((price) => price !== undefined && price.prompt === first.prompt && price.completion === first.completion)) {
    return { label: `${distinct.join(' and ')} list price: $${first.prompt.toFixed(2)} prompt / $${first.completion.toFixed(2)} completion per 1M tokens`, promptPerMillionUsd: first.prompt, completionPerMillionUsd: first.completion };
  }
  const unknown = distinct.filter((_, index) => prices[index] === undefined);
  const why = unknown.length > 0 ? `no known price for ${unknown.join(', ')}` : `${distinct.join(' and ')} have different prices and tokens are not split by model`;
  return { label: `unknown price (${why}; set one with --price-prompt and --price-completion)`, promptPerMillionUsd: 0, completionPerMillionUsd: 0, unknown: true };
}
