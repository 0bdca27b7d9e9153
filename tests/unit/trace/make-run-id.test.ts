import { describe, expect, it } from 'vitest';
import { makeRunId } from '../../../src/trace/make-run-id.js';

describe('makeRunId', () => {
  it('is deterministic for a given clock and seed', () => {
    const now = Date.UTC(2026, 10, 22, 3, 11, 49, 123);
    expect(makeRunId({ now })).toBe('20261122-031149-123');
    expect(makeRunId({ now: new Date(now), seed: 42 })).toBe(makeRunId({ now, seed: '42' }));
    expect(makeRunId({ now, seed: 42 })).toMatch(/^20261122-031149-123-s[0-9a-f]{8}$/);
    expect(makeRunId({ now, seed: 42 })).not.toBe(makeRunId({ now, seed: 43 }));
    expect(makeRunId({ seed: 'abc', seedOnly: true })).toBe(makeRunId({ seed: 'abc', seedOnly: true }));
    expect(makeRunId({ seed: 'abc', seedOnly: true })).toMatch(/^s[0-9a-f]{8}$/);
  });

  it('is timestamp-based without a clock', () => {
    const before = Date.now();
    const id = makeRunId();
    const match = /^(\d{4})(\d{2})(\d{2})-(\d{2})(\d{2})(\d{2})-(\d{3})$/.exec(id);
    expect(match).not.toBeNull();
    const [, year, month, day, hour, minute, second, ms] = (match ?? []).map(Number);
    const parsed = Date.UTC(year ?? 0, (month ?? 1) - 1, day, hour, minute, second, ms);
    expect(parsed).toBeGreaterThanOrEqual(before);
  });

  it('seedOnly without a seed is a usage error', () => {
    expect(() => makeRunId({ seedOnly: true })).toThrow(/needs a seed/);
  });
});
