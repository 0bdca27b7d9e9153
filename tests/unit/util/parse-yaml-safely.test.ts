// Untrusted YAML cannot exhaust the process: an alias bomb, broken syntax or absurd
// nesting is a problem with its line, and the task and profile loaders name the file.
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DeviceProfileError } from '../../../src/device/device-profile-error.js';
import { loadDeviceProfile } from '../../../src/device/device-profile.js';
import { parseTaskFile } from '../../../src/tasks/load-task-file.js';
import { TaskLoadError } from '../../../src/tasks/task-load-error.js';
import { maxYamlAliasCount, parseYamlSafely } from '../../../src/util/parse-yaml-safely.js';
import { scratchFolder } from '../../helpers/scratch-folder.js';

/** Nine levels of nine aliases each: 9^9 expansions when read naively. */
const aliasBomb = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]', ...['b', 'c', 'd', 'e', 'f', 'g', 'h', 'i'].map((name, index) => `${name}: &${name} [${Array(9).fill(`*${'abcdefgh'[index]}`).join(',')}]`)].join('\n');

function thrown(work: () => unknown): unknown {
  try {
    work();
  } catch (error) {
    return error;
  }
  throw new Error('expected an error');
}

const profiles = scratchFolder('senseact-yaml-');

describe('parseYamlSafely', () => {
  it('reads YAML with a few aliases (positive control)', () => {
    const parsed = parseYamlSafely('base: &base {x: 1}\nfirst: *base\nsecond: *base\n');
    expect(parsed.success && parsed.value.value).toEqual({ base: { x: 1 }, first: { x: 1 }, second: { x: 1 } });
  });

  it('turns an alias bomb into a problem at the first alias', () => {
    const parsed = parseYamlSafely(aliasBomb);
    expect(parsed.success).toBe(false);
    if (!parsed.success) expect(parsed.problems).toEqual([{ line: 2, column: 8, message: expect.stringContaining(`YAML aliases expand more than ${maxYamlAliasCount} times (an alias bomb?)`) as string }]);
  });

  it('reports syntax errors and duplicate keys with their place', () => {
    const parsed = parseYamlSafely('a: 1\na: 2\n');
    expect(!parsed.success && parsed.problems[0]).toMatchObject({ line: 2, message: expect.stringMatching(/YAML syntax: .*unique/i) as string });
    const deep = parseYamlSafely(`a: ${'['.repeat(20_000)}${']'.repeat(20_000)}\n`);
    expect(deep.success).toBe(false);
  });

  it('makes an alias bomb a TaskLoadError naming file and line', () => {
    const error = thrown(() => parseTaskFile(`${aliasBomb}\ntasks: *i\n`, 'tasks/bomb.yaml'));
    expect(TaskLoadError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain('tasks/bomb.yaml:2:8: YAML aliases expand more than 100 times');
  });

  it('makes an alias bomb a DeviceProfileError naming file and line', () => {
    const file = path.join(profiles, 'bomb.yaml');
    writeFileSync(file, `kind: sim\nname: bomb\n${aliasBomb}\n`);
    const error = thrown(() => loadDeviceProfile(file));
    expect(DeviceProfileError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain(`${file}:4:8: YAML aliases expand more than 100 times`);
  });
});
