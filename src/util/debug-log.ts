import { redactSecrets } from './redact-secrets.js';

/**
 * Namespaced debug logging, enabled by `DEBUG=senseact:*` or a list such as
 * `DEBUG=senseact:device,senseact:agent`. Writes to stderr only when enabled; outside
 * `cli/` this is the only way code may print.
 */
export const debugNamespaces = ['ui', 'perception', 'verify', 'memory', 'device', 'sim', 'model', 'agent', 'tasks', 'bench', 'trace', 'report', 'cli'] as const;
export type DebugNamespace = (typeof debugNamespaces)[number];

function enabledSet(spec: string | undefined): (namespace: DebugNamespace) => boolean {
  if (!spec) return () => false;
  const parts = spec.split(/[\s,]+/).filter(Boolean);
  return (namespace) => parts.some((part) => part === 'senseact:*' || part === '*' || part === `senseact:${namespace}`);
}

let isEnabled = enabledSet(typeof process === 'undefined' ? undefined : process.env['DEBUG']);

/** Re-reads the namespace list (tests use this). */
export function setDebugSpec(spec: string | undefined): void {
  isEnabled = enabledSet(spec);
}

/** Redacts a log line; key patterns alone until a composition root passes its run's redactor. */
let redactLine: (line: string) => string = (line) => redactSecrets(line);

/**
 * Sends every later debug line through `redact` (the composition root passes its
 * `Redactor`), so a log redirected to a file holds no configured key or typed password.
 */
export function setDebugLogRedaction(redact: (line: string) => string): void {
  redactLine = redact;
}

export function debugLog(namespace: DebugNamespace, message: string, data?: unknown): void {
  if (!isEnabled(namespace)) return;
  const suffix = data === undefined ? '' : ` ${JSON.stringify(data)}`;
  process.stderr.write(`${redactLine(`senseact:${namespace} ${message}${suffix}`)}\n`);
}
