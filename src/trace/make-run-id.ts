import { stableHashHex } from '../util/stable-hash.js';

export interface RunIdOptions {
  /** The run's start time (Date or epoch milliseconds). Default: now. */
  readonly now?: Date | number;
  /** Any seed of the run; its hash is appended (or used alone when `now` is absent and `seedOnly` is set). */
  readonly seed?: string | number;
  /** Derive the id from the seed alone (fully reproducible folder names). Requires `seed`. */
  readonly seedOnly?: boolean;
}

/**
 * A run id such as `20261122-031149-123` (UTC, millisecond precision), with `-s<hash>`
 * appended when a seed is given; `s<hash>` alone with `seedOnly`. Deterministic when
 * `now` (or `seedOnly`) is given; timestamp-based otherwise. Safe as a folder name.
 */
export function makeRunId(options: RunIdOptions = {}): string {
  const seedPart = options.seed === undefined ? undefined : `s${stableHashHex(String(options.seed))}`;
  if (options.seedOnly === true) {
    if (seedPart === undefined) throw new Error('makeRunId: seedOnly needs a seed; pass { seed } or drop seedOnly.');
    return seedPart;
  }
  const date = options.now === undefined ? new Date() : new Date(options.now);
  const iso = date.toISOString(); // 2026-11-22T03:11:49.123Z
  const stamp = `${iso.slice(0, 10).replace(/-/g, '')}-${iso.slice(11, 19).replace(/:/g, '')}-${iso.slice(20, 23)}`;
  return seedPart === undefined ? stamp : `${stamp}-${seedPart}`;
}
