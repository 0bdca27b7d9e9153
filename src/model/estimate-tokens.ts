import { createRequire } from 'node:module';
import type { countTokens as CountTokens } from 'gpt-tokenizer';
import { estimateImageTokens } from './image-tokens.js';
import type { ModelImage } from './vision-model.js';

/** Tokens of framing each chat message costs besides its text (role and separators). */
export const tokensPerMessage = 4;

/**
 * A local token count for `text` (the o200k tokenizer). Used when a provider sends no
 * usage, and by test doubles so that their usage is realistic and deterministic.
 */
export function estimateTokens(text: string): number {
  // Model replies and UI text may contain special-token look-alikes; count them as text.
  const count = (part: string): number => tokenizer()(part, { disallowedSpecial: noSpecialTokens });
  // Byte-pair merging is quadratic in the length of one word: a reply holding a 100,000-character
  // run took 24 s to count. Runs longer than a word ever is are counted in slices (linear; ordinary text unchanged).
  if (!longRun.test(text)) return count(text);
  let total = count(text.replace(longRunGlobal, ' '));
  for (const run of text.match(longRunGlobal) ?? []) {
    total -= 1;
    for (let at = 0; at < run.length; at += runSlice) total += count(run.slice(at, at + runSlice));
  }
  return Math.max(total, 0);
}

/** Slices of a long run of non-space characters counted apart. */
const runSlice = 256;
const longRun = new RegExp(`\\S{${runSlice + 1},}`);
const longRunGlobal = new RegExp(longRun.source, 'g');

let loaded: typeof CountTokens | undefined;

/**
 * The o200k tokenizer, loaded on first use: its tables cost half a second and ~65 MB,
 * which commands that never count tokens (report, inspect, help) should not pay.
 */
function tokenizer(): typeof CountTokens {
  loaded ??= (createRequire(import.meta.url)('gpt-tokenizer') as { countTokens: typeof CountTokens }).countTokens;
  return loaded;
}

const noSpecialTokens = new Set<string>();

/**
 * Estimated prompt tokens of a list of messages: their text, {@link tokensPerMessage} of
 * framing each, and each image at its real size and requested detail (OpenAI's tile
 * formula, `estimateImageTokens`).
 */
export function estimatePromptTokens(messages: readonly { content: string; images?: readonly ModelImage[] }[]): number {
  let total = 0;
  for (const message of messages) {
    total += tokensPerMessage + estimateTokens(message.content) + estimateImagesTokens(message.images ?? []);
  }
  return total;
}

/** Summed {@link estimateImageTokens} of a list of images. */
export function estimateImagesTokens(images: readonly ModelImage[]): number {
  return images.reduce((total, image) => total + estimateImageTokens(image), 0);
}
