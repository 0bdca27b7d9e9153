// The helper that lets browser and Java tests skip on a machine without them (and fail
// under .ci/run's strict variables) finds a program on PATH, and only there.
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { chromiumTool, javaTool } from '../../helpers/system-tool.js';

const scratch = mkdtempSync(path.join(tmpdir(), 'senseact-system-tool-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('chromiumTool', () => {
  it('finds chromium-browser on PATH', () => {
    const directory = mkdtempSync(path.join(scratch, 'bin-'));
    writeFileSync(path.join(directory, 'chromium-browser'), '#!/bin/sh\n');
    chmodSync(path.join(directory, 'chromium-browser'), 0o755);
    expect(chromiumTool.check({ PATH: `${scratch}${path.delimiter}${directory}` })).toEqual({ ok: true, path: path.join(directory, 'chromium-browser') });
  });

  it('is missing when no directory on PATH holds it (a directory named chromium is not it)', () => {
    const directory = mkdtempSync(path.join(scratch, 'empty-'));
    mkdtempSync(path.join(directory, 'chromium'));
    const found = chromiumTool.check({ PATH: directory });
    expect(found.ok).toBe(false);
    expect(found.ok ? '' : found.reason).toContain('on PATH');
  });

  it('takes SENSEACT_CHROMIUM when it exists, and says so when it does not', () => {
    const binary = path.join(scratch, 'my-chrome');
    writeFileSync(binary, '');
    expect(chromiumTool.check({ PATH: '', SENSEACT_CHROMIUM: binary })).toEqual({ ok: true, path: binary });
    expect(chromiumTool.check({ PATH: '', SENSEACT_CHROMIUM: path.join(scratch, 'gone') })).toEqual({ ok: false, reason: `SENSEACT_CHROMIUM=${path.join(scratch, 'gone')} does not exist` });
  });
});

describe('javaTool', () => {
  it('is missing with an empty PATH and no JAVA_HOME', () => {
    const found = javaTool.check({ PATH: '' });
    expect(found.ok).toBe(false);
    expect(found.ok ? '' : found.reason).toContain('no Java runtime');
  });
});
