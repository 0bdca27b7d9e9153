/** The tag that fences device text in every prompt (see `screenIsData` in agent-prompts). */
export const screenTag = 'screen';

// `<screen`, `</screen`, `< / SCREEN`: any spelling a model could read as the fence.
const fenceTag = /<(\s*\/?\s*screen)/gi;

/**
 * Device text made safe to place in a prompt: every `<screen` / `</screen` it holds
 * becomes `&lt;screen` / `&lt;/screen`, so app text (a label, a note, a toast) can neither
 * close the screen fence early nor open a fake one. Everything else is left as it is, so
 * labels stay quotable in expectations.
 */
export function escapeFenceTags(text: string): string {
  return text.replace(fenceTag, '&lt;$1');
}

/** `view` inside the screen fence, its own fence tags escaped. */
export function screenFence(view: string): string {
  return `<${screenTag}>\n${escapeFenceTags(view)}\n</${screenTag}>`;
}
