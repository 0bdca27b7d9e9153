import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadTransitions } from '../../../src/tasks/replay/load-transitions.js';
import type { ReplaySource, ReplayStep } from '../../../src/tasks/replay/replay-task.js';

// The real transitions of tests/fixtures/transitions (58 steps from 10 MIT-licensed
// repositories, each with its licence there): before screen, action, after screen.

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const transitionsFile = path.join(repoRoot, 'tests/fixtures/transitions/transitions.jsonl');

let loaded: Promise<ReplaySource> | undefined;

/** The fixture transitions, loaded once per test file. */
export function fixtureTransitions(): Promise<ReplaySource> {
  loaded ??= loadTransitions(transitionsFile);
  return loaded;
}

/** One fixture transition by id. */
export async function transition(id: string): Promise<ReplayStep> {
  const source = await fixtureTransitions();
  const step = source.tasks.flatMap((task) => task.steps).find((candidate) => candidate.id === id);
  if (!step) throw new Error(`transition ${id} is not in ${transitionsFile}`);
  return step;
}

/** The XML text of a fixture screen (a step's `beforeFile` / `afterFile`), to edit it the way an action would. */
export function screenXml(file: string): string {
  return readFileSync(path.join(path.dirname(transitionsFile), file), 'utf8');
}
