import { estimateImagesTokens, estimateTokens, tokensPerMessage } from './estimate-tokens.js';
import type { PromptPart, PromptSection, SectionTokens } from './prompt-section.js';
import type { ModelImage } from './vision-model.js';

/** A message as the accounting sees it: its text, optionally its labelled parts, and images. */
export interface SectionedMessage {
  readonly role: 'system' | 'user' | 'assistant';
  readonly content: string;
  readonly sections?: readonly PromptPart[];
  readonly images?: readonly ModelImage[];
}

/**
 * Estimated prompt tokens (o200k) of `messages` by section. Each labelled part counts
 * its own text; what the message costs beyond its parts (framing, separators) is
 * `framing`; images are `images`. A message without parts, or whose parts are not its
 * text in order (edited after labelling), counts whole under its role's section
 * (`system`; `retry` for an assistant turn; `other` for a user turn). The sections sum to
 * `estimatePromptTokens(messages)`.
 */
export function promptTokensBySection(messages: readonly SectionedMessage[]): SectionTokens {
  const totals: SectionTokens = {};
  const add = (section: PromptSection, tokens: number): void => {
    if (tokens !== 0) totals[section] = (totals[section] ?? 0) + tokens;
  };
  for (const message of messages) {
    const whole = tokensPerMessage + estimateTokens(message.content);
    const parts = message.sections !== undefined && partsMatch(message.content, message.sections) ? message.sections : undefined;
    if (parts === undefined) {
      add(fallbackSection(message.role), whole - tokensPerMessage);
      add('framing', tokensPerMessage);
    } else {
      let counted = 0;
      for (const part of parts) {
        const tokens = estimateTokens(part.text);
        counted += tokens;
        add(part.section, tokens);
      }
      add('framing', whole - counted);
    }
    add('images', estimateImagesTokens(message.images ?? []));
  }
  return totals;
}

/** Sums section counts. */
export function addSectionTokens(into: SectionTokens, more: SectionTokens): SectionTokens {
  const result: SectionTokens = { ...into };
  for (const [section, tokens] of Object.entries(more) as [PromptSection, number][]) result[section] = (result[section] ?? 0) + tokens;
  return result;
}

function fallbackSection(role: SectionedMessage['role']): PromptSection {
  if (role === 'system') return 'system';
  if (role === 'assistant') return 'retry';
  return 'other';
}

/** True when the parts' texts occur in `content` in order without overlapping. */
function partsMatch(content: string, parts: readonly PromptPart[]): boolean {
  let cursor = 0;
  for (const part of parts) {
    const at = content.indexOf(part.text, cursor);
    if (at === -1) return false;
    cursor = at + part.text.length;
  }
  return true;
}
