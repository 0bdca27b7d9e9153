// Every kind of evidence a verdict can name is listed with its meaning in tie-kinds.ts (the
// compiler holds each `tie` to that list), and docs/verify-replay.md ("Evidence kinds")
// lists the same kinds with the same meanings, so a name read in a report can be looked up.
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isTieKind, tieMeanings } from '../../../src/verify/tie-kinds.js';

const docFile = path.resolve(import.meta.dirname, '../../../docs/verify-replay.md');

/** The rows of the "Evidence kinds" table: kind → meaning as written. */
function documentedKinds(): Map<string, string> {
  const text = readFileSync(docFile, 'utf8');
  const start = text.indexOf('\n## Evidence kinds\n');
  expect(start, 'docs/verify-replay.md has a section "## Evidence kinds"').toBeGreaterThan(0);
  const section = text.slice(start + 1, text.indexOf('\n## ', start + 1));
  const rows = new Map<string, string>();
  for (const match of section.matchAll(/^\| `([a-z-]+)` \| (.*) \|$/gm)) rows.set(match[1]!, match[2]!.replace(/\\\|/g, '|'));
  return rows;
}

describe('kinds of evidence', () => {
  it('the docs list every kind the code names, with the same meaning, and no other', () => {
    const documented = documentedKinds();
    expect([...documented.keys()].sort()).toEqual(Object.keys(tieMeanings).sort());
    for (const [kind, meaning] of Object.entries(tieMeanings)) expect(documented.get(kind), kind).toBe(meaning);
  });

  it('tells a kind from any other name read back from a report', () => {
    expect(isTieKind('went-back')).toBe(true);
    expect(isTieKind('untied')).toBe(false);
    // Not a name inherited from Object.
    expect(isTieKind('toString')).toBe(false);
    expect(isTieKind('')).toBe(false);
  });
});
