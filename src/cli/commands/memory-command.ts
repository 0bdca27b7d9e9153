import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { AppMemory, renderAppMemory } from '../../memory/app-memory.js';
import { AppMemoryError } from '../../memory/app-memory-error.js';
import { estimateTokens } from '../../model/estimate-tokens.js';
import { exitCodes } from '../cli-io.js';
import type { CommandRegistration } from '../command-registration.js';

/** Opens the app memory in `dir` without creating it: a missing folder is a mistake to name, not an empty memory. */
async function openExisting(dir: string): Promise<AppMemory> {
  if (!existsSync(dir)) throw new AppMemoryError({ message: `no app memory at ${dir}: run senseact bench with --app-memory ${dir} first, or pass the folder you used with --dir` });
  return AppMemory.open(dir, { countTokens: estimateTokens });
}

/**
 * `senseact memory show <app> --dir <dir>`: prints what the per-app abstraction memory
 * holds for one app (pages and what they offer, verified links, task-family notes, a
 * model's summary), or its JSON; `senseact memory list --dir <dir>` lists the apps.
 */
export const memoryCommand: CommandRegistration = (program, io, setExitCode) => {
  const memory = program.command('memory').description('Inspect the per-app abstraction memory that bench --app-memory <dir> learns (app map and task-family notes).');
  memory
    .command('show')
    .description('Print one app\'s memory: pages, what each offers, verified links between them, task-family notes.')
    .argument('<app>', 'the app package, e.g. com.android.settings')
    .requiredOption('--dir <dir>', 'the app memory folder (the one given to bench --app-memory)')
    .option('--json', 'print the stored JSON instead')
    .action(async (app: string, options: { dir: string; json?: boolean }) => {
      const dir = path.resolve(io.cwd, options.dir);
      const store = await openExisting(dir);
      const file = store.get(app);
      if (!file) throw new AppMemoryError({ message: `the app memory in ${dir} has nothing on ${app}; it knows ${store.apps().join(', ') || 'no app yet'}` });
      io.stdout(options.json === true ? `${JSON.stringify(file, null, 2)}\n` : renderAppMemory(file));
      setExitCode(exitCodes.ok);
    });
  memory
    .command('list')
    .description('List the apps the memory knows, with their page, link and note counts.')
    .requiredOption('--dir <dir>', 'the app memory folder (the one given to bench --app-memory)')
    .action(async (options: { dir: string }) => {
      const store = await openExisting(path.resolve(io.cwd, options.dir));
      for (const app of store.apps()) {
        const file = store.get(app);
        if (file) io.stdout(`${app}: ${file.pages.length} pages, ${file.links.length} links, ${file.notes.length} notes${file.summary ? ', summarised' : ''}\n`);
      }
      setExitCode(exitCodes.ok);
    });
};
