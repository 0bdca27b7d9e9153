import { describe, expect, it } from 'vitest';
import type { UiTree } from '../../../src/ui/ui-tree.js';
import { computeDelta } from '../../../src/verify/compute-delta.js';
import { decideSurface, isEditableSurface, maxSameActionRepeats, type SurfaceAction, type SurfaceInput } from '../../../src/verify/decide-surface.js';
import { extractRequiredValues } from '../../../src/verify/extract-required-values.js';
import { alertDialog, appendChild, hierarchy, node, readDump, screen, setAttribute } from './screens.js';

const settingsXml = readDump('settings');
const settings = screen(settingsXml);
const root = (children: string): string => node({ class: 'android.widget.FrameLayout', bounds: '[0,0][1080,2000]' }, children);
const readOnly = (text: string): UiTree => screen(hierarchy(root(node({ text, bounds: '[0,100][1000,200]' }) + node({ text: 'Back', class: 'android.widget.Button', clickable: true, bounds: '[0,300][300,400]' }))));
const form = (value: string): UiTree => screen(hierarchy(root(node({ class: 'android.widget.EditText', text: value, hint: 'Label', focusable: true, bounds: '[0,100][1000,200]' }) + node({ text: 'Save', class: 'android.widget.Button', clickable: true, bounds: '[0,300][300,400]' }))));
const tap = (label: string, type: SurfaceAction['type'] = 'click', bounds: SurfaceAction['bounds'] = [0, 300, 300, 400]): SurfaceAction => ({ type, label, bounds });

function decide(before: UiTree, after: UiTree, extra: Partial<SurfaceInput> = {}): ReturnType<typeof decideSurface> {
  return decideSurface({ delta: computeDelta(before, after), after, requiredValues: [], ...extra });
}

describe('decideSurface rules, in order', () => {
  it('step-budget and repeated-action guards stop first', () => {
    expect(decide(settings, settings, { stepsTaken: 10, stepBudget: 10 }).rule).toBe('step-budget');
    expect(decide(settings, settings, { sameActionRepeats: maxSameActionRepeats })).toMatchObject({ decision: 'STOP', rule: 'repeated-action' });
  });

  it('surface-changed: a new page or a dialog that opens → STOP', () => {
    expect(decide(settings, screen(readDump('clock')))).toMatchObject({ decision: 'STOP', rule: 'surface-changed' });
    expect(decide(settings, screen(appendChild(settingsXml, 'bounds="[0,0][1280,2856]"', alertDialog)))).toMatchObject({ decision: 'STOP', rule: 'surface-changed' });
  });

  it('blocker: a permission dialog or an error toast → CONTINUE (not a surface change)', () => {
    expect(decide(settings, screen(readDump('permission')))).toMatchObject({ decision: 'CONTINUE', rule: 'blocker' });
    const toast = node({ class: 'android.widget.Toast', text: 'Error: label too long', bounds: '[0,1800][1000,1900]' });
    const after = screen(hierarchy(root(node({ class: 'android.widget.EditText', text: 'x', focusable: true, bounds: '[0,100][1000,200]' }) + toast)));
    expect(decide(form('x'), after)).toMatchObject({ decision: 'CONTINUE', rule: 'blocker' });
  });

  it('read-only-complete: every required value shown and nothing editable → STOP', () => {
    const result = decide(readOnly('Alarm set for 7:30 AM'), readOnly('Alarm set for 7:30 AM, Gym'), { requiredValues: ['7:30 AM', 'gym'] });
    expect(result).toMatchObject({ decision: 'STOP', rule: 'read-only-complete', missingValues: [], editable: false });
  });

  it('no-effect before read-only-complete and commit-sealed: a dropped tap on a read-only screen is a retry, not a finished surface', () => {
    const list = readOnly('Alarm set for 7:30 AM');
    // Nothing changed: the tap (or the Save) did not land.
    expect(decide(list, list, { requiredValues: ['7:30 AM'], lastAction: tap('Alarm 7:30 AM', 'click', [0, 100, 1000, 200]) })).toMatchObject({ decision: 'CONTINUE', rule: 'no-effect', flags: { changeStrategy: true } });
    expect(decide(list, list, { lastAction: tap('Save') })).toMatchObject({ decision: 'CONTINUE', rule: 'no-effect' });
    // Negative controls: the same screens with a change decide as before.
    expect(decide(list, readOnly('Alarm set for 7:30 AM, Gym'), { requiredValues: ['7:30 AM'] })).toMatchObject({ decision: 'STOP', rule: 'read-only-complete' });
    expect(decide(list, readOnly('Saved'), { lastAction: tap('Save') })).toMatchObject({ decision: 'STOP', rule: 'read-only-complete' });
  });

  it('commit-sealed / commit-still-editable after a commit-like action', () => {
    expect(decide(readOnly('Saved'), readOnly('Saved!'), { requiredValues: ['Gym'], lastAction: tap('Save') })).toMatchObject({ decision: 'STOP', rule: 'commit-sealed' });
    expect(decide(form(''), form('Gym'), { lastAction: tap('Done', 'commit') })).toMatchObject({ decision: 'CONTINUE', rule: 'commit-still-editable' });
  });

  it('values-missing: the action had an effect but the surface is still editable → CONTINUE', () => {
    const result = decide(form(''), form('Gy'), { requiredValues: ['Gym'], lastAction: tap('Label', 'fill', [0, 100, 1000, 200]) });
    expect(result).toMatchObject({ decision: 'CONTINUE', rule: 'values-missing', missingValues: ['Gym'], editable: true });
    expect(result.flags).toEqual({});
  });

  it('no-effect: an empty delta → CONTINUE with changeStrategy', () => {
    const result = decide(form(''), form(''), { requiredValues: ['Gym'], lastAction: tap('Label', 'fill', [0, 100, 1000, 200]) });
    expect(result).toMatchObject({ decision: 'CONTINUE', rule: 'no-effect', flags: { changeStrategy: true } });
  });

  it('repeated-region: the same region twice with no effect → noRepeat, or STOP when sealed', () => {
    const previousAction = { bounds: [0, 110, 1000, 205] as const, deltaLabel: 'no-change' as const };
    const editable = decide(form(''), form(''), { requiredValues: ['Gym'], lastAction: tap('Label', 'fill', [0, 100, 1000, 200]), previousAction });
    expect(editable).toMatchObject({ decision: 'CONTINUE', rule: 'repeated-region', flags: { changeStrategy: true, noRepeat: true } });
    const sealed = decide(readOnly('Hello'), readOnly('Hello'), { requiredValues: ['Gym'], lastAction: tap('Back', 'click', [0, 300, 300, 400]), previousAction: { bounds: [0, 300, 300, 400], deltaLabel: 'no-change' } });
    expect(sealed).toMatchObject({ decision: 'STOP', rule: 'repeated-region' });
    const elsewhere = decide(form(''), form(''), { requiredValues: ['Gym'], lastAction: tap('Label', 'fill', [0, 100, 1000, 200]), previousAction: { bounds: [0, 900, 500, 1000], deltaLabel: 'no-change' } });
    expect(elsewhere.rule).toBe('no-effect');
  });

  it('tells editable from sealed surfaces on real screens', () => {
    expect(isEditableSurface(settings)).toBe(true);
    expect(isEditableSurface(screen(readDump('timePicker')))).toBe(true);
    expect(isEditableSurface(readOnly('x'))).toBe(false);
    expect(isEditableSurface(screen(setAttribute(settingsXml, 'switchWidget', 'enabled', 'false')))).toBe(false);
  });
});

describe('extractRequiredValues', () => {
  it.each([
    ['Set an alarm for 7:30 AM labelled "Gym"', ['7:30 AM', 'Gym']],
    ["Send 'hello there' to bob@example.com and call +1 555-123-4567", ['hello there', 'bob@example.com', '+1 555-123-4567']],
    ['Add 3 eggs at 07:30 and remind me at 8 pm, price 2.50', ['3', '07:30', '8 pm', '2.50']],
    ["Don't open the app's menu", []],
    ['Call 5551234567 twice, then 5551234567 again', ['5551234567']],
    ['Rename the note “Shopping list 2” to “Groceries”', ['Shopping list 2', 'Groceries']],
  ])('%s', (intent, expected) => {
    expect(extractRequiredValues(intent)).toEqual(expected);
  });
});
