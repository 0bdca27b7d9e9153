import { describe, expect, it } from 'vitest';
import { computeDelta } from '../../../src/verify/compute-delta.js';
import { evaluateExpectation, goneWithPageCode } from '../../../src/verify/evaluate-expectation.js';
import { parsePredicate } from '../../../src/verify/parse-predicate.js';
import { verifyIntent } from '../../../src/verify/verify-intent.js';
import type { VerifyOutcome } from '../../../src/verify/verify-outcome.js';
import { readDump, removeElement, screen, setAttribute } from './screens.js';

// The real Settings › Network & internet screen, and the same screen with Airplane mode switched on.
const settingsXml = readDump('settings');
const before = screen(settingsXml);
const after = screen(setAttribute(settingsXml, 'switchWidget', 'checked', 'true'));
const renamed = screen(setAttribute(settingsXml, 'text="Internet"', 'text', 'Internet & SIMs'));
const context = (afterScreen = after) => ({ before, after: afterScreen, delta: computeDelta(before, afterScreen) });

function judge(text: string, afterScreen = after): VerifyOutcome {
  return evaluateExpectation(parsePredicate(text), context(afterScreen));
}

describe('evaluateExpectation: an expectation must be evidence of change', () => {
  it('passes, strongly, an atom that became true', () => {
    expect(judge('checked(is=switch)')).toMatchObject({ outcome: 'pass', strength: 'strong', reason: expect.stringContaining('newly true') });
  });

  it('does not accept an expectation that already held before as evidence', () => {
    expect(judge('exists(text="Internet")')).toMatchObject({ outcome: 'inconclusive', code: 'stale-expectation' });
    // Nothing changed at all: the same.
    expect(judge('exists(text="Internet")', before)).toMatchObject({ code: 'stale-expectation' });
  });

  it('counts an atom that held before but matches a node the action changed', () => {
    expect(judge('exists(text~"Internet")', renamed)).toMatchObject({ outcome: 'pass', strength: 'strong', reason: expect.stringContaining('changed') });
  });

  it('counts a negated atom that became true, and a change atom only in its positive form', () => {
    expect(judge('not checked(is=switch)', before)).toMatchObject({ code: 'stale-expectation' });
    expect(judge('not exists(text="Internet")', renamed)).toMatchObject({ outcome: 'pass', strength: 'strong' });
    expect(judge('screenChanged')).toMatchObject({ outcome: 'pass', strength: 'strong' });
    expect(judge('not screenChanged', before)).toMatchObject({ code: 'stale-expectation' });
  });

  it('needs one fresh atom in an and/or, not all of them', () => {
    expect(judge('exists(text="Internet") and checked(is=switch)')).toMatchObject({ outcome: 'pass', strength: 'strong' });
    expect(judge('exists(text="Internet") or checked(is=switch)')).toMatchObject({ outcome: 'pass', strength: 'strong' });
    expect(judge('exists(text="Internet") or exists(text="Calls & SMS")')).toMatchObject({ code: 'stale-expectation' });
  });

  it('returns a failing or inconclusive expectation as it is', () => {
    expect(judge('exists(text="Bluetooth pairing")').outcome).toBe('fail');
  });
});

describe('evaluateExpectation: a thing absent from a page that is gone', () => {
  // The real Settings screen left for the real Clock app: every Settings row is absent
  // after, only because the page it was on is gone.
  const clock = screen(readDump('clock'));
  const withoutInternet = removeElement(settingsXml, 'text="Internet"');

  it('fails absent(q) when the page it was on is gone and the new one does not show where it was', () => {
    expect(computeDelta(before, clock).label).toBe('new-page');
    const verdict = judge('absent(text="Internet")', clock);
    expect(verdict).toMatchObject({ outcome: 'fail', code: goneWithPageCode });
    expect(verdict.reason).toContain('page it was on is gone');
    expect(judge('not exists(text="Internet")', clock)).toMatchObject({ outcome: 'fail', code: goneWithPageCode });
  });

  it('negative control: passes absent(q) for a row removed from the page that stays', () => {
    expect(judge('absent(text="Internet")', screen(withoutInternet))).toMatchObject({ outcome: 'pass', strength: 'strong' });
  });

  it('passes absent(q) on a new page that shows the same list without it (another activity)', () => {
    const otherActivity = screen(withoutInternet, { activity: '.SubSettings' });
    const fromActivity = screen(settingsXml, { activity: '.Settings' });
    const delta = computeDelta(fromActivity, otherActivity);
    expect(delta.label).toBe('new-page');
    const verdict = evaluateExpectation(parsePredicate('absent(text="Internet")'), { before: fromActivity, after: otherActivity, delta });
    expect(verdict).toMatchObject({ outcome: 'pass', strength: 'strong' });
  });

  it('passes when another atom is evidence of its own (the planner expected the page to change)', () => {
    expect(judge('absent(text="Internet") and screenChanged', clock)).toMatchObject({ outcome: 'pass', strength: 'strong' });
  });
});

describe('verifyIntent', () => {
  const pass: VerifyOutcome = { outcome: 'pass', reason: 'unit changed the screen', evidence: [], strength: 'weak' };
  const delta = computeDelta(before, after);

  it('a fresh expectation makes the intent a strong pass', () => {
    expect(verifyIntent({ expectation: parsePredicate('checked(is=switch)'), before, after, delta, unitOutcomes: [pass] }).combined).toMatchObject({ outcome: 'pass', strength: 'strong' });
  });

  it('a stale expectation verifies nothing: the units decide, weakly, and the reason says why', () => {
    const { combined, expectationOutcome } = verifyIntent({ expectation: parsePredicate('exists(text="Internet")'), before, after, delta, unitOutcomes: [pass] });
    expect(combined).toMatchObject({ outcome: 'pass', strength: 'weak' });
    expect(combined.reason).toContain('already held before');
    expect(expectationOutcome?.code).toBe('stale-expectation');
    const failed: VerifyOutcome = { outcome: 'fail', reason: 'nothing changed', evidence: [], code: 'no-change' };
    expect(verifyIntent({ expectation: parsePredicate('exists(text="Internet")'), before, after: before, delta: computeDelta(before, before), unitOutcomes: [failed] }).combined.outcome).toBe('fail');
  });

  it('a failing expectation fails the intent even when every unit passed', () => {
    expect(verifyIntent({ expectation: parsePredicate('exists(text="Bluetooth pairing")'), before, after, delta, unitOutcomes: [pass] }).combined.outcome).toBe('fail');
  });
});
