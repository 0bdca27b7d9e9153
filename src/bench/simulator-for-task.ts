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
  const state: Record<string, unknown> = {};
  for (const [packageName, data] of Object.entries(task.start.state ?? {})) {
    const entry = simApps.find((candidate) => candidate.app.packageName === packageName);
    if (!entry) {
      throw new BenchError({ code: 'task-start', message: `task "${task.id}": start.state names ${packageName}, which the simulator does not have (it has ${simApps.map((candidate) => candidate.app.packageName).join(', ')}).` });
    }
    state[entry.key] = data;
  }
  return new Simulator({
    // Without a seed of its own, each task (and repeat) draws its own faults: one shared
    // seed would give every task the same first draws, so rare faults would never fire.
    seed: options.seed ?? task.start.seed ?? stableHash(`${task.id}#${options.repeat ?? 0}`),
    initialState: state as Partial<SimSeedData>,
    ...(task.start.launch ? { startPackage: task.start.launch } : {}),
    ...(options.faults === undefined ? {} : { faults: options.faults }),
  });
}
