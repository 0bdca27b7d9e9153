import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import type { CliIo } from '../../src/cli/cli-io.js';
import { main } from '../../src/cli/main.js';

const repoRoot = path.resolve(import.meta.dirname, '../..');
const fixtures = path.join(repoRoot, 'tests/fixtures/dumps');
const settings = 'tests/fixtures/dumps/Hemanth0411-Navi_Agent__settings__self_explore_2025-05-14_18-22-38_4_after_xml.xml';

/** Records what the CLI prints. */
function fakeIo(): CliIo & { out: () => string; err: () => string } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return {
    stdout: (text) => { stdout.push(text); },
    stderr: (text) => { stderr.push(text); },
    cwd: repoRoot,
    env: {},
    out: () => stdout.join(''),
    err: () => stderr.join(''),
  };
}

async function inspect(...args: string[]) {
  const io = fakeIo();
  const code = await main(['inspect', ...args], io);
  return { code, out: io.out(), err: io.err() };
}

const scratch = mkdtempSync(path.join(tmpdir(), 'senseact-inspect-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('senseact inspect', () => {
  it('--jsonl prints one object per screen of a directory, with units, edges and the exact view', async () => {
    const { code, out, err } = await inspect('tests/fixtures/dumps', '--jsonl');
    expect(err).toBe('');
    expect(code).toBe(0);
    const screens = out.trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(screens).toHaveLength(6);
    expect(screens.map((screen) => screen['dialect'])).toEqual(expect.arrayContaining(['appium-uia2', 'uiautomator-dump', 'droidbot']));
    const settingsScreen = screens.find((screen) => screen['source'] === settings)!;
    const units = settingsScreen['units'] as { id: string; type: string; label: string; bounds: number[]; tap: number[] | null; members: Record<string, unknown>[] }[];
    const airplane = units.find((unit) => unit.label === 'Airplane mode')!;
    expect(airplane.type).toBe('toggle');
    expect(airplane.bounds).toHaveLength(4);
    expect(airplane.tap).toHaveLength(2);
    expect(Object.keys(airplane.members[0]!)).toEqual(expect.arrayContaining(['bounds', 'class', 'resourceId', 'text', 'contentDesc']));
    expect(settingsScreen['view']).toMatch(/^app com\.android\.settings\b/);
    expect(settingsScreen['view']).toContain(`[${airplane.id}] toggle "Airplane mode" unchecked`);
    const deskclock = screens.find((screen) => String(screen['source']).includes('deskclock'))!;
    expect(Array.isArray(deskclock['edges'])).toBe(true);
  });

  it('--json prints an array for several screens and an object for one file', async () => {
    const many = await inspect('tests/fixtures/dumps', '--json');
    expect(many.code).toBe(0);
    expect(JSON.parse(many.out)).toHaveLength(6);
    const one = await inspect(settings, '--json');
    const screen = JSON.parse(one.out) as { source: string; level: number };
    expect(screen.source).toBe(settings);
    expect(screen.level).toBe(2);
    const levelOne = JSON.parse((await inspect(settings, '--json', '--level', '1')).out) as { level: number; view: string };
    expect(levelOne.level).toBe(1);
    const ablation = JSON.parse((await inspect(settings, '--json', '--no-merge-switch', '--no-use-bounds', '--keep-system-bar')).out) as { options: Record<string, boolean>; units: { type: string }[] };
    expect(ablation.options).toEqual({ removeSystemBar: false, useBounds: false, mergeSwitch: false });
    const merged = JSON.parse(one.out) as { units: { type: string }[] };
    expect(ablation.units.length).toBeGreaterThan(merged.units.length);
  });

  it('prints the view, units with tap points and edges as text by default', async () => {
    const { code, out } = await inspect(settings);
    expect(code).toBe(0);
    expect(out).toContain(`== ${settings} (uiautomator-dump, level 2)`);
    expect(out).toMatch(/units:\n {2}\[n[0-9a-f]{4}\] scroll .* tap=\(\d+,\d+\)/);
    expect(out).toContain('edges: (none)');
  });

  it('names a bad file on stderr with exit code 2 and still prints the good ones', async () => {
    const bad = path.join(scratch, 'truncated.xml');
    writeFileSync(bad, '<?xml version="1.0"?>\n<hierarchy rotation="0"><node class="a" bounds="[0,0][1,1]"');
    copyFileSync(path.join(repoRoot, settings), path.join(scratch, 'good.xml'));
    const { code, out, err } = await inspect(scratch, '--jsonl');
    expect(code).toBe(2);
    expect(err).toMatch(/truncated\.xml:2:\d+: /);
    expect(err.split('\n').filter(Boolean)[0]).toContain('senseact inspect:');
    const lines = out.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect((JSON.parse(lines[0]!) as { source: string }).source).toMatch(/good\.xml$/);
  });

  it('fails with exit code 2 for a missing path or a folder without dumps', async () => {
    const missing = await inspect('no/such/file.xml');
    expect(missing.code).toBe(2);
    expect(missing.err).toContain('no/such/file.xml: cannot read');
    const empty = mkdtempSync(path.join(scratch, 'empty-'));
    const none = await inspect(empty);
    expect(none.code).toBe(2);
    expect(none.err).toContain('no .xml or .json files');
  });

  const built = path.join(repoRoot, 'dist/cli/commands/inspect-command.js');
  it.skipIf(!existsSync(built))('runs through the built bin', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [path.join(repoRoot, 'bin/senseact.js'), 'inspect', path.join(fixtures, path.basename(settings)), '--jsonl'], { cwd: repoRoot });
    expect((JSON.parse(stdout) as { units: unknown[] }).units.length).toBeGreaterThan(5);
  });
});
