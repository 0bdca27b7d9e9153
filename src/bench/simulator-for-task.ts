import { Simulator, simApps, type FaultConfig, type FaultProfileName, type SimSeedData } from '../sim/index.js';
import type { Task } from '../tasks/task-schema.js';
import { stableHash } from '../util/stable-hash.js';
import { BenchError } from './bench-error.js';

/**
 * A fresh simulator in a task's start state: its seed, its per-app seed data (keyed by
 * package in the task, by app key in the simulator) and its start app, with the run's
 * faults. Throws when the task names an app the simulator does not have.
 */
export function simulatorForTask(task: Task, options: { readonly faults?: FaultConfig | FaultProfileName; readonly seed?: number; readonly repeat?: number } = {}): Simulator {
  return new Simulator({
    seed: options.seed ?? simSeedForTask(task, options.repeat ?? 0),
    initialState: simSeedDataForTask(task),
    ...(task.start.launch ? { startPackage: task.start.launch } : {}),
    ...(options.faults === undefined ? {} : { faults: options.faults }),
  });
}

/**
 * The simulator seed of a task run: the task's own, else one per task and repeat — one
 * shared seed would give every task the same first draws, so rare faults would never fire.
 */
export function simSeedForTask(task: Task, repeat: number): number {
  return task.start.seed ?? stableHash(`${task.id}#${repeat}`);
}

/** A task's `start.state` (keyed by package) as the simulator's seed data (keyed by app). */
export function simSeedDataForTask(task: Task): Partial<SimSeedData> {
  const state: Record<string, unknown> = {};
  for (const [packageName, data] of Object.entries(task.start.state ?? {})) {
    const entry = simApps.find((candidate) => candidate.app.packageName === packageName);
    if (!entry) {
      throw new BenchError({ code: 'task-start', message: `task "${task.id}": start.state names ${packageName}, which the simulator does not have (it has ${simApps.map((candidate) => candidate.app.packageName).join(', ')}).` });
    }
    state[entry.key] = data;
  }
  return state as Partial<SimSeedData>;
}
