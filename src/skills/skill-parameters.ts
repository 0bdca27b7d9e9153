import { passwordPlaceholder } from '../util/redactor.js';
import type { ParameterType } from './skill-schema.js';

/**
 * Typed parameters of a skill: how each type is found in an instruction, and the
 * projections its value shows on screens (a time `3PM` shows as hour `3`, minute `0`,
 * `00`, `PM`). Placeholders are `{name}` (the value as written) or `{name.projection}`.
 */

/** A time as people write it: `3PM`, `6:45AM`, `10:30 pm`, `8:00 a.m.`. */
const timePattern = /\b(\d{1,2})(?::(\d{2}))?\s?([AaPp])\.?[Mm]\b\.?/g;
/** A quoted literal: "…", '…' (not an apostrophe inside a word), “…”. */
const quotedPattern = /"([^"]+)"|“([^”]+)”|(?<![\w])'([^']+)'(?![\w])/g;
/** A number: digits, maybe with separators (a date 1996/10/24, a phone 123-456). */
const numberPattern = /(?<![\w.])\d+(?:[/.-]\d+)*(?![\w])/g;

/** One literal found in an instruction. */
export interface FoundLiteral {
  readonly type: ParameterType;
  /** The text as written (for quoted text, without the quotes). */
  readonly value: string;
  /** Where the value sits in the instruction. */
  readonly start: number;
  readonly end: number;
}

function found(pattern: RegExp, text: string, type: ParameterType, group: (match: RegExpExecArray) => { value: string; offset: number }): FoundLiteral[] {
  const literals: FoundLiteral[] = [];
  for (const match of text.matchAll(new RegExp(pattern.source, pattern.flags))) {
    const { value, offset } = group(match);
    const start = (match.index ?? 0) + offset;
    literals.push({ type, value, start, end: start + value.length });
  }
  return literals;
}

/** Quoted literals of an instruction, without their quotes. */
export function findQuoted(text: string): FoundLiteral[] {
  return found(quotedPattern, text, 'text', (match) => {
    const value = match[1] ?? match[2] ?? match[3] ?? '';
    return { value, offset: 1 };
  });
}

/** Times of an instruction. */
export function findTimes(text: string): FoundLiteral[] {
  return found(timePattern, text, 'time', (match) => ({ value: match[0], offset: 0 }));
}

/** Numbers of an instruction. */
export function findNumbers(text: string): FoundLiteral[] {
  return found(numberPattern, text, 'number', (match) => ({ value: match[0], offset: 0 }));
}

/**
 * The password of a recorded instruction: the trace holds a password typed into a
 * password field only as its placeholder (`[password]`), in the instruction too, so the
 * placeholder is where the password stood.
 */
export function findPasswords(text: string): FoundLiteral[] {
  const literals: FoundLiteral[] = [];
  for (let start = text.indexOf(passwordPlaceholder); start >= 0; start = text.indexOf(passwordPlaceholder, start + passwordPlaceholder.length)) {
    literals.push({ type: 'password', value: passwordPlaceholder, start, end: start + passwordPlaceholder.length });
  }
  return literals;
}

/** The parts of a time, or undefined when the text is no time. */
export function parseTime(text: string): { hour12: number; minute: number; pm: boolean } | undefined {
  const match = new RegExp(`^${timePattern.source}$`).exec(text.trim());
  if (!match) return undefined;
  const hour12 = Number(match[1]);
  const minute = match[2] === undefined ? 0 : Number(match[2]);
  if (hour12 < 1 || hour12 > 12 || minute > 59) return undefined;
  return { hour12, minute, pm: /p/i.test(match[3] ?? '') };
}

/**
 * The projections of a value: what of it may show on screens. Every type has `''` (the
 * value itself); a time adds `hour` (12-hour, `3`), `hour24` (`15`), `minute` (`0`),
 * `minute2` (`00`) and `ampm` (`PM`).
 */
export function projections(type: ParameterType, value: string): Readonly<Record<string, string>> {
  if (type !== 'time') return { '': value };
  const time = parseTime(value);
  if (!time) return { '': value };
  const hour24 = (time.hour12 % 12) + (time.pm ? 12 : 0);
  return { '': value, hour: String(time.hour12), hour24: String(hour24), minute: String(time.minute), minute2: String(time.minute).padStart(2, '0'), ampm: time.pm ? 'PM' : 'AM' };
}

/** The placeholder of a parameter's projection: `{time.hour}`, or `{label}` for the value itself. */
export function placeholder(name: string, projection: string): string {
  return projection === '' ? `{${name}}` : `{${name}.${projection}}`;
}

const placeholderPattern = /\{([a-z][a-z0-9]*)(?:\.([a-z0-9]+))?\}/g;

/** The parameter values of one instantiation, by name, with their types. */
export type Bindings = Readonly<Record<string, { readonly type: ParameterType; readonly value: string }>>;

/** What `fillPlaceholders` could not fill. */
export interface UnfilledPlaceholder {
  readonly placeholder: string;
}

/**
 * Replaces every placeholder of `text` by its binding's projection. Returns the missing
 * placeholders instead when some cannot be filled (an unknown parameter or projection).
 */
export function fillPlaceholders(text: string, bindings: Bindings): { text: string } | { missing: string[] } {
  const missing: string[] = [];
  const filled = text.replace(placeholderPattern, (whole, name: string, projection: string | undefined) => {
    const binding = bindings[name];
    const value = binding ? projections(binding.type, binding.value)[projection ?? ''] : undefined;
    if (value === undefined) {
      missing.push(whole);
      return whole;
    }
    return value;
  });
  return missing.length > 0 ? { missing } : { text: filled };
}

/** The parameter names the placeholders of a text refer to (`{time.hour}` → `time`). */
export function placeholderNames(text: string): Set<string> {
  return new Set([...text.matchAll(placeholderPattern)].map((match) => match[1] ?? ''));
}

/** True when a text holds a placeholder. */
export function hasPlaceholder(text: string): boolean {
  return new RegExp(placeholderPattern.source).test(text);
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A clock time shown on a screen: `8:30 AM`, `8:30AM`, `20:30`. */
const shownTimePattern = /(?<![\w:])\d{1,2}:\d{2}(?:\s?[AaPp]\.?[Mm]\b\.?)?(?![\w:])/g;

/** The ways a time binding may show whole on a screen: `6:45 AM`, `6:45AM`, `06:45`, `6:45`. */
function wholeTimeForms(binding: { readonly type: ParameterType; readonly value: string }): string[] {
  if (binding.type !== 'time') return [];
  const parts = projections('time', binding.value);
  const { hour, hour24, minute2, ampm } = parts;
  if (hour === undefined || hour24 === undefined || minute2 === undefined || ampm === undefined) return [];
  return [`${hour}:${minute2} ${ampm}`, `${hour}:${minute2}${ampm}`, `${hour24}:${minute2}`, `${hour24.padStart(2, '0')}:${minute2}`];
}

/**
 * Masks the clock times of a literal that no time parameter shows whole (`8:30 AM` when the
 * instruction's time is 8:00 am): a time on a screen is one value, so its hour alone
 * recurring is a coincidence, not the parameter. Without a time parameter nothing is
 * masked. Returns the masked text and how to undo it.
 */
function maskForeignTimes(literal: string, bindings: Bindings): { text: string; unmask: (text: string) => string } {
  const wholes = Object.values(bindings).flatMap(wholeTimeForms).map((form) => form.toLowerCase());
  // Only a time parameter's parts (hour, minute) recur by coincidence inside another time; a text or number is compared as it is.
  if (wholes.length === 0) return { text: literal, unmask: (lifted) => lifted };
  const masked: string[] = [];
  const text = literal.replace(new RegExp(shownTimePattern.source, 'g'), (span) => {
    if (wholes.includes(span.toLowerCase())) return span;
    masked.push(span);
    // Private-use characters: no word character, no digit a projection could match.
    return `\uE000${String.fromCharCode(0xe100 + masked.length - 1)}\uE000`;
  });
  return { text, unmask: (lifted) => lifted.replace(/\uE000(.)\uE000/g, (_whole, mark: string) => masked[mark.charCodeAt(0) - 0xe100] ?? '') };
}

/**
 * Replaces, in `literal` (a query value, a fill value), every token-bounded occurrence of
 * one of the parameters' projections by its placeholder. Tokens compare with their case
 * (`abc.github.com` holds no `ABC`), except that a whole literal equal to a text or option
 * value in another case is that value (the instruction's `diary` is the screen's `Diary`).
 * A token that equals projections of two different parameters is ambiguous and left
 * alone (reported in `ambiguous`). Longer projections go first, so `10:30` is not split
 * into `10`. A clock time shown on the screen is lifted whole or not at all (`8:30 AM`
 * keeps its `8` when the instruction's time is 8:00 am).
 */
export function liftLiteral(literal: string, bindings: Bindings): { text: string; used: string[]; ambiguous: string[] } {
  const masked = maskForeignTimes(literal, bindings);
  const lifted = liftUnmasked(masked.text, bindings);
  return { ...lifted, text: masked.unmask(lifted.text) };
}

function liftUnmasked(literal: string, bindings: Bindings): { text: string; used: string[]; ambiguous: string[] } {
  const candidates: { token: string; placeholder: string; parameter: string; caseless: boolean }[] = [];
  for (const [name, binding] of Object.entries(bindings)) {
    for (const [projection, token] of Object.entries(projections(binding.type, binding.value))) {
      if (token === '') continue;
      candidates.push({ token, placeholder: placeholder(name, projection), parameter: name, caseless: binding.type === 'text' || binding.type === 'option' });
    }
  }
  candidates.sort((a, b) => b.token.length - a.token.length);
  const whole = candidates.filter((candidate) => candidate.caseless && candidate.token.toLowerCase() === literal.trim().toLowerCase());
  if (whole.length === 1 && whole[0]) return { text: whole[0].placeholder, used: [whole[0].placeholder], ambiguous: [] };
  const used: string[] = [];
  const ambiguous: string[] = [];
  let text = literal;
  const taken = new Set<string>();
  for (const candidate of candidates) {
    if (taken.has(candidate.token)) continue;
    const rivals = candidates.filter((other) => other.parameter !== candidate.parameter && other.token === candidate.token);
    const pattern = new RegExp(`(?<![\\w{.])${escapeRegex(candidate.token)}(?![\\w}])`, 'g');
    if (!pattern.test(text)) continue;
    taken.add(candidate.token);
    if (rivals.length > 0) {
      ambiguous.push(`"${candidate.token}" is ${[candidate.placeholder, ...rivals.map((rival) => rival.placeholder)].join(' and ')}`);
      continue;
    }
    text = text.replace(pattern, candidate.placeholder);
    used.push(candidate.placeholder);
  }
  return { text, used, ambiguous };
}
