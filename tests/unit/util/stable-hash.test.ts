import { describe, expect, it } from 'vitest';
import { stableHash, stableHashHex } from '../../../src/util/stable-hash.js';

describe('stableHash', () => {
  it('matches the published FNV-1a 32-bit test vectors', () => {
    expect(stableHash('')).toBe(0x811c9dc5);
    expect(stableHash('a')).toBe(0xe40c292c);
    expect(stableHash('foobar')).toBe(0xbf9cf968);
  });

  it('renders fixed-width hex', () => {
    expect(stableHashHex('a')).toBe('e40c292c');
    expect(stableHashHex('')).toHaveLength(8);
  });
});
