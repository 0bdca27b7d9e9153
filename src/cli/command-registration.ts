import type { Command } from 'commander';
import type { CliIo } from './cli-io.js';

/**
 * A CLI command: registers itself on the program. Its action returns the exit code
 * through `setExitCode` (commands never call process.exit).
 */
export type CommandRegistration = (program: Command, io: CliIo, setExitCode: (code: number) => void) => void;
