import { Simulator, simApps, type FaultConfig, type FaultProfileName, type SimSeedData } from '../sim/index.js';
import type { Task } from '../tasks/task-schema.js';
import { BenchError } from './bench-error.js';

/**
 * A fresh simulator in a task's start state: its seed, its per-app seed data (keyed by
 * package in the task, by app key in the simulator) and its start app, with the run's
 * faults. Throws when the task names an app the simulator does not have.
 */
export function simulatorForTask(task: Task, options: { readonly faults?: FaultConfig | FaultProfileName; readonly seed?: number } = {}): Simulator {
  const state: Record<string, unknown> = {};
  for (const [packageName, data] of Object.entries(task.start.state ?? {})) {
    const entry = simApps.find((candidate) => candidate.app.packageName === packageName);
    if (!entry) {
      throw new BenchError({ code: 'task-start', message: `task "${task.id}": start.state names ${packageName}, which the simulator does not have (it has ${simApps.map((candidate) => candidate.app.packageName).join(', ')}).` });
    }
    state[entry.key] = data;
  }
  return new Simulator({
    seed: options.seed ?? task.start.seed ?? 1,
    initialState: state as Partial<SimSeedData>,
    ...(task.start.launch ? { startPackage: task.start.launch } : {}),
    ...(options.faults === undefined ? {} : { faults: options.faults }),
  });
}
