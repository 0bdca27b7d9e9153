import { estimateTokens } from './estimate-tokens.js';

/** The text of a prompt in the order a provider reads it: each message's role, then its content. Images are left out. */
export function promptPrefixText(messages: readonly { readonly role: string; readonly content: string }[]): string {
  return messages.map((message) => `${message.role}\n${message.content}\n`).join('');
}

/**
 * Tokens (o200k estimate) of the longest start `text` shares with any of `earlier`: what a
 * provider's prefix cache (vLLM's automatic prefix caching, OpenAI's prompt caching past its
 * minimum length) could serve of this prompt after those. 0 when nothing is shared.
 */
export function sharedPrefixTokens(text: string, earlier: readonly string[]): number {
  let longest = 0;
  for (const other of earlier) longest = Math.max(longest, commonStart(text, other));
  return longest === 0 ? 0 : estimateTokens(text.slice(0, longest));
}

/** Characters two texts share from their start (UTF-16 code units). */
export function commonStart(a: string, b: string): number {
  const limit = Math.min(a.length, b.length);
  let at = 0;
  while (at < limit && a.charCodeAt(at) === b.charCodeAt(at)) at += 1;
  return at;
}
