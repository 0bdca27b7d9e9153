// The certify-and-decide phase: the pivot unit's certificate goes to memory, the surface
// rules decide STOP / CONTINUE, and STOP clears what was verified on the left surface.
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CertificateMemory } from '../../../src/memory/certificate-memory.js';
import type { FaultConfig } from '../../../src/sim/index.js';
import { scratchFolder } from '../../helpers/scratch-folder.js';
import { phaseFixture, suiteTask, tapAndDecide } from './senseact-fixture.js';

const settings = suiteTask('settings-dark-theme');

const memories = scratchFolder('senseact-memory-');
let opened = 0;

async function tap(label: string, options: { faults?: FaultConfig } = {}) {
  const memory = await CertificateMemory.open(path.join(memories, `${opened++}`, 'memory.jsonl'));
  const fixture = await phaseFixture(settings, { memory, ...(options.faults ? { faults: options.faults } : {}) });
  return { ...fixture, memory, ...(await tapAndDecide(fixture, label)) };
}

describe('certifyAndDecide', () => {
  it('certifies the pivot unit, and a new page is a STOP that clears the verified units', async () => {
    const { memory, surface, state, unit, events } = await tap('Display');
    expect(memory.size).toBe(1);
    expect(memory.all()[0]).toMatchObject({ intent: 'Open Display', action: { unitType: 'click', label: 'Display' }, effect: { outcome: 'pass', label: 'new-page' }, confidence: 'high' });
    expect(surface).toMatchObject({ decision: 'STOP', rule: 'surface-changed' });
    expect(state.verified.has(unit.id)).toBe(false);
    expect(state.previousAction).toEqual({ bounds: unit.bounds, deltaLabel: 'new-page' });
    expect(events().filter((event) => event.type === 'surface-end')).toMatchObject([{ decision: 'stop', rule: 'surface-changed' }]);
  });

  it('gives the next plan the surface decision and its reason', async () => {
    const { state, memory } = await tap('Display');
    expect(state.plannerFeedback).toEqual({ surface: { decision: 'STOP', reason: 'the surface changed: a new page' }, missingValues: [], noRepeat: [] });
    expect(state.writtenCertificates).toEqual(new Set([memory.all()[0]!.id]));
  });

  it('a tap with no effect is certified as a failure; the planner is told to change strategy only after the second failure on that target', async () => {
    const fixture = await phaseFixture(settings, { faults: { 'dropped-tap': { rate: 1 } } });
    const first = await tapAndDecide(fixture, 'Display');
    expect(first.surface.flags.changeStrategy).toBe(true);
    // One dropped tap is what a retry fixes: no change of strategy, no region to avoid yet.
    // Nor is the read-only list done: the tap did not land, so the surface stays (CONTINUE), not STOP.
    expect(first.surface).toMatchObject({ decision: 'CONTINUE', rule: 'no-effect' });
    expect(fixture.state.plannerFeedback).toMatchObject({ surface: { decision: 'CONTINUE', reason: 'the last action had no effect (all required values shown); change strategy' }, noRepeat: [] });
    expect(fixture.state.plannerFeedback?.changeStrategy).toBeUndefined();
    await tapAndDecide(fixture, 'Display');
    expect(fixture.state.plannerFeedback).toMatchObject({ changeStrategy: { target: 'click "Display"', failures: 2 }, noRepeat: ['click "Display"'] });
  });

});
