import { minimumExactSecretLength, redactedMarker, redactSecrets, redactSecretsDeep } from './redact-secrets.js';

/** What a value typed into a password field becomes in every record. */
export const passwordPlaceholder = '[password]';

/** Typed passwords shorter than this are replaced where they are typed, not searched for in all text (they would mangle it). */
export const minimumPasswordLength = 4;

/** Environment variables whose values are secrets whatever their shape (keys of other tools the run may echo). */
const secretVariable = /(^|_)(API_?KEY|TOKEN|SECRET|PASSWORD|PASSWD)$/i;

/**
 * The values of secret-named environment variables (`*_API_KEY`, `*_TOKEN`, `*_SECRET`,
 * `*_PASSWORD`), for a {@link Redactor}: an endpoint or an app may echo any of them.
 */
export function secretsFromEnv(env: Readonly<Record<string, string | undefined>>): string[] {
  const named = Object.entries(env).flatMap(([name, value]) => (secretVariable.test(name) && value !== undefined && value.trim().length >= 8 ? [value.trim()] : []));
  return [...named, ...Object.values(env).flatMap((value) => (value === undefined ? [] : urlPasswords(value)))];
}

/**
 * The password of credentials in a URL (`http://user:PASS@host/v1` → `PASS`, and its
 * decoded form when it was percent-encoded), for a {@link Redactor}; none when the
 * text is not such a URL.
 */
export function urlPasswords(text: string): string[] {
  const match = /^[a-z][a-z0-9+.-]*:\/\/[^\s/:@]*:([^\s/@]+)@/i.exec(text.trim());
  const password = match?.[1];
  if (password === undefined) return [];
  let decoded = password;
  try {
    decoded = decodeURIComponent(password);
  } catch {
    // A malformed escape: the raw spelling is the one a file can hold.
    decoded = password;
  }
  return [...new Set([password, decoded])];
}

/**
 * The one redaction pass of a run: every file a run writes (trace, step artifacts, model
 * calls, results, journal, memory, cassette, report) goes through the same instance, fed
 * with the configured secrets, secret-named environment values and the key patterns of
 * `redactSecrets`. Values typed into password fields are added while the run goes
 * (`addPassword`) and become {@link passwordPlaceholder}; writers that already wrote
 * something listen (`onChange`) and rewrite it, so a password reaches no file even when
 * the model's reply that held it was recorded first.
 */
export class Redactor {
  private readonly secretValues = new Set<string>();
  private readonly passwordValues = new Set<string>();
  private readonly listeners = new Set<() => void>();
  /** The compiled spellings of the secrets; undefined until needed, null when there are none. */
  private pattern: RegExp | null | undefined;

  constructor(secrets: readonly string[] = []) {
    for (const secret of secrets) this.secretValues.add(secret);
  }

  /** Exact secrets redacted besides the patterns. */
  get secrets(): readonly string[] {
    return [...this.secretValues];
  }

  /** Adds an exact secret (the configured key, a token); tells the listeners when it is new. */
  addSecret(secret: string): void {
    if (secret === '' || this.secretValues.has(secret)) return;
    this.secretValues.add(secret);
    this.pattern = undefined;
    this.changed();
  }

  /** Adds a value typed into a password field; tells the listeners when it is new and long enough to search for. */
  addPassword(value: string): void {
    if (value.length < minimumPasswordLength || this.passwordValues.has(value)) return;
    this.passwordValues.add(value);
    this.changed();
  }

  /** Calls `listener` after every new secret or password; returns the function that stops it. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** `text` with passwords replaced by the placeholder and secrets by `[REDACTED]`, in every spelling of `everySpelling`. */
  text(text: string): string {
    let result = text;
    for (const value of this.passwordValues) result = replaceEverySpelling(result, value, passwordPlaceholder);
    const pattern = this.spellingsPattern();
    if (pattern !== undefined) result = result.replace(pattern, redactedMarker);
    return redactSecrets(result);
  }

  /** One alternation of every spelling of every secret, longest first (literals only: no backtracking). */
  private spellingsPattern(): RegExp | undefined {
    if (this.pattern === undefined) {
      const spellings = [...new Set([...this.secretValues].flatMap(everySpelling))].filter((spelling) => spelling.length >= minimumExactSecretLength).sort((a, b) => b.length - a.length);
      this.pattern = spellings.length === 0 ? null : new RegExp(spellings.map((spelling) => spelling.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'g');
    }
    return this.pattern ?? undefined;
  }

  /** A deep copy of a JSON-like value with every string passed through `text` and secret-named keys replaced. */
  deep<T>(value: T): T {
    return redactSecretsDeep(value, [], (text) => this.text(text));
  }

  private changed(): void {
    for (const listener of this.listeners) listener();
  }
}

/** A key's last characters some services print (`sk-…wxyz`); a prefix without them is still the key. */
const shownKeyTail = 4;

/** The shortest prefix redacted as the key itself: shorter ones are too common to search for. */
const minimumPrefixLength = 12;

function htmlEscaped(value: string): string[] {
  const named = value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
  return [named.replace(/'/g, '&#39;'), named.replace(/'/g, '&#x27;'), named.replace(/'/g, '&apos;')];
}

/**
 * The base64 text that `value` turns into wherever it sits in a larger encoded buffer:
 * for each of the three byte alignments, the characters its bytes alone decide (a
 * `Basic` header encodes `user:key`, so the key starts at any offset). Standard and
 * URL-safe alphabets.
 */
function base64Spellings(value: string): string[] {
  const bytes = Buffer.from(value, 'utf8');
  const spellings: string[] = [];
  for (let offset = 0; offset < 3; offset++) {
    const padded = Buffer.concat([Buffer.alloc(offset), bytes, Buffer.alloc(2)]);
    const encoded = padded.toString('base64');
    const stable = encoded.slice(Math.ceil((8 * offset) / 6), Math.floor((8 * (offset + bytes.length)) / 6));
    spellings.push(stable, stable.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return spellings;
}

/**
 * Every spelling of a secret a file may hold, longest first: the value itself, JSON- and
 * HTML-escaped, URL-encoded, base64 (any alignment, both alphabets), and the value less
 * its last 4 characters (a truncated key is still the key).
 */
export function everySpelling(value: string): string[] {
  const spellings = new Set<string>([value, JSON.stringify(value).slice(1, -1), encodeURIComponent(value), ...htmlEscaped(value)]);
  for (const spelling of base64Spellings(value)) spellings.add(spelling);
  if (value.length - shownKeyTail >= minimumPrefixLength) spellings.add(value.slice(0, -shownKeyTail));
  return [...spellings].sort((a, b) => b.length - a.length);
}

function replaceEverySpelling(text: string, value: string, replacement: string): string {
  let result = text;
  for (const spelling of [value, JSON.stringify(value).slice(1, -1)]) result = result.split(spelling).join(replacement);
  return result;
}
