// docs/faults.md lists every fault kind with the rates of the shipped profiles: a kind or a
// rate changed in code and not in the document fails here.
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { modelFaultProfiles } from '../../../src/agent/model-faults/model-fault-profile.js';
import { faultKinds, faultProfiles } from '../../../src/sim/fault-injector.js';

const doc = readFileSync(path.resolve(import.meta.dirname, '..', '..', '..', 'docs', 'faults.md'), 'utf8');

/** The table row of a kind: its cells after the kind. */
function row(kind: string): string[] | undefined {
  const line = doc.split('\n').find((entry) => entry.startsWith(`| \`${kind}\` |`));
  return line?.split('|').slice(2, -1).map((cell) => cell.trim());
}

describe('docs/faults.md', () => {
  it('gives every device fault kind its rate in standard and drift', () => {
    for (const kind of faultKinds) {
      const cells = row(kind);
      expect(cells, kind).toBeDefined();
      for (const [index, profile] of (['standard', 'drift'] as const).entries()) {
        const rate = faultProfiles[profile][kind]?.rate;
        const cell = cells?.[index + 1] ?? '';
        if (rate === undefined) expect(cell, `${kind} ${profile}`).toBe('-');
        else expect(cell.split(' ')[0], `${kind} ${profile}`).toBe(String(rate));
      }
    }
  });

  it('gives every model fault kind its standard rate', () => {
    for (const [kind, rate] of Object.entries(modelFaultProfiles.standard)) expect(row(kind)?.[1], kind).toBe(String(rate));
  });

  it('fails on a kind the document does not have (negative control)', () => {
    expect(row('no-such-fault')).toBeUndefined();
  });
});
