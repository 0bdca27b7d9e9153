// Memory records carry the run that wrote them; retainRuns keeps the runs a resumed
// benchmark keeps, in file order, and the memory goes on appending after the rewrite.
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CertificateMemory, type MemoryRecord } from '../../../src/memory/certificate-memory.js';
import { certificateVersion, type Certificate } from '../../../src/verify/certificate.js';

const scratch = mkdtempSync(path.join(tmpdir(), 'senseact-retain-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function certificate(intent: string): Certificate {
  const packageName = 'com.android.settings';
  const scope = 'Settings "Network"';
  return {
    version: certificateVersion, id: `c-${intent}`, intent, package: packageName, scope, key: `${packageName} | ${scope} | ${intent}`,
    state: [], prereq: [], action: { unitType: 'click', label: intent }, effect: { label: 'partial-change', summary: 'x', errors: [], outcome: 'pass' }, confidence: 'high',
  };
}

function lines(file: string): MemoryRecord[] {
  return readFileSync(file, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as MemoryRecord);
}

describe('CertificateMemory runs', () => {
  it('stamps appends with their run, and keeps only the runs asked for (and unstamped records)', async () => {
    const file = path.join(scratch, 'a', 'memory.jsonl');
    const memory = await CertificateMemory.open(file);
    await memory.append(certificate('seeded by hand'));
    await memory.forRun('t1/senseact-r0').append(certificate('open wifi'));
    await memory.forRun('t2/senseact-r0').append(certificate('open display'));
    await memory.forRun('t1/senseact-r0').append(certificate('turn wifi off'));
    await memory.forRun('t3/senseact-r0').append(certificate('open battery'));
    await memory.close();
    // A kill mid-append leaves a torn line behind.
    appendFileSync(file, '{"version":1,"id":"c-torn","inte');

    const reopened = await CertificateMemory.open(file);
    expect(reopened.all().map((record) => record.run)).toEqual([undefined, 't1/senseact-r0', 't2/senseact-r0', 't1/senseact-r0', 't3/senseact-r0']);
    const dropped = await reopened.retainRuns((run) => run === 't1/senseact-r0');
    expect(dropped).toBe(2);
    expect(lines(file).map((record) => record.intent)).toEqual(['seeded by hand', 'open wifi', 'turn wifi off']);
    expect(reopened.retrieve({ packageName: 'com.android.settings', intent: 'open display' }).map((hit) => hit.certificate.intent)).not.toContain('open display');
    // Appends go on after the rewrite, on a clean line.
    await reopened.forRun('t2/senseact-r0').append(certificate('open display again'));
    await reopened.close();
    expect(lines(file).map((record) => [record.intent, record.run])).toEqual([['seeded by hand', undefined], ['open wifi', 't1/senseact-r0'], ['turn wifi off', 't1/senseact-r0'], ['open display again', 't2/senseact-r0']]);
  });

  it('leaves a memory with nothing to drop untouched (negative control)', async () => {
    const file = path.join(scratch, 'b', 'memory.jsonl');
    const memory = await CertificateMemory.open(file);
    await memory.forRun('t1/senseact-r0').append(certificate('open wifi'));
    const before = readFileSync(file, 'utf8');
    expect(await memory.retainRuns(() => true)).toBe(0);
    await memory.close();
    expect(readFileSync(file, 'utf8')).toBe(before);
  });
});
