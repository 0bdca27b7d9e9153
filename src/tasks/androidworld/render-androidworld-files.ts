import { stringify } from 'yaml';
import type { TaskInput } from '../task-schema.js';
import type { AndroidWorldSuites } from './generate-androidworld-tasks.js';

/** Written at the top of every generated file. */
function header(what: string, seed: number): string {
  return [
    '# yaml-language-server: $schema=../../schemas/task-file.schema.json',
    `# ${what}`,
    '# From AndroidWorld (google-research/android_world, Apache-2.0: tasks/androidworld/LICENSE): the templates,',
    '# difficulties and optimal steps of task_metadata.json; parameters drawn by our seeded generator.',
    `# Generated (seed ${seed}) by: npx tsx scripts/generate-androidworld-tasks.ts — edit the generator, not this file.`,
    '',
  ].join('\n');
}

function render(tasks: readonly TaskInput[]): string {
  return stringify({ tasks }, { lineWidth: 0 });
}

/**
 * The files of the generated suites, by path relative to the repo root: the device tasks
 * in `tasks/androidworld/<app>.yaml` (grouped by the AndroidWorld app, the second tag),
 * the twins in `tasks/sim-androidworld/androidworld-twins.yaml`.
 */
export function renderAndroidWorldFiles(suites: AndroidWorldSuites, seed: number): Map<string, string> {
  const files = new Map<string, string>();
  const byApp = new Map<string, TaskInput[]>();
  for (const task of suites.tasks) {
    const app = task.tags?.[1] ?? 'other';
    byApp.set(app, [...(byApp.get(app) ?? []), task]);
  }
  for (const [app, tasks] of [...byApp].sort(([left], [right]) => left.localeCompare(right))) {
    files.set(`tasks/androidworld/${app}.yaml`, header(`AndroidWorld's ${app} templates as tasks on a real emulator (docs/androidworld.md).`, seed) + render(tasks));
  }
  files.set('tasks/sim-androidworld/androidworld-twins.yaml', header('Simulator twins of AndroidWorld templates whose app the simulator has (docs/androidworld.md).', seed) + render(suites.twins));
  return files;
}
