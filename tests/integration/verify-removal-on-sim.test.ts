import { describe, expect, it } from 'vitest';
import { perceive, type Perception } from '../../src/perception/perceive.js';
import { Simulator, type NotesState } from '../../src/sim/index.js';
import { parseHierarchy } from '../../src/ui/parse-hierarchy.js';
import { parsePredicate } from '../../src/verify/parse-predicate.js';
import { verifyUnitStep } from '../../src/verify/verify-unit-step.js';

// "Long-press Eggs to delete it" with the expectation absent(text="Eggs"), on the simulated
// Notes app (the sim task notes-shopping-remove-eggs): the verdict must follow what the
// note holds afterwards, whichever unit the planner's id turned out to name.

const notes = 'com.simplemobiletools.notes.pro';
const expectation = parsePredicate('absent(text="Eggs")');

function look(sim: Simulator): Perception {
  return perceive(parseHierarchy(sim.pageSource(), { sourceName: 'simulator', packageName: sim.currentPackage(), activity: sim.currentActivity() }));
}

function unitNamed(perception: Perception, label: string): Perception['units'][number] {
  const unit = perception.units.find((candidate) => candidate.label === label);
  if (!unit) throw new Error(`test setup: no unit "${label}" among ${perception.units.map((candidate) => candidate.label).join(', ')}`);
  return unit;
}

function centre(bounds: readonly [number, number, number, number]): [number, number] {
  return [Math.round((bounds[0] + bounds[2]) / 2), Math.round((bounds[1] + bounds[3]) / 2)];
}

/** Opens the Shopping checklist, acts on the unit `label` (tap or long-press), and verifies it against the expectation. */
function actOnShopping(label: string, how: 'tap' | 'long-press') {
  const sim = new Simulator({ startPackage: notes });
  sim.tap(...centre(unitNamed(look(sim), 'Shopping').bounds));
  const before = look(sim);
  const unit = unitNamed(before, label);
  if (how === 'tap') sim.tap(...centre(unit.bounds));
  else sim.longPress(...centre(unit.bounds));
  const verdict = verifyUnitStep({ unit, args: how === 'long-press' ? { longPress: true } : {}, expectation, before: before.tree, after: look(sim).tree });
  const shopping = (sim.appState(notes) as NotesState).notes.find((note) => note.title === 'Shopping');
  return { verdict, items: shopping?.items.map((item) => item.text) ?? [] };
}

describe('absent(text="Eggs") on the simulated Notes app', () => {
  it('fails when the planner\'s unit left the checklist: Eggs is off the screen but still in the note', () => {
    const { verdict, items } = actOnShopping('Navigate up', 'tap');
    expect(items).toContain('Eggs');
    expect(verdict.outcome).toBe('fail');
    expect(verdict.reason).toContain('page it was on is gone');
  });

  it('negative control: passes, strongly, when the long-press deleted Eggs', () => {
    const { verdict, items } = actOnShopping('Eggs', 'long-press');
    expect(items).not.toContain('Eggs');
    expect(verdict).toMatchObject({ outcome: 'pass', strength: 'strong' });
  });

  it('fails a long-press that deleted another item (Bread): Eggs is still listed', () => {
    const { verdict, items } = actOnShopping('Bread', 'long-press');
    expect(items).toEqual(['Milk', 'Eggs']);
    expect(verdict.outcome).toBe('fail');
  });
});
