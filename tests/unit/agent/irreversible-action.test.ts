// Which actions cannot be undone, on real dumps: a tap whose label says so, a
// confirm button on a dialog that says so, a profile's own words; never a word inside
// another word, never a toggle, never the OK of a harmless picker.
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { irreversibleAction } from '../../../src/agent/loop/irreversible-action.js';
import { perceive, type Perception } from '../../../src/perception/perceive.js';
import { parseHierarchy } from '../../../src/ui/parse-hierarchy.js';

const dumps = path.resolve(import.meta.dirname, '../../fixtures/dump-corpus/uiautomator-dump');
const mail = readFileSync(path.join(dumps, 'hzx-coder0-PersonalAppAgent__email__Mail_demo_ABCD_2025-04-07_21-33-50_2.xml'), 'utf8');

function screen(xml: string): Perception {
  return perceive(parseHierarchy(xml, { sourceName: 'fixture' }));
}

function flagged(perception: Perception, words: readonly string[] = []): Record<string, string> {
  return Object.fromEntries(perception.units.flatMap((unit) => {
    const action = irreversibleAction(unit, perception, words);
    return action ? [[`${unit.type} ${unit.label}`, action.reason]] : [];
  }));
}

describe('irreversibleAction', () => {
  it('flags the Send of a mail dialog by its label, not its Cancel', () => {
    const found = flagged(screen(mail));
    expect(found['commit Send']).toBe('its label says "send"');
    expect(Object.keys(found).some((key) => key.includes('Cancel'))).toBe(false);
  });

  it('flags a plain OK by the dialog that says what it does (the same dialog, its button relabelled OK)', () => {
    const relabelled = screen(mail.replace('text="Send"', 'text="OK"'));
    expect(flagged(relabelled)['commit OK']).toMatch(/^its dialog "Message subject is empty\. Send anyway\?" says "send"$/);
  });

  it('leaves the OK of a time picker, and every unit of a clock screen, alone', () => {
    const picker = screen(readFileSync(path.join(dumps, 'hrx20000209-AppAgent__simplemobiletools-calendar__task_Calendar_2025-08-14_14-15-55_5.xml'), 'utf8'));
    expect(flagged(picker)).toEqual({});
    const clock = screen(readFileSync(path.join(dumps, 'Hemanth0411-Navi_Agent__deskclock__task_driven_2025-05-16_12-53-10_4_after_xml.xml'), 'utf8'));
    expect(flagged(clock)).toEqual({});
    // A profile's own word makes its action irreversible there.
    expect(flagged(clock, ['cancel'])).toEqual({ 'click Cancel': 'its label says "cancel"' });
  });

  it('matches whole words only', () => {
    const sender = screen(mail.replace('text="Send"', 'text="Sender"').replace('Send anyway?', 'Go on?'));
    expect(flagged(sender)).toEqual({});
  });
});
