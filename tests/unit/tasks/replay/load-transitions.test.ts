import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadTransitions } from '../../../../src/tasks/replay/load-transitions.js';
import { ReplayLoadError } from '../../../../src/tasks/replay/replay-load-error.js';
import { transitionsFile } from '../../verify/transitions.js';

// A transitions file whose screens were saved by a Windows redirect (UTF-16 with a
// byte-order mark) or with a UTF-8 mark loads like the plain UTF-8 original.
describe('loadTransitions reads screens as bytes', () => {
  let folder: string;
  let record: { before: string; after: string };
  beforeAll(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'senseact-transitions-bom-'));
    const line = (await readFile(transitionsFile, 'utf8')).split('\n')[0]!;
    record = JSON.parse(line) as { before: string; after: string };
    await mkdir(path.join(folder, 'xml'));
    await writeFile(path.join(folder, 'transitions.jsonl'), `${line}\n`);
  });
  afterAll(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  async function writeScreens(encode: (text: string) => Buffer): Promise<void> {
    for (const file of [record.before, record.after]) {
      const text = await readFile(path.join(path.dirname(transitionsFile), file), 'utf8');
      await writeFile(path.join(folder, file), encode(text));
    }
  }

  it('UTF-16LE and UTF-8 with a byte-order mark give the same trees as the original', async () => {
    const original = (await loadTransitions(transitionsFile)).tasks[0]!.steps[0]!;
    for (const encode of [
      (text: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]),
      (text: string) => Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text, 'utf8')]),
    ]) {
      await writeScreens(encode);
      const step = (await loadTransitions(path.join(folder, 'transitions.jsonl'))).tasks[0]!.steps[0]!;
      expect(step.before.nodes).toEqual(original.before.nodes);
      expect(step.after.nodes).toEqual(original.after.nodes);
    }
  });

  it('negative control: a damaged screen is still a ReplayLoadError naming file and line', async () => {
    await writeScreens((text) => Buffer.from(text.slice(0, 40), 'utf8'));
    await expect(loadTransitions(path.join(folder, 'transitions.jsonl'))).rejects.toSatisfy((error) => error instanceof ReplayLoadError && /transitions\.jsonl.*1/.test((error as Error).message));
  });
});
