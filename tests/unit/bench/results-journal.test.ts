import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readResultsJournal, ResultsJournal } from '../../../src/bench/results-journal.js';
import { runResult } from './run-result-builder.js';

describe('results journal', () => {
  let directory: string;
  let file: string;
  beforeEach(async () => {
    directory = await mkdtemp(path.join(tmpdir(), 'senseact-journal-'));
    file = path.join(directory, 'results.jsonl');
  });
  afterEach(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  it('reads a missing journal as empty', async () => {
    expect(await readResultsJournal(file)).toEqual({ results: [], skippedLines: 0, completeBytes: 0 });
  });

  it('writes one line per append and reads the results back in order', async () => {
    const journal = await ResultsJournal.open(file, 0);
    await Promise.all([journal.append(runResult({ id: 'a', mode: 'senseact' })), journal.append(runResult({ id: 'b', mode: 'senseact' }))]);
    await journal.close();
    const text = await readFile(file, 'utf8');
    expect(text.split('\n')).toHaveLength(3);
    const contents = await readResultsJournal(file);
    expect(contents.results.map((result) => result.id)).toEqual(['a', 'b']);
    expect(contents.completeBytes).toBe(Buffer.byteLength(text));
  });

  it('skips a torn last line and damaged lines, and cuts the torn tail before appending', async () => {
    const good = JSON.stringify(runResult({ id: 'a', mode: 'senseact' }));
    const wrongShape = JSON.stringify({ id: 'x' });
    const torn = good.slice(0, 40);
    await writeFile(file, `${good}\n${wrongShape}\n${torn}`);
    const contents = await readResultsJournal(file);
    expect(contents.results.map((result) => result.id)).toEqual(['a']);
    expect(contents.skippedLines).toBe(2);
    const journal = await ResultsJournal.open(file, contents.completeBytes);
    await journal.append(runResult({ id: 'b', mode: 'react-vlm' }));
    await journal.close();
    const after = await readResultsJournal(file);
    expect(after.results.map((result) => `${result.id}/${result.mode}`)).toEqual(['a/senseact', 'b/react-vlm']);
    expect(after.skippedLines).toBe(1);
    expect(await readFile(file, 'utf8')).not.toContain(torn + '{');
  });
});
