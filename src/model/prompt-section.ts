import { z } from 'zod';

/**
 * What a part of a prompt is for, so its tokens can be counted apart (docs/architecture.md §2.4:
 * "measure every section"):
 * - `system`: the system prompt (instructions, formats, rules).
 * - `task`: the instruction, the allowed apps, the intent a verifier or the gate checks.
 * - `history`: earlier intents and their outcomes, or a baseline's previous actions.
 * - `certificates`: retrieved feedback certificates.
 * - `plan`: the meta-plan and its progress vector (sub-tasks done by check, by word, pending).
 * - `memory`: app-abstraction hints (the app map, notes on how a kind of goal was reached).
 * - `feedback`: lines derived from verification (rejections, "change strategy", what failed).
 * - `view`: the screen (the reduced view, or the gate's candidate regions).
 * - `scg`: the Structured Control Graph's lines (which unit comes before which, the frontier).
 * - `images`: screenshots, at their real size and detail.
 * - `format`: a JSON-format instruction added for structured replies.
 * - `retry`: a rejected reply and the correction asked for.
 * - `framing`: per-message overhead and the separators between parts.
 * - `other`: text nobody labelled.
 */
export const promptSectionSchema = z.enum(['system', 'task', 'history', 'certificates', 'plan', 'memory', 'feedback', 'view', 'scg', 'images', 'format', 'retry', 'framing', 'other']);
export type PromptSection = z.infer<typeof promptSectionSchema>;

/** One labelled part of a message's text. */
export interface PromptPart {
  readonly section: PromptSection;
  readonly text: string;
}

/** Tokens per section; sections without tokens are absent. */
export type SectionTokens = Partial<Record<PromptSection, number>>;

/**
 * A message's text built from labelled parts, joined by `separator` (empty parts are
 * left out), with the parts kept beside it: how a prompt builder says which part is
 * which, so the accounting follows the prompt when it is edited.
 */
export function sectionedContent(parts: readonly PromptPart[], separator = '\n\n'): { content: string; sections: PromptPart[] } {
  const sections = parts.filter((part) => part.text !== '');
  return { content: sections.map((part) => part.text).join(separator), sections };
}
