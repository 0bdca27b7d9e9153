import type { Command } from 'commander';
import { perceive } from '../../perception/perceive.js';
import { parseHierarchy } from '../../ui/parse-hierarchy.js';
import { exitCodes, type CliIo } from '../cli-io.js';
import type { CommandRegistration } from '../command-registration.js';
import { openCliDevice, reportDeviceError, type DeviceCommandOptions } from './devices-command.js';

interface ObserveOptions extends DeviceCommandOptions {
  readonly raw?: boolean;
  readonly level: string;
}

/**
 * `senseact observe <profile> [--url URL] [--launch PKG] [--state FILE] [--raw] [--level 1|2]`: one
 * settled observation. Prints the package/activity line, the raw XML (`--raw`: only the
 * XML), then the reduced planner view with its units. For the `sim` profile the
 * observation is of a fresh in-process simulator (use `--launch` to open an app first),
 * or with `--state FILE` of the one that file keeps between calls.
 */
export const observeCommand: CommandRegistration = (program: Command, io: CliIo, setExitCode) => {
  program
    .command('observe')
    .description('Observe a device once: raw hierarchy XML, then the reduced view and control units.')
    .argument('<profile>', 'device profile name (devices/<name>.yaml) or path')
    .option('--url <url>', 'Appium server URL (overrides the profile)')
    .option('--launch <package>', 'launch this app before observing')
    .option('--state <file>', 'sim only: keep the simulator between calls in this file (replayed on start, written back after); a file that does not exist yet starts from the first screen')
    .option('--raw', 'print only the raw XML')
    .option('--level <level>', 'reduction level: 1 = sparse, 2 = merge', '2')
    .action(async (profileName: string, options: ObserveOptions) => {
      const opened = await openCliDevice('observe', profileName, options, io, setExitCode);
      if (!opened) return;
      const { device, save } = opened;
      try {
        const observation = await device.observe();
        // Saved before anything is printed: a reader that stops early (| head) ends the process.
        await save();
        if (options.raw) {
          io.stdout(observation.xml.endsWith('\n') ? observation.xml : `${observation.xml}\n`);
        } else {
          io.stdout(`# ${observation.packageName} ${observation.activity} — ${observation.polls} pulls, ${observation.settled ? 'settled' : 'NOT settled'}, ${observation.latencyMs.toFixed(0)} ms\n`);
          if (observation.activityStack) io.stdout(`# activity stack (top first): ${observation.activityStack.join(' < ')}\n`);
          io.stdout(`${observation.xml}\n`);
          const tree = parseHierarchy(observation.xml, { packageName: observation.packageName, activity: observation.activity, sourceName: `${profileName} observation` });
          const perception = perceive(tree, { level: options.level === '1' ? 1 : 2 });
          io.stdout(`\n# reduced view (level ${options.level === '1' ? 1 : 2}, ${perception.units.length} units)\n${perception.view}\n`);
          // Where each unit is: act takes its id (tap <id>) or a point inside these bounds.
          const placed = perception.units.filter((unit) => unit.bounds[2] > unit.bounds[0]);
          io.stdout(`\n# units on the screen (act ${profileName} 'tap <id>' taps its centre)\n${placed.map((unit) => `${unit.id} ${unit.type} ${JSON.stringify(unit.label)} [${unit.bounds[0]},${unit.bounds[1]}][${unit.bounds[2]},${unit.bounds[3]}]`).join('\n')}\n`);
        }
        setExitCode(exitCodes.ok);
      } catch (error) {
        reportDeviceError('observe', error, io, setExitCode);
      } finally {
        await device.close();
      }
    });
};
