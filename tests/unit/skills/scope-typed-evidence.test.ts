import { describe, expect, it } from 'vitest';
import { scopeTypedEvidence } from '../../../src/skills/scope-typed-evidence.js';
import { parseHierarchy } from '../../../src/ui/parse-hierarchy.js';
import { parsePredicate } from '../../../src/verify/parse-predicate.js';
import { printPredicate } from '../../../src/verify/print-predicate.js';

function screen(nodes: string): ReturnType<typeof parseHierarchy> {
  return parseHierarchy(`<hierarchy rotation="0"><node index="0" class="android.widget.FrameLayout" package="com.example" bounds="[0,0][1080,2400]">${nodes}</node></hierarchy>`);
}
const listItem = '<node index="0" text="Butter" class="android.widget.TextView" package="com.example" bounds="[0,100][1080,200]"/>';
const field = '<node index="1" text="Butter" class="android.widget.EditText" package="com.example" focusable="true" bounds="[0,900][1080,1000]"/>';
const scope = (expectation: string, typed: string[], nodes: string): string => printPredicate(scopeTypedEvidence(parsePredicate(expectation), typed, screen(nodes)));

describe('scopeTypedEvidence', () => {
  it('narrows an atom looking for the typed text to the class the list shows it in', () => {
    expect(scope('exists(text="Butter")', ['Butter'], listItem)).toBe('exists(is=TextView, text="Butter")');
    expect(scope('exists(text~"butter"i) and exists(desc="Navigate up")', ['Butter'], listItem)).toBe('exists(is=TextView, text~"butter"i) and exists(desc="Navigate up")');
  });

  it('scopes an id that only contains a name too: the dialog field `locked_note_title` also contains "note_title"', () => {
    const title = '<node index="0" text="Reminders" resource-id="com.example:id/note_title" class="android.widget.TextView" package="com.example" bounds="[0,100][1080,200]"/>';
    expect(scope('exists(text="Reminders", id~"note_title")', ['Reminders'], title)).toBe('exists(is=TextView, text="Reminders", id~"note_title")');
  });

  it('negative control: leaves it alone where an edit field holds the text (its only evidence may be the echo)', () => {
    expect(scope('exists(text="Butter")', ['Butter'], `${listItem}${field}`)).toBe('exists(text="Butter")');
  });

  it('leaves atoms about other texts, absences and already scoped queries alone', () => {
    expect(scope('exists(text="Milk")', ['Butter'], listItem)).toBe('exists(text="Milk")');
    expect(scope('not exists(text="Butter")', ['Butter'], listItem)).toBe('not exists(text="Butter")');
    expect(scope('exists(is=TextView, text="Butter")', ['Butter'], `${listItem}${field}`)).toBe('exists(is=TextView, text="Butter")');
    expect(scope('exists(text="Butter")', [], listItem)).toBe('exists(text="Butter")');
  });
});
