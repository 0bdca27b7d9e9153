import { Simulator, simApps, type FaultConfig, type FaultProfileName, type SimSeedData, type SimulatorOptions } from '../sim/index.js';
import type { Task } from '../tasks/task-schema.js';
import { stableHash } from '../util/stable-hash.js';
import { BenchError } from './bench-error.js';

/** A device profile's `sim:` section (devices/sim.yaml), as far as a task run uses it. */
export interface SimProfileSection {
  /** Mixed into every task's seed (a task's own `start.seed` wins). */
  readonly seed?: number | undefined;
  /** Faults when the bench is given none. */
  readonly faults?: string | Record<string, unknown> | undefined;
  /** The start app of a task that names none. */
  readonly startPackage?: string | undefined;
  readonly apps?: readonly string[] | undefined;
  readonly screen?: SimulatorOptions['screen'];
  /** Seed data by app key; a task's `start.state` replaces an app's. */
  readonly initialState?: Record<string, unknown> | undefined;
}

/**
 * A fresh simulator in a task's start state: its seed, its per-app seed data (keyed by
 * package in the task, by app key in the simulator) and its start app, with the run's
 * faults, over the device profile's `sim:` section (installed apps, screen, seed data,
 * start app and faults where the task and the bench say nothing). Throws when the task
 * names an app the simulator does not have.
 */
export function simulatorForTask(task: Task, options: { readonly faults?: FaultConfig | FaultProfileName; readonly seed?: number; readonly repeat?: number; readonly profile?: SimProfileSection } = {}): Simulator {
  const profile = options.profile ?? {};
  const faults = options.faults ?? (profile.faults as FaultConfig | FaultProfileName | undefined);
  const startPackage = task.start.launch ?? profile.startPackage;
  return new Simulator({
    seed: options.seed ?? simSeedForTask(task, options.repeat ?? 0, profile.seed),
    initialState: { ...profile.initialState, ...simSeedDataForTask(task) } as SimulatorOptions['initialState'],
    ...(startPackage === undefined ? {} : { startPackage }),
    ...(faults === undefined ? {} : { faults }),
    ...(profile.apps === undefined ? {} : { apps: profile.apps }),
    ...(profile.screen === undefined ? {} : { screen: profile.screen }),
  });
}

/**
 * The simulator seed of a task run: the task's own, else one per task and repeat — one
 * shared seed would give every task the same first draws, so rare faults would never fire.
 * A profile's `baseSeed` is mixed in, so changing it draws other faults for every task.
 */
export function simSeedForTask(task: Task, repeat: number, baseSeed?: number): number {
  return task.start.seed ?? stableHash(baseSeed === undefined ? `${task.id}#${repeat}` : `${task.id}#${repeat}#${baseSeed}`);
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
