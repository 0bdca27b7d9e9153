// The certify-and-decide phase: the pivot unit's certificate goes to memory, the surface
// rules decide STOP / CONTINUE, and STOP clears what was verified on the left surface.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { certifyAndDecide } from '../../../src/agent/certify-and-decide.js';
import { executeCommitment } from '../../../src/agent/execute-commitment.js';
import { planReplySchema } from '../../../src/agent/plan-reply.js';
import { verifyCommittedIntent } from '../../../src/agent/verify-committed-intent.js';
import { CertificateMemory } from '../../../src/memory/certificate-memory.js';
import type { FaultConfig } from '../../../src/sim/index.js';
import { phaseFixture, suiteTask, unitLabelled } from './senseact-fixture.js';

const settings = suiteTask('settings-dark-theme');

async function tap(label: string, options: { faults?: FaultConfig } = {}) {
  const memory = await CertificateMemory.open(path.join(mkdtempSync(path.join(tmpdir(), 'senseact-memory-')), 'memory.jsonl'));
  const fixture = await phaseFixture(settings, { memory, ...(options.faults ? { faults: options.faults } : {}) });
  const unit = unitLabelled(fixture.state, label);
  const plan = planReplySchema.parse({ intent: `Open ${label}`, expectation: '', commitment: [{ unit: unit.id }] });
  const run = await executeCommitment(fixture.context, fixture.state, plan, plan.commitment, [unit]);
  const judgement = await verifyCommittedIntent(fixture.context, plan, run);
  const surface = await certifyAndDecide(fixture.context, fixture.state, plan, run, judgement);
  return { ...fixture, memory, unit, surface };
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

  it('a tap with no effect is certified as a failure and flags a change of strategy', async () => {
    const { memory, surface, state } = await tap('Display', { faults: { 'dropped-tap': { rate: 1 } } });
    expect(memory.all()[0]?.effect).toMatchObject({ outcome: 'fail', label: 'no-change' });
    expect(surface.flags.changeStrategy).toBe(true);
    expect(state.changeStrategy).toBe(true);
  });
});
