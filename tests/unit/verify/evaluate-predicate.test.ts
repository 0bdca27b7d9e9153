import { describe, expect, it } from 'vitest';
import { computeDelta } from '../../../src/verify/compute-delta.js';
import { evaluatePredicate } from '../../../src/verify/evaluate-predicate.js';
import { findNodes } from '../../../src/verify/find-nodes.js';
import { parsePredicate, parseQuery } from '../../../src/verify/parse-predicate.js';
import { alertDialog, appendChild, hierarchy, node, readDump, screen, setAttribute } from './screens.js';

const settingsXml = readDump('settings');
const settings = screen(settingsXml);
const switchedOn = screen(setAttribute(settingsXml, 'switchWidget', 'checked', 'true'));

describe('evaluatePredicate on the real Settings screen', () => {
  it.each([
    ['exists(text="Internet")', 'pass'],
    ['exists(text="Bluetooth")', 'fail'],
    ['absent(text="Bluetooth")', 'pass'],
    ['absent(text="Internet")', 'fail'],
    ['unique(text="Internet")', 'pass'],
    ['unique(id="title")', 'fail'],
    ['count(id="title") = 9', 'pass'],
    ['count(id="title") < 9', 'fail'],
    ['text(id="summary", nth=1) = "AndroidWifi"', 'pass'],
    ['text(id="summary") ~ "Off"', 'inconclusive'],
    ['text(id="summary", nth=2) #= "+1 555"', 'fail'],
    ['checked(is=switch)', 'fail'],
    ['checked(is=switch, near(text="Airplane mode"))', 'fail'],
    ['checked(text="Airplane mode")', 'inconclusive'],
    ['enabled(text="Internet")', 'pass'],
    ['exists(label~"airplane"i)', 'pass'],
    ['exists(text~"airplane")', 'fail'],
    ['exists(text=~/^Air.*mode$/)', 'pass'],
    ['exists(text="Internet", within(id~"recycler_view"))', 'pass'],
    ['exists(text="Internet", within(id="no_such_id"))', 'fail'],
    ['exists(is=dialog)', 'fail'],
    ['package = "com.android.settings"', 'pass'],
    ['package ~ "deskclock"', 'fail'],
    ['activity ~ "Settings"', 'inconclusive'],
    ['screenChanged', 'inconclusive'],
    ['not exists(text="Bluetooth")', 'pass'],
    ['not screenChanged', 'inconclusive'],
    ['exists(text="Internet") and screenChanged', 'inconclusive'],
    ['exists(text="Bluetooth") and screenChanged', 'fail'],
    ['exists(text="Internet") or screenChanged', 'pass'],
    ['exists(text="Bluetooth") or screenChanged', 'inconclusive'],
  ])('%s → %s', (text, expected) => {
    const result = evaluatePredicate(parsePredicate(text), { after: settings });
    expect(result.outcome).toBe(expected);
    expect(result.reason.length).toBeGreaterThan(0);
  });

  it('passes checked() after the switch was flipped and cites the switch as evidence', () => {
    const result = evaluatePredicate(parsePredicate('checked(is=switch, near(text="Airplane mode"))'), { after: switchedOn });
    expect(result.outcome).toBe('pass');
    expect(result.evidence[0]?.resourceId).toBe('com.android.settings:id/switchWidget');
  });

  it('uses the before screen (or a given delta) for screenChanged / newSurface / dismissedSurface', () => {
    expect(evaluatePredicate(parsePredicate('screenChanged'), { after: switchedOn, before: settings }).outcome).toBe('pass');
    expect(evaluatePredicate(parsePredicate('screenChanged'), { after: settings, before: settings }).outcome).toBe('fail');
    const withDialog = screen(appendChild(settingsXml, 'bounds="[0,0][1280,2856]"', alertDialog));
    const delta = computeDelta(settings, withDialog);
    expect(evaluatePredicate(parsePredicate('newSurface and exists(is=dialog)'), { after: withDialog, delta }).outcome).toBe('pass');
    expect(evaluatePredicate(parsePredicate('dismissedSurface'), { after: withDialog, delta }).outcome).toBe('fail');
    expect(evaluatePredicate(parsePredicate('exists(is=button, within(is=dialog))'), { after: withDialog }).outcome).toBe('pass');
  });

  it('explains a missing within() anchor in the reason', () => {
    const result = evaluatePredicate(parsePredicate('exists(text="Internet", within(id="no_such_id"))'), { after: settings });
    expect(result.reason).toContain('within(id="no_such_id") matches no node');
  });
});

describe('findNodes', () => {
  it('ranks matches top-to-bottom, then left-to-right', () => {
    const tree = screen(hierarchy(node({ class: 'android.widget.FrameLayout', bounds: '[0,0][1000,1000]' },
      node({ text: 'b', bounds: '[500,100][600,150]' }) + node({ text: 'c', bounds: '[0,300][100,350]' }) + node({ text: 'a', bounds: '[0,100][100,150]' }))));
    const found = findNodes(parseQuery('is=text'), tree);
    expect(found.matches.map((index) => tree.nodes[index]?.text)).toEqual(['a', 'b', 'c']);
    expect(findNodes(parseQuery('is=text, nth=2'), tree).matches.map((index) => tree.nodes[index]?.text)).toEqual(['b']);
    expect(findNodes(parseQuery('is=text, nth=4'), tree).problem).toContain('only 3');
  });

  it('keeps near() ties so that an ambiguous target is inconclusive, not guessed', () => {
    const sw = (checked: boolean, left: number): string => node({ class: 'android.widget.Switch', checkable: true, checked, bounds: `[${left},100][${left + 100},200]` });
    const tree = screen(hierarchy(node({ class: 'android.widget.FrameLayout', bounds: '[0,0][1000,1000]' },
      node({ text: 'Wi-Fi', bounds: '[400,100][600,200]' }) + sw(true, 200) + sw(false, 700))));
    expect(findNodes(parseQuery('is=switch, near(text="Wi-Fi")'), tree).matches).toHaveLength(2);
    const result = evaluatePredicate(parsePredicate('checked(is=switch, near(text="Wi-Fi"))'), { after: tree });
    expect(result.outcome).toBe('inconclusive');
    expect(result.reason).toContain('ambiguous');
  });
});

describe('evaluatePredicate on hand-made screens', () => {
  const field = (attributes: Record<string, string | boolean>): ReturnType<typeof screen> => screen(hierarchy(node({ class: 'android.widget.FrameLayout', bounds: '[0,0][1000,1000]' },
    node({ class: 'android.widget.EditText', focusable: true, clickable: true, bounds: '[0,0][800,100]', ...attributes }))));

  it('filled(): typed text passes, the hint shown as text and an empty field fail', () => {
    expect(evaluatePredicate(parsePredicate('filled(is=edit)'), { after: field({ text: 'Gym', hint: 'Label' }) }).outcome).toBe('pass');
    expect(evaluatePredicate(parsePredicate('filled(is=edit)'), { after: field({ text: 'Label', hint: 'Label' }) }).outcome).toBe('fail');
    expect(evaluatePredicate(parsePredicate('filled(is=edit)'), { after: field({ text: '' }) }).outcome).toBe('fail');
    expect(evaluatePredicate(parsePredicate('filled(hint="Label")'), { after: field({ text: '', hint: 'Label', password: true }) }).outcome).toBe('fail');
  });

  it('compares phone numbers by digits only', () => {
    const tree = field({ text: '+1 (555) 123-4567' });
    expect(evaluatePredicate(parsePredicate('text(is=edit) #= "15551234567"'), { after: tree }).outcome).toBe('pass');
    expect(evaluatePredicate(parsePredicate('text(is=edit) = "15551234567"'), { after: tree }).outcome).toBe('fail');
    expect(evaluatePredicate(parsePredicate('exists(text#="1 555 123 4567")'), { after: tree }).outcome).toBe('pass');
  });

  it('is inconclusive on an empty hierarchy', () => {
    const empty = screen(hierarchy());
    expect(empty.empty).toBe(true);
    expect(evaluatePredicate(parsePredicate('absent(text="x")'), { after: empty }).outcome).toBe('inconclusive');
  });
});
