import type { Result } from '../util/result.js';

/**
 * Finds the JSON value in a model's reply. Tries, in order: the whole reply; each fenced
 * block (```json … ``` or ``` … ```), last first since models often correct themselves;
 * then every balanced `{…}` or `[…]` span in the text, first to last. Returns the first
 * candidate that parses; the error says what was tried.
 */
export function extractJson(text: string): Result<unknown, string> {
  const trimmed = text.trim();
  if (trimmed.length === 0) return { success: false, error: 'The reply is empty; expected a JSON object.' };
  const whole = tryParse(trimmed);
  if (whole.success) return whole;

  const fences = [...trimmed.matchAll(/```[ \t]*([A-Za-z0-9_-]*)[^\n]*\n([\s\S]*?)```/g)];
  for (const fence of fences.reverse()) {
    const body = fence[2];
    if (body === undefined) continue;
    const parsed = tryParse(body.trim());
    if (parsed.success) return parsed;
  }

  for (let start = 0; start < trimmed.length; start++) {
    const char = trimmed[start];
    if (char !== '{' && char !== '[') continue;
    const end = balancedEnd(trimmed, start);
    if (end === -1) continue;
    const parsed = tryParse(trimmed.slice(start, end + 1));
    if (parsed.success) return parsed;
  }

  const fenceNote = fences.length > 0 ? ` ${fences.length} fenced block(s) did not parse either.` : '';
  return {
    success: false,
    error: `No parsable JSON object in the reply: ${whole.error}.${fenceNote} Reply with one JSON object only.`,
  };
}

function tryParse(text: string): Result<unknown, string> {
  try {
    return { success: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { success: false, error: error instanceof Error ? error.message : String(error) };
  }
}

/** Index of the bracket closing the one at `start`, skipping string contents; -1 if unbalanced. */
function balancedEnd(text: string, start: number): number {
  const stack: string[] = [];
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const char = text[i];
    if (inString) {
      if (char === '\\') i += 1;
      else if (char === '"') inString = false;
      continue;
    }
    if (char === '"') inString = true;
    else if (char === '{') stack.push('}');
    else if (char === '[') stack.push(']');
    else if (char === '}' || char === ']') {
      if (stack.pop() !== char) return -1;
      if (stack.length === 0) return i;
    }
  }
  return -1;
}
