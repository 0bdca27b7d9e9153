// The SCG lines the planner reads after the screen: a form's fields before its Save, a
// spinner before its options, the frontier; nothing for a screen without edges.
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { UnitId } from '../../../src/perception/control-unit.js';
import { perceive, type Perception } from '../../../src/perception/perceive.js';
import { renderScg } from '../../../src/perception/render-scg.js';
import { parseHierarchy } from '../../../src/ui/parse-hierarchy.js';
import { fakeDump } from '../ui/dump-builder.js';

const fixtures = path.resolve(import.meta.dirname, '../../fixtures');

function perceiveFile(relative: string, viewRows?: number): Perception {
  return perceive(parseHierarchy(readFileSync(path.join(fixtures, relative)), { sourceName: relative }), viewRows === undefined ? {} : { viewRows });
}

function idOf(perception: Perception, label: string): UnitId {
  const unit = perception.units.find((candidate) => candidate.label === label);
  if (!unit) throw new Error(`no unit "${label}" in\n${perception.view}`);
  return unit.id;
}

const nothing = { done: new Set<UnitId>(), hidden: new Set<string>() };

describe('renderScg', () => {
  it('names a form\'s fields as alternatives before its commit, and the commit off the frontier until one is done (a real notepad editor)', () => {
    const notepad = perceiveFile('dump-corpus/other/appium-appium__example-notepad__source.xml');
    const save = idOf(notepad, 'Save');
    const field = notepad.scg.edges.find(([, to]) => to === save)![0];
    expect(renderScg(notepad.scg, nothing)).toBe(`${field} → ${save}\nfrontier: all but ${save}`);
    // Once the field is verified, Save is on the frontier: the line goes.
    expect(renderScg(notepad.scg, { ...nothing, done: new Set([field]) })).toBe(`${field} → ${save}`);
  });

  it('counts a field that already holds a value as done for its commit (a real calendar event editor)', () => {
    const calendar = perceiveFile('dump-corpus/uiautomator-dump/hrx20000209-AppAgent__simplemobiletools-calendar__task_Calendar_2025-08-14_14-15-55_4.xml');
    const save = idOf(calendar, 'Save');
    const lines = renderScg(calendar.scg, nothing).split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^(n[0-9a-f]{4}\\|){3}n[0-9a-f]{4} → ${save}$`));
  });

  it('puts an open spinner before all of its options', () => {
    const perception = perceive(parseHierarchy(fakeDump(
      { bounds: [0, 0, 1080, 2400], children: [{ class: 'android.widget.Spinner', clickable: true, text: 'Red', bounds: [40, 400, 1040, 500] }] },
      { class: 'android.widget.FrameLayout', bounds: [40, 500, 1040, 800], children: [{ class: 'android.widget.ListView', scrollable: true, bounds: [40, 500, 1040, 800], children: [
        { class: 'android.widget.CheckedTextView', clickable: true, checkable: true, checked: true, text: 'Red', bounds: [40, 500, 1040, 600] },
        { class: 'android.widget.CheckedTextView', clickable: true, checkable: true, text: 'Green', bounds: [40, 600, 1040, 700] },
      ] }] },
    )));
    const spinner = perception.units.find((unit) => unit.members.some((member) => member.className === 'android.widget.Spinner'))!.id;
    const options = perception.units.filter((unit) => unit.type === 'select' && unit.id !== spinner).map((unit) => unit.id);
    expect(options).toHaveLength(2);
    expect(renderScg(perception.scg, nothing)).toBe(`${spinner} → ${options.join(' ')}\nfrontier: all but ${options.join(' ')}`);
    expect(renderScg(perception.scg, { ...nothing, done: new Set([spinner]) })).toBe(`${spinner} → ${options.join(' ')}`);
  });

  it('says nothing for a screen without edges (negative control), or whose edges join units the view hides', () => {
    const settings = perceiveFile('dump-corpus/uiautomator-dump/Untergang1-AppAgent__settings__task_system_2024-11-12_23-54-19_5.xml');
    expect(settings.scg.edges).toEqual([]);
    expect(renderScg(settings.scg, nothing)).toBe('');
    const notepad = perceiveFile('dump-corpus/other/appium-appium__example-notepad__source.xml');
    const save = idOf(notepad, 'Save');
    expect(renderScg(notepad.scg, { ...nothing, hidden: new Set([save]) })).toBe('');
  });
});
