import { describe, expect, it } from 'vitest';
import { BenchError } from '../../../src/bench/bench-error.js';
import { gateImageDetailFromEnv } from '../../../src/bench/compose.js';

describe('gateImageDetailFromEnv', () => {
  it('reads low, high and auto (any case), and nothing when unset', () => {
    expect(gateImageDetailFromEnv({ SENSEACT_GATE_DETAIL: 'low' })).toBe('low');
    expect(gateImageDetailFromEnv({ SENSEACT_GATE_DETAIL: ' High ' })).toBe('high');
    expect(gateImageDetailFromEnv({ SENSEACT_GATE_DETAIL: 'auto' })).toBe('auto');
    expect(gateImageDetailFromEnv({})).toBeUndefined();
    expect(gateImageDetailFromEnv({ SENSEACT_GATE_DETAIL: '' })).toBeUndefined();
  });

  it('refuses anything else, naming the variable and the choices', () => {
    expect(() => gateImageDetailFromEnv({ SENSEACT_GATE_DETAIL: 'medium' })).toThrow(BenchError);
    expect(() => gateImageDetailFromEnv({ SENSEACT_GATE_DETAIL: 'medium' })).toThrow(/SENSEACT_GATE_DETAIL=medium: expected low, high or auto/);
  });
});
