import { stableHash } from './stable-hash.js';

/**
 * A small deterministic pseudo-random stream (mulberry32). Same seed and label, same
 * numbers, on every platform. Each consumer takes its own stream (by label) so that
 * adding a draw in one place never shifts the numbers another place sees.
 */
export class SeededRandom {
  private stateValue: number;

  constructor(seed: number, label = '') {
    this.stateValue = stableHash(`${seed}:${label}`);
  }

  /** A float in [0, 1). */
  next(): number {
    this.stateValue = (this.stateValue + 0x6d2b79f5) >>> 0;
    let t = this.stateValue;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [min, max] (inclusive). */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** A shuffled copy (Fisher–Yates). */
  shuffle<T>(items: readonly T[]): T[] {
    const copy = [...items];
    for (let i = copy.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      const a = copy[i] as T;
      copy[i] = copy[j] as T;
      copy[j] = a;
    }
    return copy;
  }
}
