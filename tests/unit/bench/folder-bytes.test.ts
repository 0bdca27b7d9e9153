// The line a bench prints about its output folder's size counts the files that are there.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { describeBenchDisk, folderBytes, formatBytes } from '../../../src/bench/folder-bytes.js';

const root = mkdtempSync(path.join(tmpdir(), 'senseact-folder-bytes-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('describeBenchDisk', () => {
  it('sums the traces, the report pages and the rest', () => {
    mkdirSync(path.join(root, 'traces', 'a', 'senseact-r0'), { recursive: true });
    mkdirSync(path.join(root, 'report', 'a'), { recursive: true });
    writeFileSync(path.join(root, 'traces', 'a', 'senseact-r0', 'trace.jsonl'), 'x'.repeat(1_500_000));
    writeFileSync(path.join(root, 'report', 'a', 'senseact-r0.html'), 'y'.repeat(2_000));
    writeFileSync(path.join(root, 'results.json'), 'z'.repeat(20));
    expect(folderBytes(root)).toBe(1_502_020);
    expect(describeBenchDisk(root)).toBe('disk: 1.5 MB in 3 files (traces 1.5 MB, report 2 KB, other 20 B)');
  });

  it('counts 0 for a folder that is not there (negative control)', () => {
    expect(folderBytes(path.join(root, 'nope'))).toBe(0);
    expect(formatBytes(2_340_000_000)).toBe('2.34 GB');
  });
});
