/**
 * How a provider's prompt cache serves a shared prompt start: in whole blocks of `block`
 * tokens, and only once the prompt and the served part reach `minimumTokens`
 * (docs/models-and-traces.md, "Prompt caching").
 */
export interface PrefixCacheModel {
  /** Short name for tables: `exact`, `vllm`, `openai`. */
  readonly name: string;
  /** Which servers it stands for. */
  readonly describes: string;
  /** Tokens per cache block: only whole blocks of the shared start are served. */
  readonly block: number;
  /** Prompts shorter than this are not cached at all, nor served a shorter start. */
  readonly minimumTokens: number;
}

/**
 * The caches the prompt-token bench models. A prefix cache is kept per server (or per API
 * key and routing), not per run: every call may be served what any earlier call began with.
 */
export const prefixCacheModels: readonly PrefixCacheModel[] = [
  { name: 'exact', describes: 'token-granular radix cache (SGLang page size 1): the whole shared start', block: 1, minimumTokens: 0 },
  { name: 'vllm', describes: "vLLM automatic prefix caching with its default 16-token blocks (only full blocks are hashed and reused)", block: 16, minimumTokens: 0 },
  { name: 'openai', describes: 'OpenAI prompt caching: prompts of 1,024 tokens or more, hits in steps of 128 tokens', block: 128, minimumTokens: 1024 },
];

/** Tokens of a prompt of `promptTokens` that `model` serves from its cache when `sharedTokens` of its start were seen before. */
export function cachedTokensUnder(model: PrefixCacheModel, sharedTokens: number, promptTokens: number): number {
  if (promptTokens < model.minimumTokens) return 0;
  const served = Math.floor(Math.min(sharedTokens, promptTokens) / model.block) * model.block;
  return served < model.minimumTokens ? 0 : served;
}
