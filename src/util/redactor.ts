import { redactSecrets, redactSecretsDeep } from './redact-secrets.js';

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
  return Object.entries(env).flatMap(([name, value]) => (secretVariable.test(name) && value !== undefined && value.trim().length >= 8 ? [value.trim()] : []));
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

  /** `text` with passwords replaced by the placeholder and secrets by `[REDACTED]` (also in their JSON-escaped spelling). */
  text(text: string): string {
    let result = text;
    for (const value of this.passwordValues) result = replaceEverySpelling(result, value, passwordPlaceholder);
    return redactSecrets(result, [...this.secretValues].flatMap(everySpelling));
  }

  /** A deep copy of a JSON-like value with every string passed through `text` and secret-named keys replaced. */
  deep<T>(value: T): T {
    return redactSecretsDeep(value, [], (text) => this.text(text));
  }

  private changed(): void {
    for (const listener of this.listeners) listener();
  }
}

/** `value` and, when it differs, its JSON-escaped spelling (a key with a quote or backslash inside a JSON file). */
function everySpelling(value: string): string[] {
  const escaped = JSON.stringify(value).slice(1, -1);
  return escaped === value ? [value] : [value, escaped];
}

function replaceEverySpelling(text: string, value: string, replacement: string): string {
  let result = text;
  for (const spelling of everySpelling(value)) result = result.split(spelling).join(replacement);
  return result;
}
