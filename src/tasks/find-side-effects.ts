import type { StatePathSegment } from './resolve-state-path.js';
import { normaliseAdbCommand, type TaskScope } from './task-scope.js';

/**
 * The state watched for side effects at one moment: every app's state by package (the
 * simulator) and the outputs of the device profile's `watch` adb queries (a device).
 */
export interface WatchedState {
  readonly apps?: Readonly<Record<string, unknown>>;
  readonly adb?: Readonly<Record<string, string>>;
}

/** One change of watched state outside the task's scope. `before`/`after` are undefined when absent. */
export interface SideEffect {
  /** `<package> <state path>` (e.g. `com.android.settings network.airplaneMode`) or the adb command. */
  readonly path: string;
  readonly before: unknown;
  readonly after: unknown;
}

type Segment = string | number;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Every leaf that differs between two JSON values, with its path (objects by key, arrays by index). */
function changes(before: unknown, after: unknown, at: readonly Segment[], out: { path: Segment[]; before: unknown; after: unknown }[]): void {
  if (isRecord(before) && isRecord(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
    for (const key of keys) changes(before[key], after[key], [...at, key], out);
    return;
  }
  if (Array.isArray(before) && Array.isArray(after)) {
    for (let index = 0; index < Math.max(before.length, after.length); index++) changes(before[index], after[index], [...at, index], out);
    return;
  }
  if (JSON.stringify(before) !== JSON.stringify(after)) out.push({ path: [...at], before, after });
}

/** True when the scope path is a prefix of the changed path (`all` and negative indices match any element). */
function covers(scope: readonly StatePathSegment[], path: readonly Segment[]): boolean {
  if (scope.length > path.length) return false;
  return scope.every((segment, index) => {
    const step = path[index];
    if (segment.kind === 'key') return step === segment.key;
    if (typeof step !== 'number') return false;
    return segment.kind === 'all' || segment.index < 0 || segment.index === step;
  });
}

function renderPath(path: readonly Segment[]): string {
  return path.map((step, index) => (typeof step === 'number' ? `[${step}]` : /^[A-Za-z_$][\w$-]*$/.test(step) ? `${index === 0 ? '' : '.'}${step}` : `[${JSON.stringify(step)}]`)).join('');
}

/** An adb output as compared: trimmed lines, sorted (a package list has no fixed order). */
function normaliseOutput(output: string): string {
  return output.trim().split(/\r?\n/).map((line) => line.trim()).sort().join('\n');
}

/**
 * The changes between two readings of watched state that the task's scope does not allow
 * (docs/architecture.md §2.10), in a stable order: app state leaf by leaf, then adb queries.
 * An adb query answered in only one of the readings is not compared (it could not be read).
 */
export function findSideEffects(before: WatchedState, after: WatchedState, scope: TaskScope): SideEffect[] {
  const found: SideEffect[] = [];
  const apps = [...new Set([...Object.keys(before.apps ?? {}), ...Object.keys(after.apps ?? {})])].sort();
  for (const app of apps) {
    const changed: { path: Segment[]; before: unknown; after: unknown }[] = [];
    changes(before.apps?.[app], after.apps?.[app], [], changed);
    const allowed = scope.state.filter((entry) => entry.app === app);
    for (const change of changed) {
      if (allowed.some((entry) => covers(entry.path, change.path))) continue;
      found.push({ path: change.path.length === 0 ? app : `${app} ${renderPath(change.path)}`, before: change.before, after: change.after });
    }
  }
  const inScope = new Set(scope.adb);
  for (const [command, output] of Object.entries(before.adb ?? {})) {
    const later = after.adb?.[command];
    if (later === undefined || inScope.has(normaliseAdbCommand(command))) continue;
    if (normaliseOutput(output) !== normaliseOutput(later)) found.push({ path: command, before: output.trim(), after: later.trim() });
  }
  return found;
}

function showValue(value: unknown): string {
  if (value === undefined) return '(absent)';
  const text = JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/** `side effect: <path> changed from <before> to <after>` (values as JSON, long ones cut). */
export function describeSideEffect(effect: SideEffect): string {
  return `side effect: ${effect.path} changed from ${showValue(effect.before)} to ${showValue(effect.after)}`;
}
