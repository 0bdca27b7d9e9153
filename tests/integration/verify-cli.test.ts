import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CliIo } from '../../src/cli/cli-io.js';
import { main } from '../../src/cli/main.js';
import { readDump, setAttribute } from '../unit/verify/screens.js';

const scratch = mkdtempSync(path.join(tmpdir(), 'senseact-verify-cli-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const settingsXml = readDump('settings');
const before = path.join(scratch, 'before.xml');
const after = path.join(scratch, 'after.xml');
const clock = path.join(scratch, 'clock.xml');
const broken = path.join(scratch, 'broken.xml');
writeFileSync(before, settingsXml);
writeFileSync(after, setAttribute(settingsXml, 'switchWidget', 'checked', 'true'));
writeFileSync(clock, readDump('clock'));
writeFileSync(broken, settingsXml.slice(0, 700));

async function run(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const io: CliIo = { stdout: (text) => { stdout.push(text); }, stderr: (text) => { stderr.push(text); }, cwd: scratch, env: {} };
  const code = await main(args, io);
  return { code, out: stdout.join(''), err: stderr.join('') };
}

describe('senseact diff', () => {
  it('prints the label, rho and the flipped switch', async () => {
    const { code, out, err } = await run('diff', 'before.xml', 'after.xml');
    expect(err).toBe('');
    expect(code).toBe(0);
    expect(out).toContain('label: partial-change');
    expect(out).toMatch(/rho: 1\.000/);
    expect(out).toMatch(/checked\s+#\d+ Switch "switchWidget".*: false → true/);
  });

  it('--json has label, rho, changes and the derived fields', async () => {
    const { code, out } = await run('diff', 'before.xml', 'clock.xml', '--json');
    expect(code).toBe(0);
    const json = JSON.parse(out) as Record<string, unknown>;
    expect(json).toMatchObject({ label: 'new-page', screenChanged: true, newSurface: false, dismissedSurface: false, packageChanged: true });
    expect(json['rho']).toBe(0);
    expect(Array.isArray(json['changes'])).toBe(true);
    expect((json['changes'] as unknown[]).length).toBeGreaterThan(10);
  });

  it('exits 2 naming the file for an unparsable screen', async () => {
    const { code, err } = await run('diff', 'before.xml', 'broken.xml');
    expect(code).toBe(2);
    expect(err).toContain('broken.xml');
  });
});

describe('senseact check', () => {
  it('exits 0 on pass and prints the evidence node', async () => {
    const { code, out } = await run('check', 'after.xml', 'checked(is=switch, near(text="Airplane mode"))');
    expect(code).toBe(0);
    expect(out).toContain('outcome: pass');
    expect(out).toContain('id=com.android.settings:id/switchWidget');
  });

  it('exits 1 on fail', async () => {
    const { code, out } = await run('check', 'before.xml', 'checked(is=switch)');
    expect(code).toBe(1);
    expect(out).toContain('outcome: fail');
  });

  it('exits 3 when inconclusive (a delta atom without --before), and uses --before when given', async () => {
    const unsure = await run('check', 'after.xml', 'screenChanged');
    expect(unsure.code).toBe(3);
    expect(unsure.out).toContain('needs the before screen');
    const sure = await run('check', 'after.xml', 'screenChanged and checked(is=switch)', '--before', 'before.xml', '--json');
    expect(sure.code).toBe(0);
    expect(JSON.parse(sure.out)).toMatchObject({ outcome: 'pass' });
  });

  it('takes the activity the device reported with --activity', async () => {
    expect((await run('check', 'after.xml', 'activity ~ "SubSettings"')).code).toBe(3);
    expect((await run('check', 'after.xml', 'activity ~ "SubSettings"', '--activity', 'com.android.settings.SubSettings')).code).toBe(0);
    expect((await run('check', 'after.xml', 'package = "com.android.settings"', '--package', 'com.example')).code).toBe(1);
  });

  it('accepts the JSON form a model writes, validated by the same schema', async () => {
    const json = JSON.stringify({ kind: 'checked', query: { is: 'switch', near: { text: { op: 'equals', value: 'Airplane mode' } } } });
    const { code, out } = await run('check', 'after.xml', json);
    expect(code).toBe(0);
    expect(out).toContain('predicate: checked(is=switch, near(text="Airplane mode"))');
    const bad = await run('check', 'after.xml', JSON.stringify({ kind: 'checked', query: { colour: 'red' } }));
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('does not match predicateSchema');
  });

  it('exits 2 with a caret under the column for a predicate parse error', async () => {
    const { code, err } = await run('check', 'after.xml', 'exists(txt="a")');
    expect(code).toBe(2);
    expect(err).toMatch(/unknown selector "txt".* at column 8/);
    expect(err).toContain('  exists(txt="a")\n         ^');
  });

  it('exits 2 for a missing screen file', async () => {
    const { code, err } = await run('check', 'missing.xml', 'exists(text="a")');
    expect(code).toBe(2);
    expect(err).toContain('missing.xml: cannot read');
  });
});
