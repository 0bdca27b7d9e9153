import type { Result } from '../util/result.js';
import { deviceActionSchema, type DeviceAction } from './device-action.js';

/** The text forms `parseDeviceAction` accepts, for help texts and error messages. */
export const deviceActionSyntax = [
  'tap X,Y',
  'long-press X,Y [MS]',
  'type TEXT [X,Y]',
  'clear [X,Y]',
  'scroll up|down|left|right L,T,R,B [PERCENT]',
  'swipe X1,Y1 X2,Y2 [MS]',
  'key back|home|enter',
  'launch PACKAGE [ACTIVITY]',
] as const;

/**
 * Reads one device action from words, as typed on a command line: `tap 540,1200`,
 * `type "hello"`, `key back`, `launch com.android.settings`, `scroll down 0,300,1080,2000`.
 * The whole action may also come as one quoted word (`'tap 540,1200'`,
 * `'type "hello world"'`): it is split as a shell would, honouring quotes.
 * Bad input is a value (`success: false` with a message naming the problem and the syntax).
 */
export function parseDeviceAction(words: readonly string[]): Result<DeviceAction, string> {
  const fail = (problem: string): Result<DeviceAction, string> => ({ success: false, error: `${problem}. Actions: ${deviceActionSyntax.join(' | ')}` });
  let tokens = words;
  if (words.length === 1 && /\s/.test(words[0]?.trim() ?? '')) {
    const split = splitWords(words[0] ?? '');
    if (!split.success) return fail(split.error);
    tokens = split.value;
  }
  const [verb, ...rest] = tokens;
  let candidate: unknown;
  switch (verb) {
    case 'tap': {
      const point = numbers(rest[0], 2);
      if (!point || rest.length !== 1) return fail(`tap needs one point X,Y (got '${rest.join(' ')}')`);
      candidate = { type: 'tap', point };
      break;
    }
    case 'long-press': {
      const point = numbers(rest[0], 2);
      if (!point || rest.length > 2) return fail(`long-press needs a point X,Y and optionally a duration in ms (got '${rest.join(' ')}')`);
      candidate = { type: 'long-press', point, ...(rest[1] === undefined ? {} : { durationMs: Number(rest[1]) }) };
      break;
    }
    case 'type': {
      if (rest.length === 0 || rest.length > 2) return fail('type needs the text (quote it when it has spaces) and optionally a point X,Y');
      const point = rest[1] === undefined ? undefined : numbers(rest[1], 2);
      if (rest[1] !== undefined && !point) return fail(`type: '${rest[1]}' is not a point X,Y`);
      candidate = { type: 'type', text: rest[0], ...(point ? { point } : {}) };
      break;
    }
    case 'clear': {
      const point = rest[0] === undefined ? undefined : numbers(rest[0], 2);
      if ((rest[0] !== undefined && !point) || rest.length > 1) return fail(`clear takes at most a point X,Y (got '${rest.join(' ')}')`);
      candidate = { type: 'clear', ...(point ? { point } : {}) };
      break;
    }
    case 'scroll': {
      const bounds = numbers(rest[1], 4);
      if (!bounds || rest.length > 3) return fail(`scroll needs a direction and the container bounds L,T,R,B (got '${rest.join(' ')}')`);
      candidate = { type: 'scroll', direction: rest[0], bounds, ...(rest[2] === undefined ? {} : { percent: Number(rest[2]) }) };
      break;
    }
    case 'swipe': {
      const from = numbers(rest[0], 2);
      const to = numbers(rest[1], 2);
      if (!from || !to || rest.length > 3) return fail(`swipe needs two points X1,Y1 X2,Y2 and optionally a duration in ms (got '${rest.join(' ')}')`);
      candidate = { type: 'swipe', from, to, ...(rest[2] === undefined ? {} : { durationMs: Number(rest[2]) }) };
      break;
    }
    case 'key':
      if (rest.length !== 1) return fail('key needs one of back, home, enter');
      candidate = { type: 'key', key: rest[0] };
      break;
    case 'launch':
      if (rest.length === 0 || rest.length > 2) return fail('launch needs a package name and optionally an activity');
      candidate = { type: 'launch', packageName: rest[0], ...(rest[1] === undefined ? {} : { activity: rest[1] }) };
      break;
    default:
      return fail(`Unknown action '${verb ?? ''}'`);
  }
  const parsed = deviceActionSchema.safeParse(candidate);
  if (!parsed.success) return fail(`${verb}: ${parsed.error.issues.map((issue) => `${issue.path.join('.') || 'action'} ${issue.message}`).join('; ')}`);
  return { success: true, value: parsed.data };
}

/** Splits one string into words at whitespace; '...' and "..." group (a backslash escapes inside "..."). */
function splitWords(text: string): Result<string[], string> {
  const words: string[] = [];
  let current: string | undefined;
  let quote: '"' | "'" | undefined;
  for (let index = 0; index < text.length; index++) {
    const character = text[index]!;
    if (quote !== undefined) {
      if (character === quote) quote = undefined;
      else if (character === '\\' && quote === '"' && index + 1 < text.length) current = `${current ?? ''}${text[++index]}`;
      else current = `${current ?? ''}${character}`;
    } else if (character === '"' || character === "'") {
      quote = character;
      current ??= '';
    } else if (/\s/.test(character)) {
      if (current !== undefined) words.push(current);
      current = undefined;
    } else {
      current = `${current ?? ''}${character}`;
    }
  }
  if (quote !== undefined) return { success: false, error: `the action ${JSON.stringify(text)} has an unclosed ${quote} quote` };
  if (current !== undefined) words.push(current);
  return { success: true, value: words };
}

/** `count` comma-separated integers, or undefined. */
function numbers(text: string | undefined, count: number): number[] | undefined {
  if (text === undefined) return undefined;
  const parts = text.split(',').map((part) => part.trim());
  if (parts.length !== count || parts.some((part) => !/^-?\d+$/.test(part))) return undefined;
  return parts.map(Number);
}
