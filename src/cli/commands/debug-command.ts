import { existsSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { createInterface } from 'node:readline';
import { BenchError } from '../../bench/bench-error.js';
import { formatTraceHeader, formatTraceStep } from '../../report/format-trace-step.js';
import { readRunArtifacts } from '../../report/read-run-artifacts.js';
import { exitCodes } from '../cli-io.js';
import type { CommandRegistration } from '../command-registration.js';

/** What `senseact debug` needs from the terminal; tests pass their own. */
export interface DebugCommandDependencies {
  /**
   * Resolves when the user presses Enter; null to print every step at once. Default:
   * waits on stdin when both stdin and stdout are terminals.
   */
  readonly waitForEnter?: (() => Promise<void>) | null;
}

/**
 * `senseact debug <run-dir-or-trace> [--step n]`: replays a recorded run from its trace,
 * step by step: what the agent saw, planned and expected, committed and did, and got.
 * With a terminal it waits for Enter between steps; otherwise it prints them all.
 */
export function createDebugCommand(dependencies: DebugCommandDependencies = {}): CommandRegistration {
  return (program, io, setExitCode) => {
    program
      .command('debug')
      .description('Replay a recorded run step by step from its trace folder (runs/<suite>/<task>/<run-id>) or trace.jsonl.')
      .argument('<run-dir-or-trace>', 'a run folder holding trace.jsonl, or the trace.jsonl file')
      .option('--step <n>', 'show only step n (0-based)')
      .action(async (target: string, options: { step?: string }) => {
        const resolved = path.resolve(io.cwd, target);
        if (!existsSync(resolved)) throw new BenchError({ code: 'debug-no-trace', message: `debug: ${resolved} does not exist; pass a run folder (runs/<suite>/<task>/<run-id>) or its trace.jsonl` });
        const folder = statSync(resolved).isDirectory() ? resolved : path.dirname(resolved);
        if (!existsSync(path.join(folder, 'trace.jsonl'))) {
          const hint = existsSync(path.join(folder, 'results.json')) ? ' (this is a bench output dir: pick one run under its traces/ folder, or run senseact report on it)' : '';
          throw new BenchError({ code: 'debug-no-trace', message: `debug: no trace.jsonl in ${folder}${hint}` });
        }
        const artifacts = await readRunArtifacts(folder);
        let steps = artifacts.steps;
        if (options.step !== undefined) {
          if (!/^\d+$/.test(options.step)) throw new BenchError({ code: 'debug-option', message: `--step: expected a step number ≥ 0, got "${options.step}"` });
          const wanted = Number(options.step);
          steps = steps.filter((step) => step.step === wanted);
          if (steps.length === 0) throw new BenchError({ code: 'debug-option', message: `--step: the run has no step ${wanted}; its steps are ${artifacts.steps.map((step) => step.step).join(', ') || '(none)'}` });
        }
        const waitForEnter = dependencies.waitForEnter === undefined ? terminalWait() : dependencies.waitForEnter;
        io.stdout(formatTraceHeader(artifacts));
        for (const [index, step] of steps.entries()) {
          io.stdout(`\n${formatTraceStep(artifacts, step)}`);
          if (waitForEnter !== null && index < steps.length - 1) {
            io.stdout('[Enter: next step]');
            await waitForEnter();
          }
        }
        setExitCode(exitCodes.ok);
      });
  };
}

/** The default `debug` command, reading Enter from the process's terminal. */
export const debugCommand: CommandRegistration = createDebugCommand();

function terminalWait(): (() => Promise<void>) | null {
  if (process.stdin.isTTY !== true || process.stdout.isTTY !== true) return null;
  return () => new Promise<void>((resolve) => {
    const reader = createInterface({ input: process.stdin });
    reader.once('line', () => {
      reader.close();
      resolve();
    });
  });
}
