import type { Result } from '../util/result.js';
import type { ReplyRepair } from './reply-repair.js';

/**
 * Finds the JSON value in a model's reply, after dropping `<think>` blocks: the first of
 * {@link extractJsonCandidates}. The error says what was tried.
 */
export function extractJson(text: string): Result<unknown, string> {
  for (const candidate of jsonCandidates(text)) return { success: true, value: candidate.value };
  return { success: false, error: extractionError(text) };
}

/** A JSON value found in a reply, with the repairs it took to read it (none when the reply was clean JSON). */
export interface JsonCandidate {
  readonly value: unknown;
  readonly repairs: readonly ReplyRepair[];
}

/**
 * Every JSON value in a model's reply, most likely first: the whole reply; each fenced
 * block (```json … ``` or ``` … ```), last first since models often correct themselves;
 * then every balanced top-level `{…}` or `[…]` span in the text, first to last (the
 * inside of a span that parsed is not searched again). `<think>` blocks are dropped;
 * trailing commas, comments, single quotes and Python's `True`/`False`/`None` are
 * forgiven. At most `limit` values.
 */
export function extractJsonCandidates(text: string, limit = 16): unknown[] {
  return readJsonCandidates(text, limit).map((candidate) => candidate.value);
}

/** {@link extractJsonCandidates} with the repairs each value took (see `ReplyRepair`). */
export function readJsonCandidates(text: string, limit = 16): JsonCandidate[] {
  const values: JsonCandidate[] = [];
  for (const candidate of jsonCandidates(text)) {
    values.push(candidate);
    if (values.length >= limit) break;
  }
  return values;
}

/** A fenced block: ```` ```json ```` (or any info string) on its own line, its text, the closing ```` ``` ````. */
const fencePattern = /```[ \t]*[A-Za-z0-9_-]*[^\n]*\n([\s\S]*?)```/g;

function* jsonCandidates(text: string): Generator<JsonCandidate> {
  // Reasoning models (DeepSeek-R1, Qwen3) think aloud first; the answer follows the block,
  // and objects inside the thoughts are drafts.
  const stripped = stripThinking(text);
  const thinking: ReplyRepair[] = stripped === text ? [] : [{ kind: 'think-block' }];
  const trimmed = stripped.trim();
  if (trimmed.length === 0) return;
  const whole = tryParse(trimmed);
  if (whole.success) {
    yield { value: whole.value.value, repairs: [...thinking, ...whole.value.repairs] };
    return;
  }
  // Prose around the fence ("Here is the JSON: ```json … ``` This opens …") is a repair of its own.
  const prose: ReplyRepair[] = trimmed.replace(fencePattern, '').trim() === '' ? [] : [{ kind: 'surrounding-text' }];
  for (const fence of fencedBlocks(trimmed).reverse()) {
    const parsed = tryParse(fence);
    if (parsed.success) yield { value: parsed.value.value, repairs: [...thinking, { kind: 'fence' }, ...prose, ...parsed.value.repairs] };
  }
  for (let start = 0; start < trimmed.length; start++) {
    const char = trimmed[start];
    if (char !== '{' && char !== '[') continue;
    const end = balancedEnd(trimmed, start);
    if (end === -1) continue;
    const parsed = tryParse(trimmed.slice(start, end + 1));
    if (!parsed.success) continue;
    yield { value: parsed.value.value, repairs: [...thinking, { kind: 'surrounding-text' }, ...parsed.value.repairs] };
    start = end;
  }
}

function fencedBlocks(text: string): string[] {
  return [...text.matchAll(fencePattern)].map((match) => (match[1] ?? '').trim());
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

function tryParse(text: string): Result<JsonCandidate, string> {
  try {
    return { success: true, value: { value: JSON.parse(text) as unknown, repairs: [] } };
  } catch (error) {
    // Small local models often write JSON loosely; repair only spelling that cannot change the meaning.
    const repaired = repairJsonText(text);
    if (repaired.text !== text) {
      try {
        return { success: true, value: { value: JSON.parse(repaired.text) as unknown, repairs: repaired.repairs } };
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

/**
 * Rewrites loose JSON as JSON, outside double-quoted strings only: removes `//` and
 * `/* *\/` comments and trailing commas, turns 'single-quoted' strings into double-quoted
 * ones, and Python's bare `True`/`False`/`None` into `true`/`false`/`null`. Says which
 * of these it did.
 */
export function repairJsonText(text: string): { text: string; repairs: ReplyRepair[] } {
  let result = '';
  const done = new Set<ReplyRepair['kind']>();
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
    } else if (char === "'") {
      const end = singleQuotedEnd(text, i);
      if (end === -1) {
        result += char;
        continue;
      }
      result += JSON.stringify(unescapeSingleQuoted(text.slice(i + 1, end)));
      done.add('single-quotes');
      i = end;
    } else if (char === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i += 1;
      result += '\n';
      done.add('comment');
    } else if (char === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end === -1 ? text.length : end + 1;
      done.add('comment');
    } else if (char === ',') {
      const next = text[nextSignificant(text, i + 1)];
      if (next !== '}' && next !== ']') result += char;
      else done.add('trailing-comma');
    } else {
      const literal = /^(True|False|None)(?![\w$])/.exec(text.slice(i, i + 6));
      if (literal?.[1] !== undefined && !/[\w$]/.test(text[i - 1] ?? '')) {
        result += pythonLiterals[literal[1]] ?? literal[1];
        done.add('python-literals');
        i += literal[1].length - 1;
      } else {
        result += char;
      }
    }
  }
  return { text: result, repairs: [...done].map((kind) => ({ kind })) };
}

/** Index of the first character at or after `from` that is neither whitespace nor inside a comment. */
function nextSignificant(text: string, from: number): number {
  let i = from;
  while (i < text.length) {
    if (/\s/.test(text[i] ?? '')) i += 1;
    else if (text.startsWith('//', i)) {
      const end = text.indexOf('\n', i);
      i = end === -1 ? text.length : end + 1;
    } else if (text.startsWith('/*', i)) {
      const end = text.indexOf('*/', i + 2);
      i = end === -1 ? text.length : end + 2;
    } else break;
  }
  return i;
}

const pythonLiterals: Readonly<Record<string, string>> = { True: 'true', False: 'false', None: 'null' };

/** Index of the quote closing the single-quoted string opened at `start`; -1 when none does. */
function singleQuotedEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === '\\') i += 1;
    else if (text[i] === "'") return i;
    else if (text[i] === '\n') return -1;
  }
  return -1;
}

/** The value of a single-quoted string's body: JSON's escapes, plus `\'` for a quote. */
function unescapeSingleQuoted(body: string): string {
  let asDouble = '';
  for (let i = 0; i < body.length; i++) {
    const char = body[i] ?? '';
    if (char === '\\') {
      const next = body[i + 1] ?? '';
      // An escaped single quote is a plain quote in JSON; other escapes are JSON's own.
      asDouble += next === "'" ? "'" : `\\${next}`;
      i += 1;
    } else {
      asDouble += char === '"' ? '\\"' : char;
    }
  }
  try {
    return JSON.parse(`"${asDouble}"`) as string;
  } catch {
    return body;
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
    else if (char === "'") {
      // A single-quoted string (repaired later) may hold brackets too.
      const end = singleQuotedEnd(text, i);
      if (end !== -1) i = end;
    } else if (char === '{') stack.push('}');
    else if (char === '[') stack.push(']');
    else if (char === '}' || char === ']') {
      if (stack.pop() !== char) return -1;
      if (stack.length === 0) return i;
    }
  }
  return -1;
}
