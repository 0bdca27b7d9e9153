// The execute phase on one unit: the contract decides, a dropped tap fails after the
// grace observations, a late effect passes, a unit in the wanted state needs no action,
// and without feedback nothing is judged.
import { describe, expect, it } from 'vitest';
import { executeUnit, graceObservations } from '../../../src/agent/loop/execute-unit.js';
import { parsePredicate } from '../../../src/verify/parse-predicate.js';
import { phaseFixture, suiteTask, unitLabelled } from './senseact-fixture.js';

const settings = suiteTask('settings-dark-theme');

/** The simulator step the first action after the fixture's first observation lands on. */
async function firstActionStep(): Promise<number> {
  const { simulator } = await phaseFixture(settings);
  return simulator.stepCount() + 1;
}

describe('executeUnit', () => {
  it('acts, observes and passes a unit whose expected effect shows', async () => {
    const { context, state, events } = await phaseFixture(settings);
    const display = unitLabelled(state, 'Display');
    const result = await executeUnit(context, display, { unit: display.id }, state.screen, parsePredicate('exists(text="Dark theme")'));
    expect(result.outcome.outcome).toBe('pass');
    expect(result.after.perception.view).toContain('Dark theme');
    expect(events().filter((event) => event.type === 'verify-end').map((event) => [event['outcome'], event['by']])).toEqual([['pass', 'contract']]);
  });

  it('fails a dropped tap once the grace observations saw no change', async () => {
    const step = await firstActionStep();
    const { context, state, simulator, events } = await phaseFixture(settings, { faults: { 'dropped-tap': { atSteps: [step] } } });
    const display = unitLabelled(state, 'Display');
    const result = await executeUnit(context, display, { unit: display.id }, state.screen, undefined);
    expect(simulator.faultLog().map((event) => event.kind)).toEqual(['dropped-tap']);
    expect(result.outcome.outcome).toBe('fail');
    expect(result.delta.label).toBe('no-change');
    expect(events().filter((event) => event.type === 'observe-end')).toHaveLength(2 + graceObservations);
  });

  it('waits out a late effect instead of failing it', async () => {
    const step = await firstActionStep();
    const { context, state, simulator } = await phaseFixture(settings, { faults: { 'delayed-effect': { atSteps: [step], observations: 2 } } });
    const display = unitLabelled(state, 'Display');
    const result = await executeUnit(context, display, { unit: display.id }, state.screen, undefined);
    expect(simulator.faultLog().map((event) => event.kind)).toContain('delayed-effect');
    expect(result.outcome.outcome).toBe('pass');
  });

  it('does not act on a toggle already in the wanted state, and passes it', async () => {
    const { context, state, events } = await phaseFixture(settings);
    const display = unitLabelled(state, 'Display');
    const opened = await executeUnit(context, display, { unit: display.id }, state.screen, undefined);
    const dark = opened.after.perception.units.find((unit) => unit.type === 'toggle' && unit.label.includes('Dark theme'));
    expect(dark?.state.checked).toBe(false);
    const acts = events().filter((event) => event.type === 'act-end').length;
    const result = await executeUnit(context, dark!, { unit: dark!.id, checked: false }, opened.after, undefined);
    expect(result.outcome).toMatchObject({ outcome: 'pass', reason: expect.stringContaining('already in the wanted state') });
    expect(events().filter((event) => event.type === 'act-end')).toHaveLength(acts);
  });

  it('judges nothing and never looks twice without execution feedback', async () => {
    const step = await firstActionStep();
    const { context, state, events } = await phaseFixture(settings, { feedback: false, faults: { 'dropped-tap': { atSteps: [step] } } });
    const display = unitLabelled(state, 'Display');
    const result = await executeUnit(context, display, { unit: display.id }, state.screen, undefined);
    expect(result.outcome.outcome).toBe('inconclusive');
    expect(events().filter((event) => event.type === 'observe-end')).toHaveLength(2);
    expect(events().some((event) => event.type === 'verify-end')).toBe(false);
  });
});
