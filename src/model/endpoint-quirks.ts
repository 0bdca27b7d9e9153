import OpenAI from 'openai';
import type { ChatCompletionCreateParamsNonStreaming } from 'openai/resources/chat/completions';
import { weakerStructuredMode, type StructuredOutputMode } from './structured-output-mode.js';

/** What a model's endpoint turned out not to accept, learned from its 400 replies. */
export interface EndpointQuirks {
  /** Send `max_completion_tokens` instead of `max_tokens` (OpenAI reasoning models). */
  readonly maxCompletionTokens: boolean;
  /** Leave `temperature` out (models that only allow the default). */
  readonly dropTemperature: boolean;
  /** Leave `top_p` out. */
  readonly dropTopP: boolean;
  /** Leave `seed` out. */
  readonly dropSeed: boolean;
  /** The strongest structured-output mode the endpoint accepted; undefined until one was refused. */
  readonly structuredCeiling?: StructuredOutputMode;
}

export const noQuirks: EndpointQuirks = { maxCompletionTokens: false, dropTemperature: false, dropTopP: false, dropSeed: false };

/**
 * The adapted quirks when `error` is a 400 that names a request parameter we can change
 * or drop without changing what is asked, else undefined: `max_tokens` →
 * `max_completion_tokens`, an unsupported temperature / top_p / seed left out, a refused
 * `response_format` replaced by the next weaker structured mode.
 */
export function learnQuirk(error: unknown, body: ChatCompletionCreateParamsNonStreaming, quirks: EndpointQuirks, structured: StructuredOutputMode): EndpointQuirks | undefined {
  if (!(error instanceof OpenAI.APIError) || error.status !== 400) return undefined;
  const text = `${error.message} ${JSON.stringify(error.error ?? '')}`;
  const refused = /unsupported|not support|only the default|not allowed|not permitted|unrecognized|unknown|invalid|extra/i.test(text);
  if (!quirks.maxCompletionTokens && 'max_tokens' in body && /max_completion_tokens/.test(text)) return { ...quirks, maxCompletionTokens: true };
  if (!quirks.dropTemperature && 'temperature' in body && /temperature/i.test(text) && /unsupported|not support|only the default/i.test(text)) return { ...quirks, dropTemperature: true };
  if (!quirks.dropTopP && 'top_p' in body && /top_p/i.test(text) && refused) return { ...quirks, dropTopP: true };
  if (!quirks.dropSeed && 'seed' in body && /\bseed\b/i.test(text) && refused) return { ...quirks, dropSeed: true };
  if ('response_format' in body && /response_format|json_schema|json_object|structured output|strict/i.test(text)) {
    const weaker = weakerStructuredMode(structured);
    if (weaker !== undefined) return { ...quirks, structuredCeiling: weaker };
  }
  return undefined;
}
