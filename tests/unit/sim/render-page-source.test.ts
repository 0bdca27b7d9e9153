import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { Simulator, escapeXmlAttribute } from '../../../src/sim/index.js';
import { dumpNodes, tapOn } from './sim-test-helpers.js';

const dumpAttributeOrder = ['index', 'text', 'resource-id', 'class', 'package', 'content-desc', 'checkable', 'checked', 'clickable', 'enabled', 'focusable', 'focused', 'scrollable', 'long-clickable', 'password', 'selected', 'bounds', 'drawing-order', 'hint'];

function attributeNames(tag: string): string[] {
  return [...tag.matchAll(/ ([a-zA-Z-]+)="/g)].map((m) => m[1] as string);
}

describe('renderPageSource', () => {
  it('writes uiautomator dumps with all 17 classic attributes in order on every node', () => {
    const sim = new Simulator({ startPackage: 'com.google.android.deskclock' });
    const xml = sim.pageSource('uiautomator-dump');
    expect(xml.startsWith(`<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="0"><node `)).toBe(true);
    expect(xml.endsWith('</hierarchy>')).toBe(true);
    expect(XMLValidator.validate(xml)).toBe(true);
    const tags = [...xml.matchAll(/<node [^>]*>/g)].map((m) => m[0]);
    expect(tags.length).toBeGreaterThan(30);
    for (const tag of tags) {
      const names = attributeNames(tag).filter((n) => n !== 'NAF');
      expect(names).toEqual(dumpAttributeOrder);
    }
    // unlabelled clickable nodes get NAF first, as UiAutomator writes it
    const naf = tags.filter((t) => t.startsWith('<node NAF="true"'));
    for (const tag of naf) expect(tag).toMatch(/text="" .*content-desc="" /);
  });

  it('writes Appium UiAutomator2 page source: class-named elements, null attributes omitted, text and displayed always', () => {
    const sim = new Simulator({ startPackage: 'com.google.android.deskclock' });
    const xml = sim.pageSource('appium-uia2');
    expect(xml).toMatch(/^<\?xml version='1.0' encoding='UTF-8' standalone='yes' \?>\n<hierarchy index="0" class="hierarchy" rotation="0" width="1080" height="2400">\n/);
    expect(XMLValidator.validate(xml)).toBe(true);
    const tags = [...xml.matchAll(/<([a-zA-Z.]+) (index="[^>]*)>/g)].filter((m) => m[1] !== 'hierarchy');
    for (const m of tags) {
      const names = attributeNames(` ${m[2] as string}`);
      expect(names.slice(0, 4)).toEqual(['index', 'package', 'class', 'text']);
      expect(names).toContain('displayed');
      const cls = /class="([^"]*)"/.exec(m[2] as string)?.[1];
      expect(m[1]).toBe(cls);
      expect(m[2]).not.toMatch(/content-desc=""|resource-id=""|hint=""/);
      const i = names.indexOf('bounds');
      expect(names.slice(i - 10, i + 2)).toEqual(['checkable', 'checked', 'clickable', 'enabled', 'focusable', 'focused', 'long-clickable', 'password', 'scrollable', 'selected', 'bounds', 'displayed']);
    }
  });

  it('lists the status bar and navigation bar as com.android.systemui windows, each root index 0', () => {
    const sim = new Simulator();
    const nodes = dumpNodes(sim.pageSource('uiautomator-dump'));
    const roots = nodes.filter((n) => n.depth === 0);
    expect(roots.map((r) => r.attrs['package'])).toEqual(['com.android.systemui', 'com.android.systemui', 'com.google.android.apps.nexuslauncher']);
    expect(roots.every((r) => r.attrs['index'] === '0')).toBe(true);
    expect(nodes.some((n) => n.attrs['content-desc'] === 'Back' && n.attrs['clickable'] === 'true')).toBe(true);
  });

  it('escapes markup characters in text so the XML stays well-formed', () => {
    expect(escapeXmlAttribute(`a&b<c>"d"\n`)).toBe('a&amp;b&lt;c&gt;&quot;d&quot;&#10;');
    const sim = new Simulator({ startPackage: 'com.google.android.deskclock' });
    tapOn(sim, { 'content-desc': 'Expand 8:30 AM alarm' });
    tapOn(sim, { 'resource-id': 'edit_label' });
    tapOn(sim, { class: 'android.widget.EditText' });
    sim.typeText('Tom & "Jerry" <3');
    tapOn(sim, { text: 'OK' });
    for (const dialect of ['appium-uia2', 'uiautomator-dump'] as const) {
      const xml = sim.pageSource(dialect);
      expect(XMLValidator.validate(xml)).toBe(true);
      const parsed = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(xml) as unknown;
      expect(JSON.stringify(parsed)).toContain('Tom & \\"Jerry\\" <3');
    }
  });

  it('shows an empty field with text="" and its hint in hint=""', () => {
    const sim = new Simulator({ startPackage: 'com.google.android.deskclock' });
    tapOn(sim, { 'resource-id': 'tab_menu_clock' });
    tapOn(sim, { 'content-desc': 'Add city' });
    const xml = sim.pageSource('uiautomator-dump');
    expect(xml).toMatch(/text="" resource-id="com.google.android.deskclock:id\/search_src_text" class="android.widget.AutoCompleteTextView"[^>]*hint="Search"/);
    expect(sim.pageSource('appium-uia2')).toMatch(/class="android.widget.AutoCompleteTextView" text="" resource-id="[^"]+"[^>]*displayed="true" hint="Search"/);
  });

  it('can report the hint of an empty field as its text too, as the real dumps show; typing still replaces it', () => {
    const sim = new Simulator({ startPackage: 'com.google.android.contacts', emptyFieldText: 'hint' });
    expect(sim.pageSource('uiautomator-dump')).toMatch(/text="Search contacts" resource-id="com.google.android.contacts:id\/open_search_bar_text_view"[^>]*hint="Search contacts"/);
    expect(sim.pageSource('appium-uia2')).toMatch(/text="Search contacts" resource-id="[^"]+open_search_bar_text_view"[^>]*hint="Search contacts"[^>]*showing-hint="true"/);
    tapOn(sim, { 'resource-id': 'open_search_bar_text_view' });
    sim.typeText('Tom');
    expect(sim.pageSource('appium-uia2')).toMatch(/text="Tom" resource-id="[^"]+open_search_bar_text_view"[^>]*hint="Search contacts"[^>]*showing-hint="false"/);
    const plain = new Simulator({ startPackage: 'com.google.android.contacts' });
    expect(plain.pageSource('appium-uia2')).toMatch(/text="" resource-id="[^"]+open_search_bar_text_view"[^>]*showing-hint="true"/);
  });

  it('lists only the active window when asked: the app, or the topmost dialog over it', () => {
    const sim = new Simulator({ startPackage: 'com.google.android.deskclock', pageSourceWindows: 'active' });
    const roots = (): string[] => dumpNodes(sim.pageSource('uiautomator-dump')).filter((n) => n.depth === 0).map((n) => `${n.attrs['package']} ${n.bounds.join(',')}`);
    expect(roots()).toEqual(['com.google.android.deskclock 0,0,1080,2274']);
    tapOn(sim, { 'content-desc': 'Add alarm' });
    const dialog = roots();
    expect(dialog).toHaveLength(1);
    expect(dialog[0]).not.toBe('com.google.android.deskclock 0,0,1080,2274');
    expect(sim.pageSource('appium-uia2')).toContain('Select time');
    expect(sim.pageSource('appium-uia2')).not.toContain('com.android.systemui');
  });
});

