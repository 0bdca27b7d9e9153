import type { Command } from 'commander';
import type { DeviceAction } from '../../device/device-action.js';
import { deviceActionSyntax, parseDeviceAction } from '../../device/parse-device-action.js';
import { perceive } from '../../perception/perceive.js';
import { parseHierarchy } from '../../ui/parse-hierarchy.js';
import type { UiTree } from '../../ui/ui-tree.js';
import { computeDelta } from '../../verify/compute-delta.js';
import { exitCodes, type CliIo } from '../cli-io.js';
import type { CommandRegistration } from '../command-registration.js';
import { openCliDevice, reportDeviceError, type DeviceCommandOptions } from './devices-command.js';

/**
 * `senseact act <profile> <action...> [--url URL] [--launch PKG] [--state FILE]`: observes, performs one
 * action (`tap 540,1200`, `type "hello"`, `key back`, `launch com.android.settings`,
 * `scroll down 0,300,1080,2000`, ...), observes again and prints the delta (label, ρ,
 * changes) and the new reduced view. For the `sim` profile this runs on a fresh
 * in-process simulator (use `--launch` to open an app first), or with `--state FILE` on
 * the one that file keeps between calls (src/cli/sim-state-file.ts).
 */
export const actCommand: CommandRegistration = (program: Command, io: CliIo, setExitCode) => {
  program
    .command('act')
    .description(`Perform one action on a device and print what changed. Actions: ${deviceActionSyntax.join(' | ')}; tap, long-press and clear also take a unit id as observe prints it (its centre)`)
    .argument('<profile>', 'device profile name (devices/<name>.yaml) or path')
    .argument('<action...>', 'the action and its arguments, e.g. tap 540,1200')
    .option('--url <url>', 'Appium server URL (overrides the profile)')
    .option('--launch <package>', 'launch this app before the action')
    .option('--state <file>', 'sim only: keep the simulator between calls in this file (replayed on start, written back after); a file that does not exist yet starts from the first screen')
    .action(async (profileName: string, words: string[], options: DeviceCommandOptions) => {
      // A unit id (as observe prints it) stands for its unit's centre on the screen seen before the action.
      const named = unitIdOf(words);
      const action = parseDeviceAction(named === undefined ? words : words.map((word) => (word === named ? '0,0' : word)));
      if (!action.success) {
        io.stderr(`senseact act: ${action.error.replace('0,0', named ?? '0,0')}\n`);
        setExitCode(exitCodes.badInput);
        return;
      }
      const opened = await openCliDevice('act', profileName, options, io, setExitCode);
      if (!opened) return;
      const { device, save } = opened;
      try {
        const before = await device.observe();
        const beforeTree = parseHierarchy(before.xml, { packageName: before.packageName, activity: before.activity, sourceName: 'before' });
        let toDo: DeviceAction = action.value;
        if (named !== undefined) {
          const unit = perceive(beforeTree).units.find((candidate) => candidate.id === named);
          if (unit === undefined || !('point' in action.value)) {
            io.stderr(`senseact act: ${unit === undefined ? `no unit ${named} on the screen (${before.packageName} ${before.activity}); npx senseact observe ${profileName} lists the units with their ids and bounds` : `${words[0] ?? ''} takes a point, not a unit id`}\n`);
            setExitCode(exitCodes.badInput);
            return;
          }
          const [left, top, right, bottom] = unit.bounds;
          toDo = { ...action.value, point: [Math.round((left + right) / 2), Math.round((top + bottom) / 2)] } as DeviceAction;
        }
        const acted = await device.act(toDo);
        const after = await device.observe();
        // Saved before anything is printed: a reader that stops early (| head) ends the process.
        await save();
        const afterTree = parseHierarchy(after.xml, { packageName: after.packageName, activity: after.activity, sourceName: 'after' });
        const delta = computeDelta(beforeTree, afterTree);
        io.stdout(`# ${words.join(' ')}${named === undefined || !('point' in toDo) || toDo.point === undefined ? '' : ` (${toDo.point.join(',')})`} — ${acted.latencyMs.toFixed(0)} ms\n`);
        io.stdout(`before: ${before.packageName} ${before.activity}\nafter:  ${after.packageName} ${after.activity}${after.settled ? '' : ' (NOT settled)'}\n`);
        io.stdout(`delta: ${delta.label}, rho ${delta.rho.toFixed(2)}, ${delta.changes.length} changes${delta.newSurface ? ', new surface' : ''}${delta.dismissedSurface ? ', surface dismissed' : ''}${delta.errorsOrBlocks.length > 0 ? `, ${delta.errorsOrBlocks.length} blockers` : ''}\n`);
        for (const change of delta.changes.slice(0, 20)) io.stdout(`  ${describeChange(change, beforeTree, afterTree)}\n`);
        if (delta.changes.length > 20) io.stdout(`  … ${delta.changes.length - 20} more\n`);
        io.stdout(`\n# after (${after.polls} pulls)\n${perceive(afterTree).view}\n`);
        setExitCode(exitCodes.ok);
      } catch (error) {
        reportDeviceError('act', error, io, setExitCode);
      } finally {
        await device.close();
      }
    });
};

/** The unit id (`n3f2a`) among the action's words, where a point X,Y would go; undefined when there is none. */
function unitIdOf(words: readonly string[]): string | undefined {
  const [verb, target] = words;
  if (verb === undefined || !['tap', 'long-press', 'clear'].includes(verb)) return undefined;
  return target !== undefined && /^n[0-9a-f]{4,}$/.test(target) ? target : undefined;
}

type Change = ReturnType<typeof computeDelta>['changes'][number];

function describeChange(change: Change, before: UiTree, after: UiTree): string {
  const name = (tree: UiTree, index: number): string => {
    const node = tree.nodes[index];
    if (!node) return `#${index}`;
    const label = node.text || node.contentDesc || node.resourceId;
    return `${node.className.split('.').pop() ?? node.className}${label ? ` "${label}"` : ''}`;
  };
  switch (change.kind) {
    case 'text':
      return `${change.field} of ${name(after, change.after)}: "${change.from}" → "${change.to}"`;
    case 'added':
      return `added ${name(after, change.after)}`;
    case 'removed':
      return `removed ${name(before, change.before)}`;
    default:
      return `${change.kind} of ${name(after, change.after)}: ${String(change.from)} → ${String(change.to)}`;
  }
}
