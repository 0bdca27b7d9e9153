import { describe, expect, it } from 'vitest';
import { queryToXpath } from '../../../src/export/query-xpath.js';
import { SourceDocument, elementBounds } from '../../../src/sim/appium-driver/source-document.js';
import { Simulator } from '../../../src/sim/simulator.js';
import { parseHierarchy } from '../../../src/ui/parse-hierarchy.js';
import { findNodes } from '../../../src/verify/find-nodes.js';
import { parseQuery } from '../../../src/verify/parse-predicate.js';

/** The clock app's alarm page and the settings home page as the simulator's Appium driver serves them. */
function screen(startPackage: string): { xml: string; document: SourceDocument } {
  const xml = new Simulator({ seed: 1, startPackage }).pageSource('appium-uia2');
  return { xml, document: new SourceDocument(xml) };
}

/** Nodes as `class@bounds`, so the tree's matches and the XPath's can be compared. */
function keysByFindNodes(xml: string, query: string): string[] {
  const tree = parseHierarchy(xml, { packageName: 'p', activity: 'a', sourceName: 'sim' });
  return findNodes(parseQuery(query), tree).matches.map((index) => {
    const node = tree.nodes[index];
    return `${node?.className}@${node?.bounds.join(',')}`;
  }).sort();
}

function keysByXpath(document: SourceDocument, query: string): string[] {
  const xpath = queryToXpath(parseQuery(query));
  if ('problem' in xpath) throw new Error(xpath.problem);
  return document.find('xpath', xpath.xpath).map((element) => `${element.getAttribute('class')}@${elementBounds(element)?.join(',')}`).sort();
}

describe('queryToXpath on the simulator\'s page sources', () => {
  const clock = screen('com.google.android.deskclock');
  const settings = screen('com.android.settings');

  it.each([
    [clock, 'desc="Add alarm"'],
    [clock, 'id="fab"'],
    [clock, 'id~"fab"'],
    [clock, 'is=TextView, text="Alarm"'],
    [clock, 'is=switch'],
    [clock, 'text="alarm"i'],
    [clock, 'text#="9-00"'],
    [settings, 'text="Network & internet"'],
    [settings, 'label~"Network"'],
    [settings, 'id="title", text="Display"'],
  ])('finds the nodes find-nodes finds: %#', (screen, query) => {
    const expected = keysByFindNodes(screen.xml, query);
    expect(expected.length).toBeGreaterThan(0);
    expect(keysByXpath(screen.document, query)).toEqual(expected);
  });

  it('finds nothing for a label the screen does not show (negative control)', () => {
    expect(keysByXpath(clock.document, 'desc="Add timer"')).toEqual([]);
    expect(keysByXpath(settings.document, 'text="Network & Internet"')).toEqual([]);
  });

  it('reads near(...) as the own row: the switch of one alarm, not another\'s', () => {
    const rows = keysByXpath(clock.document, 'is=switch');
    expect(rows.length).toBeGreaterThan(1);
    const time = clock.document.find('xpath', '//*[contains(@resource-id, "digital_clock")]')[0]?.getAttribute('text') ?? '';
    expect(keysByXpath(clock.document, `is=switch, near(text="${time}")`)).toEqual(keysByFindNodes(clock.xml, `is=switch, near(text="${time}")`));
  });

  it('says why a regex or a dialog has no XPath form', () => {
    expect(queryToXpath(parseQuery('text=~/Al+arm/'))).toEqual({ problem: expect.stringContaining('regular expression') });
    expect(queryToXpath(parseQuery('is=dialog'))).toEqual({ problem: expect.stringContaining('is=dialog') });
  });
});
