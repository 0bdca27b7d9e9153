import { countTokens } from 'gpt-tokenizer';

/** Tokens an image costs in OpenAI's accounting at `detail: low`; a stand-in when nothing better is known. */
export const estimatedTokensPerImage = 85;

/**
 * A local token count for `text` (the o200k tokenizer). Used when a provider sends no
 * usage, and by test doubles so that their usage is realistic and deterministic.
 */
export function estimateTokens(text: string): number {
  // Model replies and UI text may contain special-token look-alikes; count them as text.
  return countTokens(text, { disallowedSpecial: noSpecialTokens });
}

const noSpecialTokens = new Set<string>();

/** Estimated prompt tokens of a list of messages: their text, 4 tokens of framing each, and a flat cost per image. */
export function estimatePromptTokens(messages: readonly { content: string; images?: readonly unknown[] }[]): number {
  let total = 0;
  for (const message of messages) {
    total += 4 + estimateTokens(message.content) + (message.images?.length ?? 0) * estimatedTokensPerImage;
  }
  return total;
}
