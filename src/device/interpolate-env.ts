import type { Result } from '../util/result.js';

/** `${NAME}` or `${NAME:-default}`; `$${` writes a literal `${`. */
const reference = /\$\$\{|\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;
/** A value that is one reference and nothing else: it may become a number or a boolean. */
const wholeReference = /^\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}$/;

/**
 * Replaces environment references in every string of parsed YAML/JSON data, as Maestro
 * flows and docker-compose files do: `${NAME}` is the variable's value, `${NAME:-text}`
 * falls back to `text` when it is unset or empty, `$${` is a literal `${`. A string that
 * is exactly one reference and yields a number or `true`/`false` takes that type (so
 * `density: ${DENSITY}` is a number). Keys are left alone. Returns an error naming the
 * field path and the variable when a variable without a fallback is unset.
 */
export function interpolateEnv(data: unknown, env: Readonly<Record<string, string | undefined>>): Result<unknown, string> {
  const missing: string[] = [];
  const visit = (value: unknown, at: string): unknown => {
    if (typeof value === 'string') return substitute(value, at);
    if (Array.isArray(value)) return value.map((item, index) => visit(item, `${at}[${index}]`));
    if (typeof value === 'object' && value !== null) {
      return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, visit(item, at === '' ? key : `${at}.${key}`)]));
    }
    return value;
  };
  const lookup = (name: string, fallback: string | undefined, at: string): string => {
    const found = env[name];
    if (found !== undefined && found !== '') return found;
    if (fallback !== undefined) return fallback;
    if (found === undefined) missing.push(`${at || '(top level)'}: \${${name}} is not set`);
    return '';
  };
  const substitute = (text: string, at: string): unknown => {
    const whole = wholeReference.exec(text);
    if (whole !== null) {
      const value = lookup(whole[1]!, whole[2], at);
      if (/^-?\d+(\.\d+)?$/.test(value)) return Number(value);
      if (value === 'true' || value === 'false') return value === 'true';
      return value;
    }
    return text.replace(reference, (match, name: string | undefined, fallback: string | undefined) => (name === undefined ? '${' : lookup(name, fallback, at)));
  };
  const value = visit(data, '');
  if (missing.length > 0) return { success: false, error: missing.join('; ') };
  return { success: true, value };
}
