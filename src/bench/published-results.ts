import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import { BenchError } from './bench-error.js';

/**
 * A suite's own benchmark's published success rate (`tasks/<suite>/published-results.json`),
 * printed and recorded beside ours: overall and per difficulty, each with where it comes
 * from. A figure nobody has checked against its source is `null`, never a guess.
 */
export const publishedResultsSchema = z.strictObject({
  benchmark: z.string().min(1),
  /** The agent and model the figures are for, e.g. `M3A (GPT-4 Turbo)`. */
  agent: z.string().min(1),
  /** Where the figures come from (paper, table or page). */
  source: z.string().min(1),
  /** Success rate over all tasks, 0–1. */
  successRate: z.number().min(0).max(1).nullable(),
  /** Success rate per difficulty (easy, medium, hard), 0–1, or null where not transcribed. */
  byDifficulty: z.record(z.enum(['easy', 'medium', 'hard']), z.number().min(0).max(1).nullable()),
  note: z.string().optional(),
});
export type PublishedResults = z.infer<typeof publishedResultsSchema>;

/** The file name beside a suite's task files. */
export const publishedResultsFile = 'published-results.json';

/**
 * Reads `published-results.json` from a suite folder: undefined when there is none; throws
 * `BenchError` naming the file and the field when it does not parse.
 */
export function loadPublishedResults(suiteDir: string): PublishedResults | undefined {
  const file = path.join(suiteDir, publishedResultsFile);
  if (!existsSync(file)) return undefined;
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new BenchError({ code: 'bench-published-results', message: `${file}: not JSON (${error instanceof Error ? error.message : String(error)}); fix or remove it`, cause: error });
  }
  const parsed = publishedResultsSchema.safeParse(data);
  if (!parsed.success) {
    throw new BenchError({ code: 'bench-published-results', message: `${file}: ${parsed.error.issues.map((issue) => `${issue.path.join('.') || '(top)'}: ${issue.message}`).join('; ')}` });
  }
  return parsed.data;
}
