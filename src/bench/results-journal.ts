import { open, readFile, truncate } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { taskRunResultSchema, type TaskRunResult } from '../agent/task-run-result.js';
import { debugLog } from '../util/debug-log.js';
import { asPathKindError } from '../util/path-kind-error.js';

/** What was recovered from a journal file. */
export interface JournalContents {
  /** Valid results in file order (a key may repeat; the last entry wins). */
  readonly results: TaskRunResult[];
  /** Lines that were not valid JSON results: a torn last line, or damage. */
  readonly skippedLines: number;
  /** Byte length of the prefix that ends with the last complete line. */
  readonly completeBytes: number;
}

/**
 * Reads a results journal (one `TaskRunResult` JSON per line). Torn or invalid lines are
 * skipped and counted, never fatal: the journal is written by processes that may be
 * killed mid-line. A missing file reads as empty.
 */
export async function readResultsJournal(file: string): Promise<JournalContents> {
  let buffer: Buffer;
  try {
    buffer = await readFile(file);
  } catch (error) {
    if (isMissingFile(error)) return { results: [], skippedLines: 0, completeBytes: 0 };
    throw asPathKindError(error, file, 'results journal');
  }
  const completeBytes = buffer.lastIndexOf(0x0a) + 1;
  const text = buffer.toString('utf8');
  const results: TaskRunResult[] = [];
  let skippedLines = 0;
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const parsed = parseLine(line);
    if (parsed === undefined) {
      skippedLines++;
      debugLog('bench', 'journal line skipped', { file, excerpt: line.slice(0, 80) });
    } else {
      results.push(parsed);
    }
  }
  return { results, skippedLines, completeBytes };
}

function parseLine(line: string): TaskRunResult | undefined {
  let json: unknown;
  try {
    json = JSON.parse(line);
  } catch {
    return undefined;
  }
  const parsed = taskRunResultSchema.safeParse(json);
  return parsed.success ? parsed.data : undefined;
}

/**
 * An append-only JSONL journal of finished runs. Each `append` writes one line and
 * flushes it to disk before resolving, so a result that was reported is never lost.
 * Appends are serialized.
 */
export class ResultsJournal {
  private queue: Promise<void> = Promise.resolve();

  private constructor(private readonly handle: FileHandle, readonly file: string) {}

  /**
   * Opens `file` for appending. When the file ends in a torn line (a process was killed
   * mid-append), the torn bytes are cut first so the next line starts clean;
   * `completeBytes` comes from `readResultsJournal`.
   */
  static async open(file: string, completeBytes: number): Promise<ResultsJournal> {
    await truncateTornTail(file, completeBytes);
    return new ResultsJournal(await open(file, 'a'), file);
  }

  /** Appends one result and resolves once it is on disk. */
  append(result: TaskRunResult): Promise<void> {
    const line = `${JSON.stringify(result)}\n`;
    const next = this.queue.then(async () => {
      await this.handle.appendFile(line, 'utf8');
      await this.handle.sync();
    });
    // Keep the chain alive after a failure; the caller still sees this append's error.
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** Waits for pending appends, then closes the file. */
  async close(): Promise<void> {
    await this.queue;
    await this.handle.close();
  }
}

async function truncateTornTail(file: string, completeBytes: number): Promise<void> {
  let size: number;
  try {
    const handle = await open(file, 'r');
    try {
      size = (await handle.stat()).size;
    } finally {
      await handle.close();
    }
  } catch (error) {
    if (isMissingFile(error)) return;
    throw error;
  }
  if (size > completeBytes) {
    debugLog('bench', 'cutting torn journal tail', { file, bytes: size - completeBytes });
    await truncate(file, completeBytes);
  }
}

function isMissingFile(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && (error as { code: unknown }).code === 'ENOENT';
}
