import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { simSeedDataForTask, simSeedForTask } from '../../bench/simulator-for-task.js';
import { exportFormats, outputBase, readExportSource, renderExport, summariseCoverage, wdioTarget, ExportError, type ExportFormat, type ExportProgram } from '../../export/index.js';
import { loadSuite } from '../../tasks/load-task-file.js';
import { readTrace } from '../../trace/read-trace.js';
import { exitCodes, type CliIo } from '../cli-io.js';
import type { CommandRegistration } from '../command-registration.js';
import { tasksRootFor } from '../tasks-root.js';

interface ExportOptions {
  readonly to: string;
  readonly out?: string;
  readonly device?: string;
}

/** The device profile a run used (its run-start config), or undefined for a skill or an older trace. */
function runDevice(source: string): { device?: string; repeat: number } {
  if (!statSync(source).isDirectory()) return { repeat: 0 };
  const start = readTrace(source).events.find((event) => event.type === 'run-start');
  const config = start?.type === 'run-start' ? start.config : undefined;
  const device = typeof config?.['device'] === 'string' ? config['device'] : undefined;
  const repeat = Number(/-r(\d+)$/.exec(start?.type === 'run-start' ? start.runId : '')?.[1] ?? 0);
  return { ...(device === undefined ? {} : { device }), repeat };
}

/** Capabilities a simulator session needs to start where the run started: the task's seed, seed data and app. */
async function simStart(program: ExportProgram, repeat: number, io: CliIo): Promise<Record<string, unknown>> {
  if (program.source !== 'run') return { 'appium:appPackage': program.app };
  // The session starts where the run started: in the task's app, or on the launcher when the task launches none.
  const suite = await loadSuite('sim', { tasksRoot: tasksRootFor(io.cwd, 'sim') });
  const task = suite.tasks.find((candidate) => candidate.id === program.name);
  if (!task) return { 'appium:appPackage': program.startPackage };
  return { 'senseact:seed': simSeedForTask(task, repeat), 'senseact:initialState': simSeedDataForTask(task), ...(task.start.launch === undefined ? {} : { 'appium:appPackage': task.start.launch }) };
}

async function runExport(source: string, options: ExportOptions, io: CliIo): Promise<number> {
  if (!(exportFormats as readonly string[]).includes(options.to)) {
    io.stderr(`senseact export: --to ${options.to} is not a format; use ${exportFormats.join(' or ')}\n`);
    return exitCodes.badInput;
  }
  const format = options.to as ExportFormat;
  const resolved = path.resolve(io.cwd, source);
  const program = readExportSource(resolved);
  const recorded = runDevice(resolved);
  const device = options.device ?? recorded.device ?? 'sim-appium';
  const probe = wdioTarget(device, {}, io.cwd);
  const simulated = probe.capabilities['appium:automationName'] === 'SenseActSim';
  const extra = simulated ? await simStart(program, recorded.repeat, io) : probe.capabilities['appium:appPackage'] === undefined ? { 'appium:appPackage': program.startPackage } : {};
  const target = wdioTarget(device, extra, io.cwd);
  const base = options.out === undefined ? program.name : outputBase(path.resolve(io.cwd, options.out));
  const result = renderExport(program, format, base, target);
  if (options.out === undefined) {
    for (const file of result.files) io.stdout(`${format === 'wdio' ? '//' : '#'} ----- ${path.basename(file.name)}\n${file.text}`);
  } else {
    for (const file of result.files) {
      mkdirSync(path.dirname(file.name), { recursive: true });
      writeFileSync(file.name, file.text);
    }
  }
  const where = options.out === undefined ? 'stdout' : result.files.map((file) => path.relative(io.cwd, file.name) || file.name).join(', ');
  io.stderr(`${program.source} ${program.name} -> ${format}: ${summariseCoverage(result.steps)} (${where})\n`);
  for (const step of result.steps) for (const why of step.comments) io.stderr(`  "${step.intent}": ${why}\n`);
  return exitCodes.ok;
}

/**
 * `senseact export <run folder | skill file> --to wdio|maestro [--out <file>]`: a verified
 * run or a skill as an ordinary test — a WebdriverIO spec (with its wdio.conf.ts) or a
 * Maestro flow — whose assertions are the verified expectations. Prints how many steps
 * exported fully; what cannot be expressed is a comment in the output.
 */
export const exportCommand: CommandRegistration = (program, io, setExitCode) => {
  program
    .command('export')
    .description('Export a verified run or a skill as a WebdriverIO spec (+ wdio.conf.ts) or a Maestro flow whose assertions are the verified expectations; prints how many steps exported fully.')
    .argument('<source>', 'a run folder (traces/<task>/<mode>-r<k> under a bench --out) or a skill file (*.yaml)')
    .requiredOption('--to <format>', 'wdio or maestro')
    .option('--out <file>', 'output file (wdio: x.spec.ts, with x.wdio.conf.ts beside it; maestro: x.yaml); default: stdout')
    .option('--device <profile>', 'device profile for the capabilities (default: the one the run used; sim-appium for a skill)')
    .action(async (source: string, options: ExportOptions) => {
      try {
        setExitCode(await runExport(source, options, io));
      } catch (error) {
        if (!ExportError.isInstance(error)) throw error;
        io.stderr(`senseact export: ${error.message}\n`);
        setExitCode(exitCodes.badInput);
      }
    });
};
