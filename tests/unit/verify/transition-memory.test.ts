// The transition memory on real transitions (tests/fixtures/transitions): a weak pass
// that repeats a verified move (same control, same page, same page reached) is strong;
// another step's after screen, a control whose moves disagree (unless one effect is three
// in four of them), a control never seen, and a change within the page that is not the one
// remembered stay as they were. On a page where the control was never acted, the page it
// led to from other pages ties it, unless another control ever reached that page too.
import { describe, expect, it } from 'vitest';
import { TransitionMemory } from '../../../src/verify/transition-memory.js';
import { verifyUnitStep } from '../../../src/verify/verify-unit-step.js';
import type { UiTree } from '../../../src/ui/ui-tree.js';
import { actedUnit, transition } from './transitions.js';
import { hierarchy, node, screen } from './screens.js';
import { perceive } from '../../../src/perception/perceive.js';
import type { ControlUnit } from '../../../src/perception/control-unit.js';

// Reuters: "Navigate up" from an article list back to the sections page (a weak pass alone),
// and the step the replay takes as its wrong effect (another control on a page like it).
const navigateUp = 'lc-lc-2024-01-24_183113';
const otherEffect = 'lc-lc-2024-01-24_171644';
// Simple Calendar's time picker: the minute "00" tapped, the picker re-drawn on the same page.
const minutes = 'hrx-task_Calendar_2025-08-14_14-15-55-6';

async function verdict(id: string, memory: TransitionMemory | undefined, after?: UiTree): Promise<ReturnType<typeof verifyUnitStep>> {
  const step = await transition(id);
  return verifyUnitStep({ unit: actedUnit(step), args: {}, before: step.before, after: after ?? step.after, ...(memory ? { memory } : {}) });
}

describe('TransitionMemory', () => {
  it('makes a weak pass strong when the same control led from this page to this page before', async () => {
    const step = await transition(navigateUp);
    const memory = new TransitionMemory();
    expect(await verdict(navigateUp, memory)).toMatchObject({ outcome: 'pass', strength: 'weak', tie: 'screen-changed' });
    memory.learn(actedUnit(step), step.before, step.after);
    expect(await verdict(navigateUp, memory)).toMatchObject({ outcome: 'pass', strength: 'strong', tie: 'known-transition', reason: expect.stringContaining('same effect from this page once before (verified), and never another') });
    memory.learn(actedUnit(step), step.before, step.after);
    expect(memory.recall(actedUnit(step), step.before, step.after)).toEqual({ same: 2, other: 0 });
  });

  it('does not pass another step\'s after screen strongly, nor a control whose moves disagree', async () => {
    const [step, other] = [await transition(navigateUp), await transition(otherEffect)];
    const memory = new TransitionMemory();
    memory.learn(actedUnit(step), step.before, step.after);
    const wrong = await verdict(navigateUp, memory, other.after);
    expect(wrong.strength).not.toBe('strong');
    expect(memory.recall(actedUnit(step), step.before, other.after)).toEqual({ same: 0, other: 1 });
    // Once the control was seen to lead elsewhere from this page too, it ties neither page to it.
    memory.learn(actedUnit(step), step.before, other.after);
    expect(memory.recall(actedUnit(step), step.before, step.after)).toEqual({ same: 0, other: 1 });
    expect(await verdict(navigateUp, memory)).toMatchObject({ outcome: 'pass', strength: 'weak' });
  });

  it('knows a control whose effect from this page was this one three times in four and twice at least', async () => {
    const [step, other] = [await transition(navigateUp), await transition(otherEffect)];
    const unit = actedUnit(step);
    const memory = new TransitionMemory();
    memory.learn(unit, step.before, other.after);
    memory.learn(unit, step.before, step.after);
    memory.learn(unit, step.before, step.after);
    // Two in three: the control's effect here is not one page.
    expect(memory.recall(unit, step.before, step.after)).toEqual({ same: 0, other: 1 });
    memory.learn(unit, step.before, step.after);
    expect(memory.recall(unit, step.before, step.after)).toEqual({ same: 3, other: 1 });
    expect(await verdict(navigateUp, memory)).toMatchObject({ strength: 'strong', tie: 'known-transition', reason: expect.stringContaining('3 times before (verified), and another once') });
    // The odd page stays unknown: it is one in four.
    expect(memory.recall(unit, step.before, other.after)).toEqual({ same: 0, other: 3 });
    expect((await verdict(navigateUp, memory, other.after)).strength).not.toBe('strong');
  });

  it('knows nothing of a control it never saw, nor of a step that changed nothing', async () => {
    const [step, other] = [await transition(navigateUp), await transition(otherEffect)];
    const memory = new TransitionMemory();
    memory.learn(actedUnit(other), other.before, other.after);
    expect(memory.recall(actedUnit(step), step.before, step.after)).toMatchObject({ same: 0 });
    memory.learn(actedUnit(step), step.before, step.after);
    expect(memory.recall(actedUnit(step), step.before, step.before)).toMatchObject({ same: 0 });
    expect(await verdict(navigateUp, memory, step.before)).toMatchObject({ outcome: 'fail' });
  });

  it('remembers a change within the page by what came and went, not by the page it stayed on', async () => {
    const step = await transition(minutes);
    const memory = new TransitionMemory();
    memory.learn(actedUnit(step), step.before, step.after);
    expect(await verdict(minutes, memory)).toMatchObject({ outcome: 'pass', strength: 'strong', tie: 'known-transition' });
    // The picker re-drawn otherwise on the same page (the hour's screen: another change) is not the change remembered.
    const hour = await transition('hrx-task_Calendar_2025-08-14_14-15-55-7');
    expect(memory.recall(actedUnit(step), step.before, hour.after)).toMatchObject({ same: 0 });
  });

  it('on a page it was never acted on, knows a control by the page it led to from other pages, when no other control reached that page', async () => {
    const [step, other, elsewhere] = [await transition(navigateUp), await transition(otherEffect), await transition(minutes)];
    const unit = actedUnit(step);
    const memory = new TransitionMemory();
    // The same control acted on another page (the calendar's picker stands in for it) led to this step's page.
    memory.learn(unit, elsewhere.before, step.after);
    expect(memory.recall(unit, step.before, step.after)).toEqual({ same: 1, other: 0, elsewhere: true });
    expect(await verdict(navigateUp, memory)).toMatchObject({ outcome: 'pass', strength: 'strong', tie: 'known-destination', reason: expect.stringContaining('from other pages this control led to this page once before (verified), and never another, and no other control led to it') });
    // Negative controls: another step's page is not the page it led to; a change within the page is no page reached.
    expect((await verdict(navigateUp, memory, other.after)).strength).not.toBe('strong');
    expect(memory.recall(unit, step.before, step.before)).toMatchObject({ same: 0 });
  });

  it('does not tie a page that another control reached too, nor a control seen on this page already', async () => {
    const [step, other, elsewhere] = [await transition(navigateUp), await transition(otherEffect), await transition(minutes)];
    const unit = actedUnit(step);
    const shared = new TransitionMemory();
    shared.learn(unit, elsewhere.before, step.after);
    // Another control (the other step's) reached the same page: the page names neither of them.
    shared.learn(actedUnit(other), elsewhere.before, step.after);
    expect(shared.recall(unit, step.before, step.after)).toMatchObject({ same: 0 });
    expect(await verdict(navigateUp, shared)).toMatchObject({ outcome: 'pass', strength: 'weak', tie: 'screen-changed' });
    // Seen on this page going elsewhere: the record of this page decides, not the pages it reached from others.
    const seen = new TransitionMemory();
    seen.learn(unit, elsewhere.before, step.after);
    seen.learn(unit, step.before, other.after);
    expect(seen.recall(unit, step.before, step.after)).toEqual({ same: 0, other: 1 });
  });
});

// SYNTHETIC screens (hand-made, after the shape of a habit tracker's list): a habit row with a
// "−" button, its streak, the health bar's number, and the toast-like note a tap adds.
function habitPage(streak: number, health: number, options: { note?: string; button?: string } = {}): UiTree {
  const button = options.button ?? 'Negative';
  const row = node({ class: 'android.widget.LinearLayout', bounds: '[0,400][1080,600]' },
    node({ text: 'Drink water', bounds: '[40,420][700,480]' })
    + node({ text: String(streak), 'resource-id': 'com.example.app:id/streak', bounds: '[700,520][800,580]' })
    + node({ class: 'android.widget.Button', 'content-desc': /\d/.test(button) ? '' : button, text: /\d/.test(button) ? button : '', clickable: true, bounds: '[900,420][1060,580]' }));
  const bar = node({ text: `${health} / 50`, 'resource-id': 'com.example.app:id/health', bounds: '[40,100][600,160]' });
  const note = options.note === undefined ? '' : node({ text: options.note, 'resource-id': 'com.example.app:id/note', bounds: '[40,1700][1040,1800]' });
  return screen(hierarchy(node({ class: 'android.widget.FrameLayout', bounds: '[0,0][1080,1920]' }, bar + row + note)));
}

function unitNamed(tree: UiTree, label: string): ControlUnit {
  const unit = perceive(tree).units.find((candidate) => candidate.label === label);
  if (!unit) throw new Error(`no unit "${label}"`);
  return unit;
}

describe('TransitionMemory, numbers that tick', () => {
  it('knows a control not named by a number by what it does, whatever the numbers read', () => {
    const memory = new TransitionMemory();
    const first = habitPage(-1, 16);
    const unit = unitNamed(first, 'Negative');
    memory.learn(unit, first, habitPage(-2, 15, { note: '- 0.2' }));
    // The next tap: the streak and the health move on by one, the same note comes.
    expect(memory.recall(unit, habitPage(-2, 15), habitPage(-3, 14, { note: '- 0.2' }))).toEqual({ same: 1, other: 0 });
    // Another effect (another note) is still another effect.
    expect(memory.recall(unit, habitPage(-2, 15), habitPage(-3, 14, { note: 'Habit deleted' }))).toEqual({ same: 0, other: 1 });
  });

  it('keeps the numbers for a control named by one: they are what it sets', () => {
    const memory = new TransitionMemory();
    const first = habitPage(-1, 16, { button: '5' });
    const unit = unitNamed(first, '5');
    memory.learn(unit, first, habitPage(-2, 15, { button: '5', note: '- 0.2' }));
    // Read with its numbers, the page with other numbers is another page: the move is not known.
    expect(memory.recall(unit, habitPage(-2, 15, { button: '5' }), habitPage(-3, 14, { button: '5', note: '- 0.2' }))).toEqual({ same: 0, other: 0 });
    // From the same page, another number reached is another effect.
    expect(memory.recall(unit, first, habitPage(-3, 14, { button: '5', note: '- 0.2' }))).toEqual({ same: 0, other: 1 });
    expect(memory.recall(unit, first, habitPage(-2, 15, { button: '5', note: '- 0.2' }))).toEqual({ same: 1, other: 0 });
  });
});
