import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeFileAtomic } from '../../../src/bench/write-file-atomic.js';

describe('writeFileAtomic', () => {
  let directory: string;
  beforeEach(async () => {
    directory = await mkdtemp(path.join(tmpdir(), 'senseact-atomic-'));
  });
  afterEach(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  it('replaces the file and leaves no temporary file behind, also when writes overlap', async () => {
    const file = path.join(directory, 'results.json');
    await writeFile(file, 'old');
    await Promise.all(Array.from({ length: 8 }, (_, index) => writeFileAtomic(file, `version ${index}`)));
    expect(await readFile(file, 'utf8')).toMatch(/^version [0-7]$/);
    expect(await readdir(directory)).toEqual(['results.json']);
  });

  it('keeps the old content and cleans up when the write cannot complete', async () => {
    const file = path.join(directory, 'results.json');
    await writeFile(file, 'old');
    // A directory where the file should be: the rename fails after the temporary file is written.
    const blocked = path.join(directory, 'blocked');
    await mkdir(path.join(blocked, 'inner'), { recursive: true });
    await expect(writeFileAtomic(blocked, 'new')).rejects.toThrow();
    expect(await readdir(directory)).toEqual(['blocked', 'results.json']);
    expect(await readFile(file, 'utf8')).toBe('old');
  });
});
