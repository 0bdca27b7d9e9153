import { Command, CommanderError } from 'commander';
import type { CliIo } from '../../src/cli/cli-io.js';
import { createBenchCommand, type BenchCommandDependencies } from '../../src/cli/commands/bench-command.js';
import { SenseActError } from '../../src/util/senseact-error.js';

/** What one `senseact bench …` invocation printed and how it exited. */
export interface BenchInvocation {
  readonly exitCode: number;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs `senseact bench <args>` in-process with these dependencies, as the CLI's `main`
 * would: a usage error exits 2 with commander's message, a SenseAct error exits 2 with
 * `senseact: <message>` on stderr, anything else throws.
 */
export async function runBenchCli(args: readonly string[], cwd: string, dependencies: BenchCommandDependencies): Promise<BenchInvocation> {
  let stdout = '';
  let stderr = '';
  let exitCode = 0;
  const io: CliIo = { stdout: (text) => { stdout += text; }, stderr: (text) => { stderr += text; }, cwd, env: {} };
  const program = new Command('senseact').exitOverride().configureOutput({ writeOut: io.stdout, writeErr: io.stderr });
  createBenchCommand(dependencies)(program, io, (code) => { exitCode = code; });
  try {
    await program.parseAsync(['bench', ...args], { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) return { exitCode: 2, stdout, stderr };
    if (SenseActError.isInstance(error)) return { exitCode: 2, stdout, stderr: `${stderr}senseact: ${error.message}\n` };
    throw error;
  }
  return { exitCode, stdout, stderr };
}
