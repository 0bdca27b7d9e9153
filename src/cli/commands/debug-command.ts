import { existsSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { createInterface } from 'node:readline';
import { agentModeSchema, policyNameSchema } from '../../agent/task-run-result.js';
import { BenchError } from '../../bench/bench-error.js';
import { createBenchExecutor } from '../../bench/compose.js';
import { loadSuite } from '../../tasks/load-task-file.js';
import { formatTraceHeader, formatTraceStep } from '../../report/format-trace-step.js';
import { readRunArtifacts } from '../../report/read-run-artifacts.js';
import { buildStepModels } from '../../report/run-page-model.js';
import { screenCache } from '../../report/write-report.js';
import { modelFaultProfiles } from '../../agent/model-faults/model-fault-profile.js';
import { faultProfiles } from '../../sim/fault-injector.js';
import { validateBenchPlan } from '../../bench/validate-bench-plan.js';
import { parseGateThreshold, parseTemperature } from './bench-command.js';
import { exitCodes, type CliIo } from '../cli-io.js';
import type { CommandRegistration } from '../command-registration.js';
import { tasksRootFor } from '../tasks-root.js';
import { closedTracePath, findTraceFile } from '../../trace/read-trace.js';

/** Where a bench puts one run's folder, as the help and errors name it. */
const benchRunLayout = 'runs/bench-<suite>-<time>/traces/<task>/<mode>-r<repeat>';

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
      .description(`Step through one run: what the agent saw, committed, expected and got. Give a run folder (a bench writes ${benchRunLayout}; debug --device writes runs/debug-<task>-<time>/traces/<task>/<mode>-r0) or its trace.jsonl; or, with --device, a task id to run first.`)
      .argument('<run-dir-or-trace>', 'a run folder holding trace.jsonl, or the trace.jsonl file; with --device, a task id to run first')
      .option('--step <n>', 'show only step n (0-based)')
      .option('--device <profile>', 'run the task <run-dir-or-trace> names on this device profile, then step through its trace')
      .option('--suite <suite>', 'with --device: the suite holding the task', 'sim')
      .option('--mode <mode>', `with --device: the agent mode (${agentModeSchema.options.join(', ')})`, 'senseact')
      .option('--faults <profile>', 'with --device: faults to inject (simulator only)')
      .option('--model-faults <profile>', `with --device: model errors to inject into the oracle's replies (${Object.keys(modelFaultProfiles).join(', ')}); each shows in its step as a model-fault-injected event`)
      .option('--policy <policy>', 'with --device: llm, oracle or auto (the oracle on the simulator; on a real device llm when a model is configured)', 'auto')
      .option('--gate-threshold <n>', 'with --device: consecutive failures on the same target that open the VLM gate (τ, a whole number ≥ 1)')
      .option('--temperature <t>', 'with --device: sampling temperature of every model role, 0 to 2')
      .action(async (target: string, options: RunOneOptions & { step?: string; device?: string }) => {
        if (options.device !== undefined) target = await runOneTask(target, { ...options, device: options.device }, io);
        const resolved = closedTracePath(path.resolve(io.cwd, target));
        if (!existsSync(resolved)) throw new BenchError({ code: 'debug-no-trace', message: `debug: ${resolved} does not exist; pass a run folder (${benchRunLayout}) or its trace.jsonl` });
        const folder = statSync(resolved).isDirectory() ? resolved : path.dirname(resolved);
        if (findTraceFile(folder) === undefined) {
          const hint = existsSync(path.join(folder, 'results.json')) ? ' (this is a bench output dir: pick one run under its traces/ folder, or run senseact report on it)' : '';
          throw new BenchError({ code: 'debug-no-trace', message: `debug: no trace.jsonl in ${folder}${hint}` });
        }
        // The replay prints no model call, and reads nothing that a link inside the run
        // folder points at elsewhere (a run folder may come from someone else's machine).
        const artifacts = await readRunArtifacts(folder, { modelCalls: false, within: folder });
        let steps = artifacts.steps;
        if (options.step !== undefined) {
          if (!/^\d+$/.test(options.step)) throw new BenchError({ code: 'debug-option', message: `--step: expected a step number ≥ 0, got "${options.step}"` });
          const wanted = Number(options.step);
          steps = steps.filter((step) => step.step === wanted);
          if (steps.length === 0) throw new BenchError({ code: 'debug-option', message: `--step: the run has no step ${wanted}; its steps are ${artifacts.steps.map((step) => step.step).join(', ') || '(none)'}` });
        }
        const waitForEnter = dependencies.waitForEnter === undefined ? terminalWait() : dependencies.waitForEnter;
        // The report's model of each step: the actions and the change in words, the expectation atom by atom.
        const models = new Map(buildStepModels(artifacts, screenCache().source).map((model) => [model.step, model]));
        io.stdout(formatTraceHeader(artifacts));
        for (const [index, step] of steps.entries()) {
          io.stdout(`\n${formatTraceStep(artifacts, step, models.get(step.step))}`);
          if (waitForEnter !== null && index < steps.length - 1) {
            io.stdout('[Enter: next step]');
            await waitForEnter();
          }
        }
        setExitCode(exitCodes.ok);
      });
  };
}

/** Runs one task of a suite on a device through the composition root; returns its trace folder. */
interface RunOneOptions {
  readonly suite: string;
  readonly mode: string;
  readonly faults?: string;
  readonly modelFaults?: string;
  readonly policy: string;
  readonly gateThreshold?: string;
  readonly temperature?: string;
}

async function runOneTask(taskId: string, options: RunOneOptions & { device: string }, io: CliIo): Promise<string> {
  const mode = agentModeSchema.safeParse(options.mode);
  if (!mode.success) throw new BenchError({ code: 'debug-option', message: `--mode: unknown mode "${options.mode}"; choose from ${agentModeSchema.options.join(', ')}` });
  const policy = options.policy === 'auto' ? 'auto' : policyNameSchema.safeParse(options.policy).data;
  if (policy === undefined) throw new BenchError({ code: 'debug-option', message: `--policy: unknown policy "${options.policy}"; choose llm, oracle or auto` });
  if (options.faults !== undefined && !Object.hasOwn(faultProfiles, options.faults)) {
    throw new BenchError({ code: 'debug-option', message: `--faults: unknown fault profile "${options.faults}"; choose from ${Object.keys(faultProfiles).join(', ')}` });
  }
  if (options.modelFaults !== undefined && !Object.hasOwn(modelFaultProfiles, options.modelFaults)) {
    throw new BenchError({ code: 'debug-option', message: `--model-faults: unknown model fault profile "${options.modelFaults}"; choose from ${Object.keys(modelFaultProfiles).join(', ')}` });
  }
  const gateThreshold = options.gateThreshold === undefined ? undefined : parseGateThreshold(options.gateThreshold);
  const temperature = options.temperature === undefined ? undefined : parseTemperature(options.temperature);
  const suite = await loadSuite(options.suite, { tasksRoot: tasksRootFor(io.cwd, options.suite) });
  const task = suite.tasks.find((candidate) => candidate.id === taskId);
  if (!task) throw new BenchError({ code: 'debug-no-task', message: `debug: suite "${suite.name}" has no task "${taskId}" (pass a run folder to replay, or a task id of --suite with --device)` });
  const outDir = path.resolve(io.cwd, 'runs', `debug-${taskId}-${new Date().toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z')}`);
  const controller = new AbortController();
  const handle = await createBenchExecutor({ suite: options.suite, device: options.device, faults: options.faults, ...(options.modelFaults === undefined ? {} : { modelFaults: options.modelFaults }), policy, outDir, cwd: io.cwd, env: io.env, signal: controller.signal, ...(gateThreshold === undefined ? {} : { gateThreshold }), ...(temperature === undefined ? {} : { temperature }) });
  try {
    validateBenchPlan({ suite: suite.name, tasks: [task], modes: [mode.data], ...(handle.checkTask ? { checkTask: handle.checkTask } : {}) });
    io.stderr(`${handle.notice}\n`);
    const result = await handle.executor({ task, mode: mode.data, repeat: 0, outDir, traceDir: path.join(outDir, 'traces', taskId, `${mode.data}-r0`), signal: controller.signal });
    // The reason is the header's result line, just below: said once.
    io.stderr(`${task.id} (${mode.data}): ${result.success ? 'success' : 'failure'}${result.error ? ` [error: ${result.error}]` : ''}; its steps follow\n`);
    return path.resolve(outDir, result.traceDir);
  } finally {
    await handle.close();
  }
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
