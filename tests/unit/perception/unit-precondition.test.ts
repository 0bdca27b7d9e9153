// Typed preconditions on real dumps: a disabled row, units under a survey dialog, a
// carousel card that shows only a sliver; each next to a unit of the same screen that
// stays actionable (negative controls).
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { perceive, type Perception } from '../../../src/perception/perceive.js';
import { unitPrecondition } from '../../../src/perception/unit-precondition.js';
import { parseHierarchy } from '../../../src/ui/parse-hierarchy.js';
import { fakeDump } from '../ui/dump-builder.js';

const fixtures = path.resolve(import.meta.dirname, '../../fixtures');

function perceiveFile(relative: string): Perception {
  return perceive(parseHierarchy(readFileSync(path.join(fixtures, relative)), { sourceName: relative }));
}

function unit(perception: Perception, label: string) {
  const found = perception.units.find((candidate) => candidate.label === label);
  if (!found) throw new Error(`no unit "${label}" in\n${perception.view}`);
  return found;
}

const settings = perceiveFile('dump-corpus/uiautomator-dump/Untergang1-AppAgent__settings__task_system_2024-11-12_23-54-19_5.xml');
const survey = perceiveFile('dump-corpus/uiautomator-dump/LukasHohl-AppAgent__chrome__task_YouTube_2024-12-06_13-18-54_7.xml');
const carousel = perceiveFile('preconditions/GeniusPudding-droidbot_multidevice__chrome__mal_state_2021-12-14_021722.xml');

describe('unitPrecondition', () => {
  it('refuses a disabled unit (a greyed-out Settings row) and keeps its enabled neighbours', () => {
    const disabled = unitPrecondition(unit(settings, 'Non-carrier data usage'));
    expect(disabled?.kind).toBe('disabled');
    expect(disabled?.reason).toMatch(/"Non-carrier data usage" is disabled/);
    expect(settings.view).toContain('click "Non-carrier data usage" disabled');
    expect(unitPrecondition(unit(settings, 'Saved networks'))).toBeUndefined();
    expect(unitPrecondition(unit(settings, 'Wi-Fi'))).toBeUndefined();
  });

  it('refuses a unit a dialog covers, and keeps the dialog\'s own buttons', () => {
    expect(unitPrecondition(unit(survey, 'Casting'))?.kind).toBe('covered');
    expect(unitPrecondition(unit(survey, 'No thanks'))).toBeUndefined();
    // Above the dialog's area: not covered.
    expect(unitPrecondition(unit(survey, 'Main menu'))).toBeUndefined();
  });

  it('refuses a carousel card of which only a 32 px sliver shows, and keeps the card in full view', () => {
    const sliver = carousel.units.find((candidate) => candidate.label.startsWith('打2劑遭突破感染'))!;
    expect(sliver.bounds).toEqual([0, 707, 32, 1059]);
    expect(unitPrecondition(sliver)?.kind).toBe('off-screen');
    expect(carousel.view).toMatch(/click "打2劑遭突破感染[^\n]*off-screen/);
    const whole = carousel.units.find((candidate) => candidate.label.startsWith('3萬人打3針'))!;
    expect(unitPrecondition(whole)).toBeUndefined();
    // A horizontally scrolling list cut by the screen is a scroll target, not an off-screen unit.
    expect(carousel.units.filter((candidate) => candidate.type === 'scroll').every((candidate) => unitPrecondition(candidate) === undefined)).toBe(true);
  });

  it('tells a sliver from a large unit that is only cut: the top of a tall card is a sound target', () => {
    const perception = perceive(parseHierarchy(fakeDump({ bounds: [0, 0, 1080, 2400], children: [
      { class: 'android.widget.ScrollView', scrollable: true, bounds: [0, 0, 1080, 2000], children: [
        { clickable: true, text: 'Tall card', bounds: [0, 1600, 1080, 2600] },
        { clickable: true, text: 'Peeking row', bounds: [0, 1980, 1080, 2180] },
      ] },
    ] })));
    expect(unitPrecondition(unit(perception, 'Tall card'))).toBeUndefined();
    expect(unitPrecondition(unit(perception, 'Peeking row'))?.kind).toBe('off-screen');
  });

  it('has nothing to say about the pseudo units', () => {
    expect(settings.units.filter((candidate) => candidate.tap === null).map((candidate) => unitPrecondition(candidate))).toEqual([undefined, undefined, undefined, undefined]);
  });
});
