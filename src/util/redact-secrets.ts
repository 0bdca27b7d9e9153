/**
 * Secret redaction for everything the toolkit writes to disk (traces, cassettes, model-call
 * artifacts). Two layers: patterns for anything that looks like a credential (OpenAI-style
 * `sk-...` keys, bearer tokens, `api_key=...` pairs, common vendor token shapes), and exact
 * values the caller registers (the configured API key, whatever its shape).
 */

/** What a redacted secret is replaced with. */
export const redactedMarker = '[REDACTED]';

const secretPatterns: readonly RegExp[] = [
  // OpenAI / Anthropic / generic `sk-` keys, including `sk-proj-...` and `sk-ant-...`.
  /\bsk-[A-Za-z0-9_-]{12,}/g,
  // Authorization header values. A Basic token must hold a digit or '=': UI text says "Basic Crewneck Tee".
  /\b(Bearer|bearer|BEARER)\s+[A-Za-z0-9._~+/=-]{8,}/g,
  /\b(Basic)\s+(?=[A-Za-z._~+/-]*[0-9=])[A-Za-z0-9._~+/=-]{8,}/g,
  // GitHub, Slack, Google, AWS, Hugging Face token shapes.
  /\bgh[pousr]_[A-Za-z0-9]{20,}/g,
  /\bxox[abprs]-[A-Za-z0-9-]{10,}/g,
  /\bAIza[0-9A-Za-z_-]{30,}/g,
  /\bAKIA[0-9A-Z]{16}\b/g,
  /\bhf_[A-Za-z0-9]{20,}/g,
];

// The password of credentials in a URL (`http://user:PASS@host/v1`); the user name stays.
const urlCredentialsPattern = /\b([a-z][a-z0-9+.-]*:\/\/[^\s/:@"'<>]*):([^\s/@"'<>]+)@/gi;

// `api_key: "value"`, `apiKey=value`, `"authorization": "value"` and friends, in JSON or text.
const keyValuePattern =
  /((?:api[_-]?key|authorization|access[_-]?token|secret|password)["']?\s*[:=]\s*["']?(?:(?:Bearer|Basic)\s+)?)([^\s"',}]{4,})/gi;

// UI hierarchies carry `password="false"` on every node: flags are not secrets; nor is the word
// `senseact models` prints for a key that is not set (`"apiKey": "MISSING"`).
const harmlessValues = new Set(['true', 'false', 'null', 'undefined', 'none', 'required', 'optional', 'missing']);

/** Object keys whose values are always replaced, whatever they look like. */
const secretKeyPattern = /^(api[_-]?key|authorization|proxy-authorization|access[_-]?token|password|secret|x-api-key|cookie)$/i;

/** Minimum length of a registered exact secret; shorter values (e.g. `none`) would mangle text. */
export const minimumExactSecretLength = 8;

/**
 * Replaces every secret in `text` with {@link redactedMarker}. `exactSecrets` are
 * redacted verbatim (values shorter than 8 characters are ignored: they are not keys).
 */
export function redactSecrets(text: string, exactSecrets: readonly string[] = []): string {
  let result = text;
  for (const secret of exactSecrets) {
    if (secret.length >= minimumExactSecretLength) result = result.split(secret).join(redactedMarker);
  }
  for (const pattern of secretPatterns) {
    result = result.replace(pattern, (match, scheme: unknown) =>
      typeof scheme === 'string' && /^(bearer|basic)$/i.test(scheme) ? `${scheme} ${redactedMarker}` : redactedMarker,
    );
  }
  result = result.replace(urlCredentialsPattern, (_match, head: string) => `${head}:${redactedMarker}@`);
  result = result.replace(keyValuePattern, (_match, prefix: string, value: string) =>
    value.startsWith('[REDACTED') || harmlessValues.has(value.toLowerCase()) ? `${prefix}${value}` : `${prefix}${redactedMarker}`,
  );
  return result;
}

/**
 * Deep copy of a JSON-like value with every string redacted (by `redactString`, default
 * `redactSecrets` with `exactSecrets`) and every value under a secret-named key
 * (authorization, apiKey, password, ...) replaced when it is a string. Binary data
 * (`Uint8Array`) is kept as is; the caller decides how to serialise it.
 */
export function redactSecretsDeep<T>(value: T, exactSecrets: readonly string[] = [], redactString: (text: string) => string = (text) => redactSecrets(text, exactSecrets)): T {
  return redactValue(value, redactString) as T;
}

function redactValue(value: unknown, redactString: (text: string) => string): unknown {
  if (typeof value === 'string') return redactString(value);
  if (value === null || typeof value !== 'object') return value;
  if (value instanceof Uint8Array) return value;
  if (Array.isArray(value)) return value.map((item) => redactValue(item, redactString));
  const result: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    result[key] = secretKeyPattern.test(key) && typeof item === 'string' && !harmlessValues.has(item.toLowerCase()) ? redactedMarker : redactValue(item, redactString);
  }
  return result;
}
