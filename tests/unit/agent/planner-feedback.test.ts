// What the next plan is told after an executed intent: the surface decision, missing
// values, regions not to repeat, and a change of strategy only after repeated failure.
import { describe, expect, it } from 'vitest';
import { changeStrategyAfter, newFeedbackMemory, nextPlannerFeedback, type FeedbackInput, type FeedbackMemory, type PlannerFeedback } from '../../../src/agent/loop/planner-feedback.js';
import type { SurfaceDecision } from '../../../src/verify/decide-surface.js';

type Pivot = FeedbackInput['pivot'];
const display: Pivot = { target: { fingerprint: 'display', bounds: [0, 200, 1080, 400] }, label: 'click "Display"' };
const battery: Pivot = { target: { fingerprint: 'battery', bounds: [0, 400, 1080, 600] }, label: 'click "Battery"' };

function surface(overrides: Partial<SurfaceDecision> = {}): SurfaceDecision {
  return { decision: 'CONTINUE', rule: 'no-effect', reason: 'the last action had no effect', flags: { changeStrategy: true }, missingValues: [], editable: true, ...overrides };
}

function play(steps: readonly FeedbackInput[]): { feedback: PlannerFeedback; memory: FeedbackMemory } {
  let memory: FeedbackMemory = newFeedbackMemory();
  let feedback: PlannerFeedback | undefined;
  for (const step of steps) ({ feedback, memory } = nextPlannerFeedback(memory, step));
  return { feedback: feedback!, memory };
}

describe('nextPlannerFeedback', () => {
  it('says the surface decision and the values still missing', () => {
    const { feedback } = play([{ outcome: 'fail', pivot: display, surface: surface({ missingValues: ['7:30'] }) }]);
    expect(feedback).toEqual({ surface: { decision: 'CONTINUE', reason: 'the last action had no effect' }, missingValues: ['7:30'], noRepeat: [] });
  });

  it(`tells the planner to change strategy after ${changeStrategyAfter} failures in a row on the same target, not after one`, () => {
    const once = play([{ outcome: 'fail', pivot: display, surface: surface() }]);
    expect(once.feedback.changeStrategy).toBeUndefined();
    const twice = play([{ outcome: 'fail', pivot: display, surface: surface() }, { outcome: 'fail', pivot: display, surface: surface() }]);
    expect(twice.feedback.changeStrategy).toEqual({ target: 'click "Display"', failures: 2 });
    // Failures on two different targets are not repeated failure.
    const apart = play([{ outcome: 'fail', pivot: display, surface: surface() }, { outcome: 'fail', pivot: battery, surface: surface() }]);
    expect(apart.feedback.changeStrategy).toBeUndefined();
    // A pass on the target clears its count.
    const cleared = play([{ outcome: 'fail', pivot: display, surface: surface() }, { outcome: 'pass', pivot: display, surface: surface({ flags: {} }) }, { outcome: 'fail', pivot: display, surface: surface() }]);
    expect(cleared.feedback.changeStrategy).toBeUndefined();
  });

  it('keeps the regions not to repeat on this surface, and drops them once the surface changed', () => {
    const repeated = surface({ rule: 'repeated-region', flags: { changeStrategy: true, noRepeat: true } });
    const kept = play([{ outcome: 'fail', pivot: display, surface: repeated }, { outcome: 'fail', pivot: battery, surface: repeated }, { outcome: 'fail', pivot: display, surface: repeated }]);
    expect(kept.feedback.noRepeat).toEqual(['click "Display"', 'click "Battery"']);
    const left = play([{ outcome: 'fail', pivot: display, surface: repeated }, { outcome: 'pass', pivot: battery, surface: surface({ decision: 'STOP', rule: 'surface-changed', reason: 'the surface changed: a new page', flags: {} }) }]);
    expect(left.feedback.noRepeat).toEqual([]);
    expect(left.memory.noRepeat).toEqual([]);
  });
});
