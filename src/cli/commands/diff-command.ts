import type { Command } from 'commander';
import type { UiNode, UiTree } from '../../ui/ui-tree.js';
import { computeDelta, type AtomicChange, type Delta } from '../../verify/compute-delta.js';
import { describeNode } from '../../verify/verify-outcome.js';
import { exitCodes, type CliIo } from '../cli-io.js';
import type { CommandRegistration } from '../command-registration.js';
import { readScreen } from './read-screen.js';

interface DiffOptions {
  json?: boolean;
  limit: string;
}

/** A node as `diff --json` shows it. */
interface DiffNode {
  readonly index: number;
  readonly className: string;
  readonly resourceId: string;
  readonly text: string;
  readonly contentDesc: string;
  readonly bounds: readonly number[];
}

function jsonNode(node: UiNode | undefined): DiffNode | null {
  if (!node) return null;
  return { index: node.index, className: node.className, resourceId: node.resourceId, text: node.text, contentDesc: node.contentDesc, bounds: [...node.bounds] };
}

function jsonChange(change: AtomicChange, before: UiTree, after: UiTree): Record<string, unknown> {
  switch (change.kind) {
    case 'added':
      return { kind: change.kind, after: jsonNode(after.nodes[change.after]) };
    case 'removed':
      return { kind: change.kind, before: jsonNode(before.nodes[change.before]) };
    default:
      return { ...change, before: jsonNode(before.nodes[change.before]), after: jsonNode(after.nodes[change.after]) };
  }
}

/** The JSON `senseact diff --json` prints. */
export function diffJson(delta: Delta, before: UiTree, after: UiTree): Record<string, unknown> {
  return {
    label: delta.label,
    rho: delta.rho,
    matched: delta.matches.length,
    beforeCount: delta.beforeCount,
    afterCount: delta.afterCount,
    changes: delta.changes.map((change) => jsonChange(change, before, after)),
    screenChanged: delta.screenChanged,
    newSurface: delta.newSurface,
    dismissedSurface: delta.dismissedSurface,
    surfacesAdded: delta.surfacesAdded.map((surface) => ({ kind: surface.kind, node: jsonNode(after.nodes[surface.root]) })),
    surfacesRemoved: delta.surfacesRemoved.map((surface) => ({ kind: surface.kind, node: jsonNode(before.nodes[surface.root]) })),
    packageChanged: delta.packageChanged,
    activityChanged: delta.activityChanged,
    textChanges: delta.textChanges.length,
    valueChanges: delta.valueChanges.length,
    selectionChanges: delta.selectionChanges.length,
    imageChanges: delta.imageChanges,
    errorsOrBlocks: delta.errorsOrBlocks,
  };
}

function changeLine(change: AtomicChange, before: UiTree, after: UiTree): string {
  switch (change.kind) {
    case 'added':
      return `  added     ${describeAt(after, change.after)}`;
    case 'removed':
      return `  removed   ${describeAt(before, change.before)}`;
    case 'text':
      return `  ${change.field === 'text' ? 'text' : 'desc'}      ${describeAt(after, change.after)}: ${JSON.stringify(change.from)} → ${JSON.stringify(change.to)}`;
    default:
      return `  ${change.kind.padEnd(9)} ${describeAt(after, change.after)}: ${change.from} → ${change.to}`;
  }
}

function describeAt(tree: UiTree, index: number): string {
  const node = tree.nodes[index];
  return node ? describeNode(node) : `#${index}`;
}

/** Human-readable form of a delta. */
export function renderDiff(delta: Delta, before: UiTree, after: UiTree, limit: number): string {
  const yes = (value: boolean): string => (value ? 'yes' : 'no');
  const lines = [
    `label: ${delta.label}`,
    `rho: ${delta.rho.toFixed(3)} (${delta.matches.length} of ${delta.beforeCount} compared before-nodes matched; ${delta.afterCount} compared after-nodes)`,
    `screenChanged: ${yes(delta.screenChanged)}  newSurface: ${yes(delta.newSurface)}  dismissedSurface: ${yes(delta.dismissedSurface)}`,
    `package: ${before.packageName || '?'} → ${after.packageName || '?'}${delta.packageChanged ? ' (changed)' : ''}${before.activity || after.activity ? `  activity: ${before.activity || '?'} → ${after.activity || '?'}` : ''}`,
    `textChanges: ${delta.textChanges.length}  valueChanges: ${delta.valueChanges.length}  selectionChanges: ${delta.selectionChanges.length}  imageChanges: ${delta.imageChanges}`,
    `changes (${delta.changes.length}):`,
    ...delta.changes.slice(0, limit).map((change) => changeLine(change, before, after)),
  ];
  if (delta.changes.length > limit) lines.push(`  … ${delta.changes.length - limit} more (--limit to show more, --json for all)`);
  for (const surface of delta.surfacesAdded) lines.push(`surface opened: ${surface.kind} ${describeAt(after, surface.root)}`);
  for (const surface of delta.surfacesRemoved) lines.push(`surface dismissed: ${surface.kind} ${describeAt(before, surface.root)}`);
  for (const blocker of delta.errorsOrBlocks) lines.push(`blocker: ${blocker.kind} ${JSON.stringify(blocker.text)}${blocker.isNew ? ' (new)' : ''}`);
  return `${lines.join('\n')}\n`;
}

/**
 * `senseact diff <before> <after> [--json] [--limit n]`: the delta between two screens:
 * label, ρ, atomic changes and the derived fields. Exit 0, or 2 for an unreadable or
 * unparsable screen.
 */
export const diffCommand: CommandRegistration = (program: Command, io: CliIo, setExitCode) => {
  program
    .command('diff')
    .description('Show what changed between two UI dumps: transition label, match ratio, atomic changes, surfaces, blockers.')
    .argument('<before>', 'the screen before the action (a UI dump file)')
    .argument('<after>', 'the screen after the action')
    .option('--json', 'print JSON: { label, rho, changes, screenChanged, newSurface, dismissedSurface, … }')
    .option('--limit <n>', 'how many changes the text output lists', '40')
    .action(async (beforeFile: string, afterFile: string, options: DiffOptions) => {
      const before = await readScreen(beforeFile, io, 'diff');
      const after = before ? await readScreen(afterFile, io, 'diff') : undefined;
      if (!before || !after) {
        setExitCode(exitCodes.badInput);
        return;
      }
      const delta = computeDelta(before, after);
      const limit = Number.parseInt(options.limit, 10);
      io.stdout(options.json ? `${JSON.stringify(diffJson(delta, before, after), null, 2)}\n` : renderDiff(delta, before, after, Number.isFinite(limit) && limit >= 0 ? limit : 40));
      setExitCode(exitCodes.ok);
    });
};
