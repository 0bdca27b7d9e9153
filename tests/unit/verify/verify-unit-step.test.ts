import { describe, expect, it } from 'vitest';
import type { ControlUnit } from '../../../src/perception/control-unit.js';
import { perceive } from '../../../src/perception/perceive.js';
import type { ReplayStep } from '../../../src/tasks/replay/replay-task.js';
import { boundsIou } from '../../../src/ui/bounds.js';
import type { ContractArgs } from '../../../src/verify/unit-contract.js';
import { alreadyInWantedState, verifyUnitStep } from '../../../src/verify/verify-unit-step.js';
import { transition } from './transitions.js';

/** The unit whose member has the recorded element's bounds (the replay's mapping, in short). */
function actedUnit(step: ReplayStep): ControlUnit {
  const element = step.action.kind === 'key' ? undefined : step.action.element;
  if (!element) throw new Error(`${step.id} names no element`);
  const units = perceive(step.before).units.filter((unit) => unit.primary !== null);
  const unit = units.find((candidate) => candidate.members.some((member) => boundsIou(member.bounds, element.bounds) === 1))
    ?? units.find((candidate) => candidate.members.some((member) => boundsIou(member.bounds, element.bounds) > 0.5));
  if (!unit) throw new Error(`no unit for the element of ${step.id}`);
  return unit;
}

async function verify(id: string, args: ContractArgs = {}, afterIsBefore = false): Promise<ReturnType<typeof verifyUnitStep>> {
  const step = await transition(id);
  return verifyUnitStep({ unit: actedUnit(step), args, before: step.before, after: afterIsBefore ? step.before : step.after });
}

describe('verifyUnitStep on real transitions', () => {
  it('passes a launcher tap that opened the app drawer, and fails the same tap when nothing changed', async () => {
    expect((await verify('lc-lc-2023-12-27_173450')).outcome).toBe('pass');
    const noOp = await verify('lc-lc-2023-12-27_173450', {}, true);
    expect(noOp).toMatchObject({ outcome: 'fail', code: 'no-change' });
  });

  it('passes a tap on the tab that is already selected when nothing changed (its effect is already there)', async () => {
    const step = await transition('lc-lc-2023-12-31_144714');
    const unit = actedUnit(step);
    expect(unit.state.selected).toBe(true);
    expect(verifyUnitStep({ unit, args: {}, before: step.before, after: step.after }).outcome).toBe('pass');
  });

  it('says a unit is already in the wanted state only when acting would change nothing', async () => {
    const step = await transition('ug-task_system_2024-05-20_19-52-52-4');
    const toggle = actedUnit(step);
    expect(toggle.type).toBe('toggle');
    expect(alreadyInWantedState(toggle, { checked: toggle.state.checked ?? false })).toBe(true);
    expect(alreadyInWantedState(toggle, { checked: !(toggle.state.checked ?? false) })).toBe(false);
    expect(alreadyInWantedState(toggle, {})).toBe(false);
  });
});
