import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CertificateMemory } from '../../../src/memory/certificate-memory.js';
import { CertificateMemoryError } from '../../../src/memory/certificate-memory-error.js';
import { certificateVersion, type Certificate } from '../../../src/verify/certificate.js';

const scratch = mkdtempSync(path.join(tmpdir(), 'senseact-memory-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
let files = 0;
const freshPath = (): string => path.join(scratch, `memory-${files++}`, 'certificates.jsonl');

function certificate(intent: string, packageName = 'com.android.deskclock', scope = 'AlarmActivity "Alarm"', outcome: 'pass' | 'fail' = 'pass'): Certificate {
  return {
    version: certificateVersion,
    id: `c-${packageName}-${intent}-${outcome}`,
    intent,
    package: packageName,
    scope,
    key: `${packageName} | ${scope} | ${intent}`,
    state: ['form with 1 field'],
    prereq: [],
    action: { unitType: 'click', label: intent },
    effect: { label: outcome === 'pass' ? 'partial-change' : 'no-change', summary: 'x', errors: [], outcome },
    confidence: 'high',
  };
}

describe('CertificateMemory', () => {
  it('takes concurrent appends one at a time: one handle, whole lines, call order', async () => {
    const file = freshPath();
    const memory = await CertificateMemory.open(file);
    const intents = Array.from({ length: 40 }, (_unused, index) => `intent number ${index}`);
    await Promise.all(intents.map((intent) => memory.append(certificate(intent))));
    await memory.close();
    const lines = readFileSync(file, 'utf8').trim().split('\n');
    expect(lines.map((line) => (JSON.parse(line) as Certificate).intent)).toEqual(intents);
    const reopened = await CertificateMemory.open(file);
    expect(reopened.size).toBe(40);
    expect(reopened.warnings).toEqual([]);
    await reopened.close();
  });

  it('appends one JSON line per certificate and loads them back in order', async () => {
    const file = freshPath();
    const memory = await CertificateMemory.open(file);
    expect(memory.size).toBe(0);
    await memory.append(certificate('set an alarm for 7:30'));
    await memory.append(certificate('delete the alarm'));
    await memory.close();
    const lines = readFileSync(file, 'utf8').split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[2]).toBe('');
    const reopened = await CertificateMemory.open(file);
    expect(reopened.all().map((item) => item.intent)).toEqual(['set an alarm for 7:30', 'delete the alarm']);
    expect(reopened.warnings).toEqual([]);
  });

  it('skips a torn last line with a warning, keeps the rest, and appends on a new line after it', async () => {
    const file = freshPath();
    const memory = await CertificateMemory.open(file);
    await memory.append(certificate('first'));
    await memory.append(certificate('second'));
    await memory.close();
    const whole = JSON.stringify(certificate('third'));
    appendFileSync(file, whole.slice(0, whole.length / 2));
    const torn = await CertificateMemory.open(file);
    expect(torn.all().map((item) => item.intent)).toEqual(['first', 'second']);
    expect(torn.warnings).toEqual([{ line: 3, problem: expect.stringContaining('torn last line') }]);
    await torn.append(certificate('fourth'));
    await torn.close();
    const again = await CertificateMemory.open(file);
    expect(again.all().map((item) => item.intent)).toEqual(['first', 'second', 'fourth']);
    expect(again.warnings).toHaveLength(1);
  });

  it('skips corrupt records (bad JSON, wrong shape) with line numbers, never failing', async () => {
    const file = freshPath();
    const good = JSON.stringify(certificate('good one'));
    const wrongShape = JSON.stringify({ ...certificate('bad shape'), confidence: 'medium' });
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, `${good}\n{not json\n${wrongShape}\n\n${good}\n`);
    const memory = await CertificateMemory.open(file);
    expect(memory.size).toBe(2);
    expect(memory.warnings.map((warning) => warning.line)).toEqual([2, 3]);
    expect(memory.warnings[0]?.problem).toContain('not JSON');
    expect(memory.warnings[1]?.problem).toContain('confidence');
  });

  it('refuses to append an invalid certificate', async () => {
    const memory = await CertificateMemory.open(freshPath());
    const bad = { ...certificate('x'), version: 99 } as unknown as Certificate;
    await expect(memory.append(bad)).rejects.toSatisfy((error: unknown) => CertificateMemoryError.isInstance(error));
    expect(memory.size).toBe(0);
  });

  it('retrieves the most similar certificates of the same app, best first', async () => {
    const memory = await CertificateMemory.open(freshPath());
    await memory.append(certificate('turn on bluetooth', 'com.android.settings', 'Settings "Connected devices"'));
    await memory.append(certificate('set an alarm for 7:30 labelled gym'));
    await memory.append(certificate('delete the 6:00 alarm'));
    await memory.append(certificate('start a timer for 5 minutes', 'com.android.deskclock', 'TimerActivity "Timer"'));
    await memory.append(certificate('set an alarm for 7:30 labelled gym', 'com.android.deskclock', 'AlarmActivity "Alarm"', 'fail'));
    const found = memory.retrieve({ packageName: 'com.android.deskclock', scope: 'AlarmActivity "Alarm"', intent: 'set an alarm for 8:00 labelled gym' }, 3);
    // Same key: newest first; then the next most similar alarm intent; never another app's.
    expect(found.map((item) => [item.certificate.intent, item.certificate.effect.outcome])).toEqual([
      ['set an alarm for 7:30 labelled gym', 'fail'],
      ['set an alarm for 7:30 labelled gym', 'pass'],
      ['delete the 6:00 alarm', 'pass'],
    ]);
    expect(found[0]!.score).toBeGreaterThan(found[2]!.score);
    expect(memory.retrieve({ packageName: 'com.android.settings', intent: 'set an alarm' }, 5)).toEqual([]);
    expect(memory.retrieve({ packageName: 'com.android.settings', intent: 'bluetooth' }, 5).map((item) => item.certificate.package)).toEqual(['com.android.settings']);
    expect(memory.retrieve({ packageName: 'com.unknown', intent: 'alarm' }, 5)).toEqual([]);
  });

  it('ranks certificates of the same page before the rest of the app', async () => {
    const memory = await CertificateMemory.open(freshPath());
    await memory.append(certificate('set an alarm for 7:30', 'com.android.deskclock', 'ClockActivity "Clock"'));
    await memory.append(certificate('label the alarm', 'com.android.deskclock', 'AlarmActivity "Alarm"'));
    await memory.append(certificate('share the app', 'com.android.deskclock', 'AlarmActivity "Alarm"'));
    const found = memory.retrieve({ packageName: 'com.android.deskclock', scope: 'AlarmActivity "Alarm"', intent: 'set an alarm for 7:30' }, 5);
    // Same page first (only "label the alarm" shares an intent word there), then the app-wide ranking.
    expect(found.map((item) => item.certificate.intent)).toEqual(['label the alarm', 'set an alarm for 7:30', 'share the app']);
  });

  it('returns a certificate written twice once', async () => {
    const memory = await CertificateMemory.open(freshPath());
    await memory.append(certificate('open the alarm list'));
    await memory.append(certificate('open the alarm list'));
    await memory.append(certificate('open the alarm list', 'com.android.deskclock', 'AlarmActivity "Alarm"', 'fail'));
    expect(memory.size).toBe(3);
    const found = memory.retrieve({ packageName: 'com.android.deskclock', intent: 'open alarm list' }, 5);
    expect(found.map((item) => item.certificate.effect.outcome)).toEqual(['fail', 'pass']);
  });

  it('finds certificates appended after the index was built', async () => {
    const memory = await CertificateMemory.open(freshPath());
    await memory.append(certificate('open the alarm list'));
    expect(memory.retrieve({ packageName: 'com.android.deskclock', intent: 'alarm' }, 5)).toHaveLength(1);
    await memory.append(certificate('snooze the alarm'));
    expect(memory.retrieve({ packageName: 'com.android.deskclock', intent: 'snooze' }, 5).map((item) => item.certificate.intent)).toEqual(['snooze the alarm']);
  });
});
