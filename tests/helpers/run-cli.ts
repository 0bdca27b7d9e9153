import type { CliIo } from '../../src/cli/cli-io.js';
import { main } from '../../src/cli/main.js';

/** What one in-process run of the CLI gave: its exit code and what it printed. */
export interface CliRun {
  readonly code: number;
  readonly out: string;
  readonly err: string;
}

/** Runs `senseact <args>` in this process with `cwd` as its folder and an empty environment, collecting its output. */
export async function runCli(cwd: string, args: readonly string[]): Promise<CliRun> {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const io: CliIo = { stdout: (text) => { stdout.push(text); }, stderr: (text) => { stderr.push(text); }, cwd, env: {} };
  const code = await main([...args], io);
  return { code, out: stdout.join(''), err: stderr.join('') };
}
