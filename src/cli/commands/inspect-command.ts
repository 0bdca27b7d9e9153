import { readdir, readFile, stat } from 'node:fs/promises';
import * as path from 'node:path';
import { Option, type Command } from 'commander';
import { perceive } from '../../perception/perceive.js';
import { toPerceptionJson, type PerceptionJson } from '../../perception/perception-json.js';
import { renderUnitLine } from '../../perception/render-view.js';
import { HierarchyParseError } from '../../ui/hierarchy-parse-error.js';
import { parseHierarchy } from '../../ui/parse-hierarchy.js';
import { exitCodes, type CliIo } from '../cli-io.js';
import type { CommandRegistration } from '../command-registration.js';

/** Files `inspect` reads from a directory: UI dumps by extension. */
const dumpExtensions = new Set(['.xml', '.json']);

interface InspectOptions {
  level: string;
  keepSystemBar?: boolean;
  mergeSwitch: boolean;
  useBounds: boolean;
  json?: boolean;
  jsonl?: boolean;
}

/** One inspected screen: the JSON form plus the input path. */
export type InspectedScreen = PerceptionJson & { readonly source: string };

/**
 * `senseact inspect <file...|dir> [--level 1|2] [--json|--jsonl] [--keep-system-bar]
 * [--no-merge-switch] [--no-use-bounds]`: parses UI dumps (both
 * XML dialects and DroidBot JSON), reduces them and prints the planner view, the units
 * with bounds and tap points, and the SCG edges. Directories are read recursively
 * (`.xml` and `.json` files, sorted). A file that does not parse gives an error line
 * naming it on stderr and exit code 2; the other files are still printed.
 */
export const registerInspectCommand: CommandRegistration = (program: Command, io: CliIo, setExitCode) => {
  program
    .command('inspect')
    .description('Print the reduced planner view, control units and SCG of UI hierarchy dumps.')
    .argument('<paths...>', 'dump files (Appium page source, uiautomator dump XML, DroidBot state JSON) or directories of them')
    .addOption(new Option('--level <level>', 'reduction level: 1 = sparse, 2 = merge').choices(['1', '2']).default('2'))
    .option('--keep-system-bar', 'keep com.android.systemui nodes (status and navigation bars)')
    .option('--no-merge-switch', 'keep a row and its switch as separate units')
    .option('--no-use-bounds', 'do not merge a child covering 80% of its parent into it')
    .addOption(new Option('--json', 'print JSON (one object for one file, else an array)').conflicts('jsonl'))
    .addOption(new Option('--jsonl', 'print one JSON object per line per screen'))
    .action(async (paths: string[], options: InspectOptions) => {
      const perceptionOptions = {
        level: options.level === '1' ? 1 : 2,
        removeSystemBar: !options.keepSystemBar,
        mergeSwitch: options.mergeSwitch,
        useBounds: options.useBounds,
      } as const;
      const files: string[] = [];
      let failed = false;
      for (const argument of paths) {
        const resolved = path.resolve(io.cwd, argument);
        try {
          files.push(...(await expand(resolved)));
        } catch (error) {
          failed = true;
          io.stderr(`senseact inspect: ${argument}: cannot read (${error instanceof Error ? error.message : String(error)}); pass existing dump files or directories.\n`);
        }
      }
      const screens: InspectedScreen[] = [];
      for (const file of files) {
        const source = path.relative(io.cwd, file) || file;
        let bytes: Uint8Array;
        try {
          bytes = await readFile(file);
        } catch (error) {
          failed = true;
          io.stderr(`senseact inspect: ${source}: cannot read (${error instanceof Error ? error.message : String(error)}).\n`);
          continue;
        }
        try {
          const perception = perceive(parseHierarchy(bytes, { sourceName: source }), perceptionOptions);
          const screen: InspectedScreen = { source, ...toPerceptionJson(perception) };
          screens.push(screen);
          if (options.jsonl) io.stdout(`${JSON.stringify(screen)}\n`);
          else if (!options.json) io.stdout(renderText(screen));
        } catch (error) {
          if (!HierarchyParseError.isInstance(error)) throw error;
          failed = true;
          io.stderr(`senseact inspect: ${error.message}\n`);
        }
      }
      if (options.json) {
        const single = paths.length === 1 && files.length === 1 && files[0] === path.resolve(io.cwd, paths[0]!);
        // One file that did not parse prints nothing on stdout (not `null`): its error is on stderr, exit 2.
        if (!single || screens[0] !== undefined) io.stdout(`${JSON.stringify(single ? screens[0] : screens, null, 2)}\n`);
      }
      if (files.length === 0 && !failed) {
        failed = true;
        io.stderr(`senseact inspect: no .xml or .json files in ${paths.join(', ')}.\n`);
      }
      setExitCode(failed ? exitCodes.badInput : exitCodes.ok);
    });
};

async function expand(target: string): Promise<string[]> {
  const info = await stat(target);
  if (!info.isDirectory()) return [target];
  const found: string[] = [];
  const entries = (await readdir(target, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const full = path.join(target, entry.name);
    if (entry.isDirectory()) found.push(...(await expand(full)));
    else if (dumpExtensions.has(path.extname(entry.name).toLowerCase())) found.push(full);
  }
  return found;
}

function renderText(screen: InspectedScreen): string {
  const lines = [`== ${screen.source} (${screen.dialect}, level ${screen.level})`, screen.view.trimEnd(), 'units:'];
  for (const unit of screen.units) {
    if (unit.tap === null) continue;
    const line = renderUnitLine(unit);
    lines.push(`  ${line} bounds=[${unit.bounds.join(',')}] tap=(${unit.tap.join(',')}) members=${unit.members.length}`);
  }
  lines.push(`edges: ${screen.edges.length === 0 ? '(none)' : ''}`);
  for (const [from, to] of screen.edges) lines.push(`  ${from} -> ${to}`);
  return `${escapeControls(lines.join('\n'))}\n\n`;
}

/**
 * Control characters of the dump's text shown as `\u009b` escapes: C0 (but newlines) and
 * C1 controls would otherwise reach the terminal raw (U+009B starts an escape sequence).
 */
function escapeControls(text: string): string {
  return text.replace(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
