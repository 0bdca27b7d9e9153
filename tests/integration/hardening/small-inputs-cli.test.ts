// Smaller hostile inputs: a repeated XML attribute, YAML nested past the parser's stack,
// `inspect --json` of a file that does not parse, and C1 control characters in a dump's
// text. Each is named (exit 2) or shown escaped; negative controls beside each.
import { writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../../src/cli/main.js';
import { parseYamlSafely } from '../../../src/util/parse-yaml-safely.js';
import { temporaryRunRoot } from '../../helpers/sim-suite.js';

const root = temporaryRunRoot('senseact-small-inputs-');

async function cli(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(args, { stdout: (text) => { out += text; }, stderr: (text) => { err += text; }, cwd: root.dir(), env: {} });
  return { code, out, err };
}

const dump = (attributes: string) => `<hierarchy rotation="0"><node index="0" ${attributes} class="android.widget.Button" package="com.x" clickable="true" bounds="[0,0][100,100]"/></hierarchy>`;

describe('smaller hostile inputs', () => {
  it('a repeated attribute is a named error, not the last value winning; one text reads (control)', async () => {
    const file = path.join(root.dir(), 'twice.xml');
    await writeFile(file, dump('text="Cancel" text="Delete all"'));
    const run = await cli('check', file, 'exists(text="Delete all")');
    expect(run.code).toBe(2);
    expect(run.err).toContain('attribute text appears twice in <node>');
    await writeFile(file, dump('text="Cancel"'));
    expect((await cli('check', file, 'exists(text="Cancel")')).code).toBe(0);
  });

  it('YAML nested past the stack says "nested too deep", not a stack overflow; shallow nesting reads (control)', () => {
    const deep = parseYamlSafely(`a: ${'['.repeat(20_000)}${']'.repeat(20_000)}`);
    expect(deep.success).toBe(false);
    if (!deep.success) {
      expect(deep.problems[0]?.message).toBe('the YAML is nested too deep to read; flatten it');
      expect(JSON.stringify(deep.problems)).not.toMatch(/call stack/i);
    }
    expect(parseYamlSafely(`a: ${'['.repeat(50)}${']'.repeat(50)}`).success).toBe(true);
  });

  it('inspect --json of a bad file prints no null on stdout; a good file prints its object (control)', async () => {
    const bad = path.join(root.dir(), 'bad.xml');
    await writeFile(bad, 'garbage');
    const run = await cli('inspect', '--json', bad);
    expect(run.code).toBe(2);
    expect(run.out).toBe('');
    expect(run.err).toContain('bad.xml:1:1');
    const good = path.join(root.dir(), 'good.xml');
    await writeFile(good, dump('text="OK"'));
    const control = await cli('inspect', '--json', good);
    expect(control.code).toBe(0);
    expect(JSON.parse(control.out)).toMatchObject({ source: 'good.xml' });
  });

  it('inspect shows a C1 control (U+009B) escaped, never raw; plain text stays as it is (control)', async () => {
    const file = path.join(root.dir(), 'c1.xml');
    await writeFile(file, dump('text="a\u009b31mX"'));
    const run = await cli('inspect', file);
    expect(run.code).toBe(0);
    expect(run.out).not.toContain('\u009b');
    expect(run.out).toContain('a\\u009b31mX');
    await writeFile(file, dump('text="Plain OK"'));
    expect((await cli('inspect', file)).out).toContain('"Plain OK"');
  });
});
