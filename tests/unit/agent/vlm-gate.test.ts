import { describe, expect, it } from 'vitest';
import { VlmGate } from '../../../src/agent/loop/vlm-gate.js';

const button = { fingerprint: 'abc', bounds: [100, 100, 300, 200] as const };
const moved = { fingerprint: 'other', bounds: [102, 101, 302, 201] as const };
const elsewhere = { fingerprint: 'zzz', bounds: [500, 900, 700, 1000] as const };

describe('VlmGate', () => {
  it('opens after two consecutive failures on the same target', () => {
    const gate = new VlmGate();
    expect(gate.recordOutcome(button, 'fail')).toMatchObject({ open: false, score: 1 });
    expect(gate.recordOutcome(button, 'fail')).toMatchObject({ open: true, reason: 'repeated-failure', score: 2 });
  });

  it('treats bounds IoU ≥ 0.85 as the same target even with another fingerprint', () => {
    const gate = new VlmGate();
    gate.recordOutcome(button, 'fail');
    expect(gate.recordOutcome(moved, 'fail').open).toBe(true);
  });

  it('does not count failures on different targets together', () => {
    const gate = new VlmGate();
    gate.recordOutcome(button, 'fail');
    expect(gate.recordOutcome(elsewhere, 'fail').open).toBe(false);
  });

  it('a pass resets the score; inconclusive neither counts nor resets', () => {
    const gate = new VlmGate();
    gate.recordOutcome(button, 'fail');
    gate.recordOutcome(button, 'pass');
    expect(gate.recordOutcome(button, 'fail').open).toBe(false);
    expect(gate.recordOutcome(button, 'inconclusive')).toMatchObject({ open: false, score: 1 });
    expect(gate.recordOutcome(button, 'fail').open).toBe(true);
  });

  it('after opening, the same target needs a full threshold again', () => {
    const gate = new VlmGate({ threshold: 2 });
    gate.recordOutcome(button, 'fail');
    expect(gate.recordOutcome(button, 'fail').open).toBe(true);
    expect(gate.recordOutcome(button, 'fail').open).toBe(false);
    expect(gate.recordOutcome(button, 'fail').open).toBe(true);
  });

  it('opens at once for a pixel-only unit, with its own reason, without touching the failure counts', () => {
    const gate = new VlmGate({ threshold: 2 });
    expect(gate.pixelOnly()).toMatchObject({ open: true, reason: 'pixel-only' });
    expect(gate.recordOutcome(button, 'fail')).toMatchObject({ open: false, score: 1 });
  });
});
