import { stableHash } from '../util/stable-hash.js';

/**
 * Deterministic short ids for a list of fingerprints (docs/architecture.md §2.2): `prefix`
 * + 4 hex digits hashed from the fingerprint and its occurrence number among equal
 * fingerprints, with deterministic probing on collision (more digits only if 4 are
 * exhausted). Never random: the same list gives the same ids, and a fingerprint's id
 * does not depend on unrelated entries unless their hashes collide (p ≈ 1/65536 per pair).
 */
export function assignShortIds(fingerprints: readonly string[], prefix: string): string[] {
  const used = new Set<string>();
  const occurrences = new Map<string, number>();
  const digits = fingerprints.length > 40_000 ? 6 : 4;
  return fingerprints.map((fingerprint) => {
    const occurrence = occurrences.get(fingerprint) ?? 0;
    occurrences.set(fingerprint, occurrence + 1);
    const key = occurrence === 0 ? fingerprint : `${fingerprint}#${occurrence}`;
    for (let probe = 0; ; probe++) {
      const id = `${prefix}${mix(stableHash(key, 0x811c9dc5 + probe)).toString(16).padStart(8, '0').slice(0, digits)}`;
      if (!used.has(id)) {
        used.add(id);
        return id;
      }
    }
  });
}

/** Final avalanche of a 32-bit hash (so that near-identical fingerprints get unrelated ids). */
function mix(hash: number): number {
  let h = hash >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b) >>> 0;
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35) >>> 0;
  h ^= h >>> 16;
  return h >>> 0;
}
