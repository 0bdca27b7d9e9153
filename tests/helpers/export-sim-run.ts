import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { simSeedDataForTask, simSeedForTask } from '../../src/bench/simulator-for-task.js';
import { outputBase, readExportSource, renderExport, wdioTarget, type ExportFormat, type ExportProgram, type ExportResult } from '../../src/export/index.js';
import type { Task } from '../../src/tasks/task-schema.js';

const repoRoot = path.resolve(import.meta.dirname, '..', '..');

/**
 * Exports one run folder of a simulator task as `senseact export --device sim` does:
 * capabilities of the simulator's Appium driver with the task's seed (repeat `repeat`),
 * seed data and start app. Writes the files under `outDir` as `<name>.*` and returns them.
 */
export function exportSimRun(dir: string, task: Task | undefined, format: ExportFormat, outDir: string, name: string, repeat = 0): { program: ExportProgram; result: ExportResult } {
  const program = readExportSource(dir);
  // The session starts where the run started: in the task's app, or on the launcher when the task launches none.
  const extra = task ? { 'senseact:seed': simSeedForTask(task, repeat), 'senseact:initialState': simSeedDataForTask(task), ...(task.start.launch === undefined ? {} : { 'appium:appPackage': task.start.launch }) } : { 'appium:appPackage': program.startPackage };
  const result = renderExport(program, format, outputBase(path.join(outDir, name)), wdioTarget('sim', extra, repoRoot));
  for (const file of result.files) writeFileSync(file.name, file.text);
  return { program, result };
}
