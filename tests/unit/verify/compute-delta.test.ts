import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { safeParseHierarchy } from '../../../src/ui/parse-hierarchy.js';
import type { UiTree } from '../../../src/ui/ui-tree.js';
import { computeDelta, newPageRhoThreshold, noChangeRhoThreshold } from '../../../src/verify/compute-delta.js';
import { alertDialog, appendChild, dumpsDirectory, hierarchy, node, readDump, removeElement, screen, setAttribute } from './screens.js';

const settingsXml = readDump('settings');
const settingsRoot = 'bounds="[0,0][1280,2856]"';

describe('computeDelta on real dumps', () => {
  it('labels an identical observation no-change', () => {
    const delta = computeDelta(screen(settingsXml), screen(settingsXml));
    expect(delta.label).toBe('no-change');
    expect(delta.rho).toBe(1);
    expect(delta.changes).toEqual([]);
    expect(delta.screenChanged).toBe(false);
  });

  it('sees a flipped switch as one checked change (partial-change, value change)', () => {
    const before = screen(settingsXml);
    const after = screen(setAttribute(settingsXml, 'switchWidget', 'checked', 'true'));
    const delta = computeDelta(before, after);
    expect(delta.label).toBe('partial-change');
    expect(delta.rho).toBeGreaterThanOrEqual(noChangeRhoThreshold);
    expect(delta.changes).toHaveLength(1);
    expect(delta.changes[0]).toMatchObject({ kind: 'checked', from: false, to: true });
    expect(delta.valueChanges).toHaveLength(1);
    expect(delta.selectionChanges).toHaveLength(0);
    expect(delta.screenChanged).toBe(true);
    const change = delta.changes[0]!;
    expect(change.kind === 'checked' && after.nodes[change.after]?.resourceId).toBe('com.android.settings:id/switchWidget');
  });

  it('sees typed text in a real edit field as a text and value change', () => {
    const xml = readDump('timePicker');
    const delta = computeDelta(screen(xml), screen(setAttribute(xml, 'class="android.widget.EditText"', 'text', '07')));
    expect(delta.label).toBe('partial-change');
    expect(delta.textChanges).toEqual([expect.objectContaining({ kind: 'text', field: 'text', from: '01', to: '07' })]);
    expect(delta.valueChanges).toHaveLength(1);
  });

  it('reports a dialog that opens as newSurface, and its dismissal as dismissedSurface', () => {
    const plain = screen(settingsXml);
    const withDialog = screen(appendChild(settingsXml, settingsRoot, alertDialog));
    const opened = computeDelta(plain, withDialog);
    expect(opened.newSurface).toBe(true);
    expect(opened.dismissedSurface).toBe(false);
    expect(opened.surfacesAdded.map((surface) => surface.kind)).toEqual(['dialog']);
    expect(opened.label).toBe('partial-change');
    const dismissed = computeDelta(withDialog, plain);
    expect(dismissed.dismissedSurface).toBe(true);
    expect(dismissed.newSurface).toBe(false);
  });

  it('labels a jump to another app new-page', () => {
    const delta = computeDelta(screen(settingsXml), screen(readDump('clock')));
    expect(delta.label).toBe('new-page');
    expect(delta.packageChanged).toBe(true);
    expect(delta.rho).toBeLessThan(newPageRhoThreshold);
  });

  it('labels an activity change new-page even when the content is the same', () => {
    const delta = computeDelta(screen(settingsXml, { activity: '.Settings' }), screen(settingsXml, { activity: '.SubSettings' }));
    expect(delta.label).toBe('new-page');
    expect(delta.activityChanged).toBe(true);
  });

  it('sees a scrolled list: rows gone at the top, new rows at the bottom', () => {
    let xml = removeElement(settingsXml, 'text="Internet"');
    xml = removeElement(xml, 'text="SIMs"');
    const recycler = 'resource-id="com.android.settings:id/recycler_view"';
    xml = appendChild(xml, recycler, node({ text: 'Calls & SMS', 'resource-id': 'android:id/title', package: 'com.android.settings', bounds: '[48,2500][1000,2600]' }));
    const delta = computeDelta(screen(settingsXml), screen(xml));
    expect(delta.label).toBe('partial-change');
    expect(delta.changes.filter((change) => change.kind === 'removed').length).toBeGreaterThanOrEqual(2);
    expect(delta.changes.filter((change) => change.kind === 'added')).toHaveLength(1);
  });

  it('matches one-to-one on a real 100 KB Appium tree with edits', () => {
    const xml = readDump('twitter');
    const before = screen(xml);
    const tab = before.nodes.find((candidate) => candidate.contentDesc === 'Following');
    expect(tab).toBeDefined();
    let edited = setAttribute(xml, 'content-desc="Following"', 'selected', String(!tab?.selected));
    edited = setAttribute(edited, ' text="+275', 'text', 'Edited headline');
    const delta = computeDelta(before, screen(edited));
    expect(delta.selectionChanges).toHaveLength(1);
    expect(delta.textChanges).toEqual([expect.objectContaining({ from: expect.stringContaining('+275'), to: 'Edited headline' })]);
    const befores = delta.matches.map(([before]) => before);
    const afters = delta.matches.map(([, after]) => after);
    expect(new Set(befores).size).toBe(befores.length);
    expect(new Set(afters).size).toBe(afters.length);
    expect(delta.label).toBe('partial-change');
  });

  it('reports a permission dialog as a new blocker', () => {
    const delta = computeDelta(screen(settingsXml), screen(readDump('permission')));
    expect(delta.errorsOrBlocks.map((blocker) => [blocker.kind, blocker.isNew])).toContainEqual(['permission', true]);
  });
});

describe('computeDelta on hand-made screens', () => {
  const row = (text: string, top: number): string => node({ text, bounds: `[0,${top}][500,${top + 50}]` });
  const rows = (count: number): string[] => Array.from({ length: count }, (_, index) => row(`Item ${index}`, index * 60));
  const root = (children: string[]): string => node({ class: 'android.widget.FrameLayout', bounds: '[0,0][1080,2000]' }, children.join(''));

  it('labels a page that keeps under half of its nodes new-page (same package)', () => {
    const before = screen(hierarchy(root(rows(10))));
    const after = screen(hierarchy(root(rows(10).slice(0, 4))));
    const delta = computeDelta(before, after);
    expect(delta.rho).toBeCloseTo(0.4);
    expect(delta.label).toBe('new-page');
  });

  it('ignores the status-bar clock of the system UI', () => {
    const clock = (time: string): string => node({ text: time, package: 'com.android.systemui', 'resource-id': 'com.android.systemui:id/clock', bounds: '[0,0][100,40]' });
    const before = screen(hierarchy(root(rows(3)), clock('9:41')));
    const after = screen(hierarchy(root(rows(3)), clock('9:42')));
    expect(computeDelta(before, after).label).toBe('no-change');
  });

  it('pairs duplicate fingerprints one-to-one: one removed duplicate is one removal', () => {
    const same = (top: number): string => node({ text: 'Same', bounds: `[0,${top}][500,${top + 50}]` });
    const delta = computeDelta(screen(hierarchy(root([same(0), same(60), same(120)]))), screen(hierarchy(root([same(0), same(60)]))));
    expect(delta.changes).toEqual([{ kind: 'removed', before: expect.any(Number) }]);
    expect(delta.matches).toHaveLength(2);
  });

  it('matches an edited text by class and bounds (IoU ≥ 0.9), not as add + remove', () => {
    const before = screen(hierarchy(root([node({ text: 'Draft', class: 'android.widget.EditText', bounds: '[0,0][500,100]' })])));
    const after = screen(hierarchy(root([node({ text: 'Draft 2', class: 'android.widget.EditText', bounds: '[0,0][500,100]' })])));
    const delta = computeDelta(before, after);
    expect(delta.changes).toEqual([expect.objectContaining({ kind: 'text', from: 'Draft', to: 'Draft 2' })]);
  });

  it('reports an error toast as a blocker', () => {
    const toast = node({ class: 'android.widget.Toast', text: "Couldn't save the alarm", bounds: '[100,1800][900,1900]' });
    const delta = computeDelta(screen(hierarchy(root(rows(3)))), screen(hierarchy(root([...rows(3), toast]))));
    expect(delta.errorsOrBlocks).toEqual([expect.objectContaining({ kind: 'error-toast', text: "Couldn't save the alarm", isNew: true })]);
    const calm = node({ class: 'android.widget.Toast', text: 'Alarm saved', bounds: '[100,1800][900,1900]' });
    expect(computeDelta(screen(hierarchy(root(rows(3)))), screen(hierarchy(root([...rows(3), calm])))).errorsOrBlocks).toEqual([]);
  });

  it('sees a dump of one window and then of another (a menu, then the dialog an entry opened) as a new surface; a window whose text changed as the same', () => {
    const alone = (window: string): UiTree => screen(`<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="0" width="1080" height="2280">${window}</hierarchy>`);
    const menu = (first: string): string => node({ class: 'android.widget.FrameLayout', bounds: '[530,194][1069,800]' },
      node({ class: 'android.widget.ListView', bounds: '[530,194][1069,800]' }, [first, 'Delete note', 'Share'].map((text, index) => node({ text, clickable: true, bounds: `[530,${194 + index * 132}][1069,${326 + index * 132}]` })).join('')));
    const dialog = node({ class: 'android.widget.FrameLayout', bounds: '[28,871][1052,1447]' },
      node({ text: 'Rename note', bounds: '[28,871][1052,993]' }) + node({ class: 'android.widget.EditText', text: 'Diary', focusable: true, bounds: '[72,1052][1008,1205]' })
      + node({ class: 'android.widget.Button', text: 'Cancel', clickable: true, bounds: '[656,1304][843,1436]' }) + node({ class: 'android.widget.Button', text: 'OK', clickable: true, bounds: '[843,1304][1019,1436]' }));
    const opened = computeDelta(alone(menu('Rename note')), alone(dialog));
    expect(opened.surfacesAdded).toHaveLength(1);
    expect(opened.newSurface).toBe(true);
    // The same menu with one entry renamed: the same window.
    expect(computeDelta(alone(menu('Rename note')), alone(menu('Rename list'))).newSurface).toBe(false);
  });

  it('reports an "isn\'t responding" dialog as a blocker', () => {
    const anr = node({ text: "Clock isn't responding", bounds: '[100,800][900,900]' });
    expect(computeDelta(screen(hierarchy(root(rows(2)))), screen(hierarchy(root([...rows(2), anr])))).errorsOrBlocks[0]?.kind).toBe('not-responding');
  });
});

describe('computeDelta invariants over every real dump', () => {
  const files = ['appium-uia2', 'uiautomator-dump', 'other']
    .flatMap((folder) => readdirSync(path.join(dumpsDirectory, folder)).map((name) => path.join(dumpsDirectory, folder, name)));
  const trees = files.flatMap((file) => {
    const parsed = safeParseHierarchy(readFileSync(file, 'utf8'), { sourceName: file });
    return parsed.success ? [{ file, tree: parsed.value }] : [];
  });

  it('parses most dumps, and each one compared with itself is no-change with ρ = 1', () => {
    expect(trees.length).toBeGreaterThan(80);
    for (const { file, tree } of trees) {
      const delta = computeDelta(tree, tree);
      expect({ file, label: delta.label, rho: delta.rho }).toEqual({ file, label: 'no-change', rho: 1 });
    }
  });

  it('is one-to-one and its counts add up between any two neighbouring dumps', () => {
    for (let index = 1; index < trees.length; index++) {
      const before = trees[index - 1]!.tree;
      const after = trees[index]!.tree;
      const delta = computeDelta(before, after);
      const removed = delta.changes.filter((change) => change.kind === 'removed').length;
      const added = delta.changes.filter((change) => change.kind === 'added').length;
      expect(removed).toBe(delta.beforeCount - delta.matches.length);
      expect(added).toBe(delta.afterCount - delta.matches.length);
      expect(new Set(delta.matches.map(([, afterIndex]) => afterIndex)).size).toBe(delta.matches.length);
      expect(delta.rho).toBeGreaterThanOrEqual(0);
      expect(delta.rho).toBeLessThanOrEqual(1);
      if (before.packageName !== after.packageName && before.packageName !== '' && after.packageName !== '') expect(delta.label).toBe('new-page');
    }
  });
});
