import { Command, CommanderError } from 'commander';
import { asPathKindError } from '../util/path-kind-error.js';
import { Redactor, secretsFromEnv } from '../util/redactor.js';
import { SenseActError } from '../util/senseact-error.js';
import { exitCodes, type CliIo } from './cli-io.js';
import { commandRegistrations } from './commands.js';

/**
 * Runs the `senseact` command line and resolves to the exit code. The only place that
 * prints to the terminal (through `io`).
 */
export async function main(argv: readonly string[], rawIo: CliIo = processIo()): Promise<number> {
  // What the terminal shows is redacted like every written file: secret-named variables, URL passwords, key patterns.
  const redactor = new Redactor(secretsFromEnv(rawIo.env));
  const io: CliIo = { ...rawIo, stdout: (text) => rawIo.stdout(redactor.text(text)), stderr: (text) => rawIo.stderr(redactor.text(text)) };
  let exitCode: number = exitCodes.ok;
  const program = new Command('senseact')
    .description('SenseAct: an Android GUI agent toolkit that verifies every action against the UI it observes.')
    .version('0.1.0')
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr })
    .showHelpAfterError();
  for (const register of commandRegistrations) register(program, io, (code) => { exitCode = code; });
  try {
    await program.parseAsync([...argv], { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) {
      return error.exitCode === 0 ? exitCodes.ok : exitCodes.badInput;
    }
    // A folder given for a file (or the reverse) anywhere the command reads or writes is bad input, not a crash.
    const named = asPathKindError(error, undefined, 'path');
    if (SenseActError.isInstance(named)) {
      io.stderr(`senseact: ${named.message}\n`);
      return exitCode === exitCodes.ok ? exitCodes.badInput : exitCode;
    }
    throw error;
  }
  return exitCode;
}

function processIo(): CliIo {
  // A reader that stops early (`senseact inspect <dir> | head`) closes the pipe: stop
  // quietly with success, as Unix tools do, instead of dying on an unhandled EPIPE.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(exitCodes.ok);
    throw error;
  });
  return {
    stdout: (text) => { process.stdout.write(text); },
    stderr: (text) => { process.stderr.write(text); },
    cwd: process.cwd(),
    env: process.env,
  };
}
