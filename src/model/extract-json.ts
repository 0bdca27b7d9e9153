import type { Result } from '../util/result.js';

/**
 * Finds the JSON value in a model's reply, after dropping `<think>` blocks: the first of
 * {@link extractJsonCandidates}. The error says what was tried.
 */
export function extractJson(text: string): Result<unknown, string> {
  for (const value of jsonCandidates(text)) return { success: true, value };
  return { success: false, error: extractionError(text) };
}

/**
 * Every JSON value in a model's reply, most likely first: the whole reply; each fenced
 * block (```json … ``` or ``` … ```), last first since models often correct themselves;
 * then every balanced top-level `{…}` or `[…]` span in the text, first to last (the
 * inside of a span that parsed is not searched again). `<think>` blocks are dropped;
 * trailing commas and comments are forgiven. At most `limit` values.
 */
export function extractJsonCandidates(text: string, limit = 16): unknown[] {
  const values: unknown[] = [];
  for (const value of jsonCandidates(text)) {
    values.push(value);
    if (values.length >= limit) break;
  }
  return values;
}

function* jsonCandidates(text: string): Generator<unknown> {
  // Reasoning models (DeepSeek-R1, Qwen3) think aloud first; the answer follows the block,
  // and objects inside the thoughts are drafts.
  const trimmed = stripThinking(text).trim();
  if (trimmed.length === 0) return;
  const whole = tryParse(trimmed);
  if (whole.success) {
    yield whole.value;
    return;
  }
  for (const fence of fencedBlocks(trimmed).reverse()) {
    const parsed = tryParse(fence);
    if (parsed.success) yield parsed.value;
  }
  for (let start = 0; start < trimmed.length; start++) {
    const char = trimmed[start];
    if (char !== '{' && char !== '[') continue;
    const end = balancedEnd(trimmed, start);
    if (end === -1) continue;
    const parsed = tryParse(trimmed.slice(start, end + 1));
    if (!parsed.success) continue;
    yield parsed.value;
    start = end;
  }
}

function fencedBlocks(text: string): string[] {
  return [...text.matchAll(/```[ \t]*[A-Za-z0-9_-]*[^\n]*\n([\s\S]*?)```/g)].map((match) => (match[1] ?? '').trim());
}

function extractionError(text: string): string {
  const trimmed = stripThinking(text).trim();
  if (trimmed.length === 0) {
    return text.trim().length > 0
      ? 'The reply holds only a <think> block (cut off by the token limit?); expected a JSON object after it.'
      : 'The reply is empty; expected a JSON object.';
  }
  const whole = tryParse(trimmed);
  const fences = fencedBlocks(trimmed).length;
  const fenceNote = fences > 0 ? ` ${fences} fenced block(s) did not parse either.` : '';
  return `No parsable JSON object in the reply: ${whole.success ? 'no object found' : whole.error}.${fenceNote} Reply with one JSON object only.`;
}

function tryParse(text: string): Result<unknown, string> {
  try {
    return { success: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    // Small local models often add trailing commas or comments; repair only those.
    const repaired = repairJson(text);
    if (repaired !== text) {
      try {
        return { success: true, value: JSON.parse(repaired) as unknown };
      } catch {
        // Fall through to the original error: it points at the model's text, not ours.
      }
    }
    return { success: false, error: error instanceof Error ? error.message : String(error) };
  }
}

/** Drops `<think>…</think>` blocks (and an unterminated one at the start). */
function stripThinking(text: string): string {
  const closed = text.replace(/<think>[\s\S]*?<\/think>/gi, '');
  const open = closed.search(/<think>/i);
  if (open !== -1) return closed.slice(0, open);
  // Some servers strip the opening tag and leave only `</think>`.
  const close = closed.search(/<\/think>/i);
  return close === -1 ? closed : closed.slice(close + '</think>'.length);
}

/** Removes `//` and `/* *\/` comments and trailing commas outside strings. */
export function repairJson(text: string): string {
  let result = '';
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i] ?? '';
    if (inString) {
      result += char;
      if (char === '\\') {
        result += text[i + 1] ?? '';
        i += 1;
      } else if (char === '"') inString = false;
      continue;
    }
    if (char === '"') {
      inString = true;
      result += char;
    } else if (char === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i += 1;
      result += '\n';
    } else if (char === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end === -1 ? text.length : end + 1;
    } else if (char === ',') {
      let next = i + 1;
      while (next < text.length && /\s/.test(text[next] ?? '')) next += 1;
      if (text[next] !== '}' && text[next] !== ']') result += char;
    } else {
      result += char;
    }
  }
  return result;
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
