import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ControlUnit } from '../../../src/perception/control-unit.js';
import { perceive } from '../../../src/perception/perceive.js';
import { mapDroidTaskTarget } from '../../../src/tasks/droidtask/map-droidtask-target.js';
import { loadTransitions } from '../../../src/tasks/replay/load-transitions.js';
import type { ReplaySource, ReplayStep } from '../../../src/tasks/replay/replay-task.js';
import type { UiTree } from '../../../src/ui/ui-tree.js';

// The real transitions of tests/fixtures/transitions (61 steps from 10 MIT-licensed
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

/** The unit the recorded element stands for (the replay's mapping). */
export function actedUnit(step: ReplayStep, tree: UiTree = step.before): ControlUnit {
  const element = step.action.kind === 'key' ? undefined : step.action.element;
  if (!element) throw new Error(`${step.id} names no element`);
  const perception = perceive(tree);
  const [left, top, right, bottom] = element.bounds;
  const match = mapDroidTaskTarget(perception, { bounds: [[left, top], [right, bottom]], class: element.className, resource_id: element.resourceId, text: element.text, content_description: element.contentDesc });
  const unit = perception.units.find((candidate) => candidate.id === match.unitIds[0]);
  if (!unit) throw new Error(`no unit for the element of ${step.id}: ${match.reason}`);
  return unit;
}
