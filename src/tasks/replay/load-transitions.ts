import { readFile } from 'node:fs/promises';
import * as path from 'node:path';
import { oppositeDirection, scrollDirectionNamed } from '../../ui/scroll-direction.js';
import { isInvertedBounds, parseBounds } from '../../ui/bounds.js';
import { parseHierarchy } from '../../ui/parse-hierarchy.js';
import type { UiTree } from '../../ui/ui-tree.js';
import { assertNever } from '../../util/assert-never.js';
import { debugLog } from '../../util/debug-log.js';
import { droidBotTypedAlso } from './droidbot-typing.js';
import { ReplayLoadError } from './replay-load-error.js';
import type { ReplayAction, ReplayElement, ReplaySource, ReplayStep, ReplayTask } from './replay-task.js';
import { transitionRecordSchema, type TransitionRecord } from './transition-record.js';

async function readText(file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    throw new ReplayLoadError({ file, problem: `cannot read it (${(error as Error).message})`, cause: error });
  }
}

function elementOf(action: TransitionRecord['action']): ReplayElement | undefined {
  const bounds = action.bounds ? parseBounds(action.bounds) : undefined;
  if (!bounds) return undefined;
  return { bounds, className: action.class, resourceId: action.resource_id, text: action.text, contentDesc: action.content_desc };
}

/** The start of an `after_capture` that names another capture of the state reached, not one taken at the action. */
const otherCapture = 'other_capture';

/** Recorders that type with `adb shell input text` at the cursor, without clearing the field. */
const appendingRecorders = /^(appagent_|navi_agent)/;

/**
 * What `adb shell input text` types for a recorded argument: AppAgent-style recorders
 * drop single quotes, and the device shell eats a backslash before a character
 * (`Alligatoah\n` types `Alligatoahn`).
 */
export function typedByAdbShell(text: string): string {
  return text.replace(/'/g, '').replace(/\\(.)/g, '$1');
}

function actionOf(action: TransitionRecord['action'], sourceFormat: string | undefined): ReplayAction {
  const element = elementOf(action);
  const withElement = element ? { element } : {};
  switch (action.kind) {
    case 'tap': return { kind: 'tap', ...withElement };
    case 'long_press': return { kind: 'long-press', ...withElement };
    case 'set_text': {
      const append = action.typing === undefined ? appendingRecorders.test(sourceFormat ?? '') : action.typing === 'append';
      const submitted = (action.followed_by?.keys ?? []).some((key) => /^(ENTER|SEARCH)$/i.test(key));
      const typed = action.typed_text ?? '';
      return { kind: 'set-text', text: append ? typedByAdbShell(typed) : typed, append, submitted, ...(sourceFormat === 'droidbot' ? droidBotTypedAlso(typed) : {}), ...withElement };
    }
    case 'scroll': {
      // The finger moves against the content: up shows what is further down.
      const finger = scrollDirectionNamed(action.finger_moves);
      const direction = finger && oppositeDirection(finger);
      return { kind: 'scroll', ...withElement, ...(direction ? { direction } : {}) };
    }
    case 'key': return { kind: 'key', key: action.key ?? '' };
    default: return assertNever(action.kind, 'transition action kind');
  }
}

/** The activity part of a recorded `package/activity`, as a device reports the foreground activity. */
function activityOf(recorded: string | null | undefined): string | undefined {
  if (!recorded) return undefined;
  const slash = recorded.indexOf('/');
  return slash < 0 ? recorded : recorded.slice(slash + 1);
}

/**
 * The run a record belongs to: the folder of the file that recorded the action (a
 * DroidBot output folder, an AppAgent demo or task folder), else the id.
 */
export function transitionRunOf(record: Pick<TransitionRecord, 'id' | 'source'>): string {
  if (!record.source) return record.id;
  const at = record.source.indexOf(':');
  const repository = at < 0 ? '' : record.source.slice(0, at).replace(/@[0-9a-f]+$/, '');
  const file = at < 0 ? record.source : record.source.slice(at + 1);
  let folder = file.includes('/events/') ? file.slice(0, file.indexOf('/events/')) : path.posix.dirname(file);
  if (folder.endsWith('/logs')) folder = folder.slice(0, -'/logs'.length);
  return `${repository}:${folder}`;
}

/** One line of the file as a record, or why it is none (with what it parsed to, when it is JSON). */
function readRecord(raw: string, file: string, line: number): { readonly record: TransitionRecord } | { readonly failure: ReplayLoadError; readonly data: unknown } {
  let data: unknown;
  try {
    data = JSON.parse(raw) as unknown;
  } catch (error) {
    return { failure: new ReplayLoadError({ file, line, problem: `not valid JSON (${(error as Error).message})`, cause: error }), data: undefined };
  }
  const parsed = transitionRecordSchema.safeParse(data);
  if (parsed.success) return { record: parsed.data };
  const issue = parsed.error.issues[0];
  return { failure: new ReplayLoadError({ file, line, problem: `field ${issue?.path.join('.') || '(root)'}: ${issue?.message ?? 'invalid'}`, cause: parsed.error }), data };
}

/** The id and source of a line that parsed as JSON but is no valid record, when it has them: its run can still count it. */
function namedRecord(data: unknown): { id: string; source?: string } | undefined {
  if (typeof data !== 'object' || data === null) return undefined;
  const { id, source } = data as { id?: unknown; source?: unknown };
  if (typeof id !== 'string' || id === '') return undefined;
  return typeof source === 'string' ? { id, source } : { id };
}

/**
 * Loads a transitions JSONL (docs/verify-replay.md): each line a record with the before
 * and after screens (UI dump paths relative to the file's folder) and the action. Screens
 * are parsed once each; a recorded foreground activity and activity stack go into the tree
 * as a device observation would give them. Records are grouped into runs
 * (`transitionRunOf`) in file order. A record whose screen cannot be read or parsed is
 * left out and listed (the screen in `unreadable`, once; the record in `skipped`, and its
 * run counts it as a recorded step); the others load. So is a malformed record (a line
 * that is not JSON, cut short by a recorder that stopped, or that does not match the
 * schema): listed in `skipped` by its id, or by file and line when it has none. Throws
 * `ReplayLoadError` only when no record loads at all, naming the file and line of the
 * first problem.
 */
export async function loadTransitions(file: string): Promise<ReplaySource> {
  const folder = path.dirname(file);
  const text = await readText(file);
  const screens = new Map<string, Uint8Array | ReplayLoadError>();
  // Bytes, not text: parseHierarchy decodes UTF-16 and byte-order marks.
  const readScreen = async (relative: string, line: number): Promise<Uint8Array> => {
    const full = path.resolve(folder, relative);
    const cached = screens.get(full);
    if (cached instanceof ReplayLoadError) throw cached;
    if (cached !== undefined) return cached;
    try {
      const xml = await readFile(full);
      screens.set(full, xml);
      return xml;
    } catch (error) {
      const brief = `screen ${relative} cannot be read`;
      const failure = new ReplayLoadError({ file, line, problem: `${brief} (${(error as Error).message})`, brief, cause: error });
      screens.set(full, failure);
      throw failure;
    }
  };
  // A screen is parsed once per recorded activity: the after screen of one step is usually the before screen of the next.
  const trees = new Map<string, UiTree | ReplayLoadError>();
  const parse = (xml: Uint8Array, relative: string, activity: string | undefined, activityStack: readonly string[] | undefined, line: number): UiTree => {
    const key = `${path.resolve(folder, relative)}\u0000${activity ?? ''}\u0000${activityStack?.join('\u0000') ?? ''}`;
    const cached = trees.get(key);
    if (cached instanceof ReplayLoadError) throw cached;
    if (cached !== undefined) return cached;
    try {
      const tree = parseHierarchy(xml, { sourceName: relative, ...(activity ? { activity } : {}), ...(activityStack ? { activityStack } : {}) });
      trees.set(key, tree);
      return tree;
    } catch (error) {
      const brief = `screen ${relative} does not parse`;
      const failure = new ReplayLoadError({ file, line, problem: `${brief} (${(error as Error).message})`, brief, cause: error });
      trees.set(key, failure);
      throw failure;
    }
  };
  const screenOf = async (relative: string, recorded: string | null | undefined, stack: readonly string[] | null | undefined, line: number): Promise<UiTree> =>
    parse(await readScreen(relative, line), relative, activityOf(recorded), stack ?? undefined, line);

  const runs = new Map<string, ReplayStep[]>();
  const apps = new Map<string, string>();
  const leftOutByRun = new Map<string, number>();
  const skipped: { id: string; reason: string }[] = [];
  const unreadable = new Map<string, ReplayLoadError>();
  const malformed: ReplayLoadError[] = [];
  const lines = text.split('\n');
  for (const [offset, raw] of lines.entries()) {
    const line = offset + 1;
    if (raw.trim() === '') continue;
    const read = readRecord(raw, file, line);
    if ('failure' in read) {
      // A line cut short by a recorder that stopped, or a record of a kind this reader does not know: it is
      // left out and listed, the rest loads (its run counts it, when the line names its run).
      malformed.push(read.failure);
      const named = namedRecord(read.data);
      skipped.push({ id: named?.id ?? `${path.basename(file)}:${line}`, reason: `line ${line}: ${read.failure.problem}` });
      if (named) {
        const run = transitionRunOf(named);
        leftOutByRun.set(run, (leftOutByRun.get(run) ?? 0) + 1);
      }
      continue;
    }
    const { record } = read;
    const run = transitionRunOf(record);
    let before: UiTree;
    let after: UiTree;
    try {
      before = await screenOf(record.before, record.foreground_activity_before, record.activity_stack_before, line);
      after = await screenOf(record.after, record.foreground_activity_after, record.activity_stack_after, line);
    } catch (error) {
      if (!ReplayLoadError.isInstance(error)) throw error;
      // One damaged capture among thousands: the record is left out, the screen listed once, the rest loads.
      if (!unreadable.has(error.message)) unreadable.set(error.message, error);
      skipped.push({ id: record.id, reason: `line ${line}: ${error.brief} (see the unreadable files)` });
      leftOutByRun.set(run, (leftOutByRun.get(run) ?? 0) + 1);
      if (!apps.has(run) && record.app_package !== '') apps.set(run, record.app_package);
      continue;
    }
    const step: ReplayStep = {
      id: record.id,
      app: record.app_package || before.packageName,
      before,
      after,
      beforeFile: record.before,
      afterFile: record.after,
      action: actionOf(record.action, record.source_format),
      noVisibleEffect: record.no_visible_effect,
      ...(record.quality === undefined ? {} : { quality: record.quality }),
      ...(record.after_capture?.startsWith(otherCapture) === true ? { afterFromOtherCapture: true } : {}),
    };
    const steps = runs.get(run);
    if (steps) steps.push(step);
    else runs.set(run, [step]);
    if (!apps.has(run)) apps.set(run, step.app);
  }
  if (runs.size === 0) {
    const firstFailure = [...malformed, ...unreadable.values()].sort((left, right) => (left.line ?? 0) - (right.line ?? 0))[0];
    if (firstFailure !== undefined) {
      const others = [malformed.length > 0 ? `${malformed.length} malformed record(s)` : '', unreadable.size > 0 ? `${unreadable.size} unreadable screen(s)` : ''].filter(Boolean).join(', ');
      throw new ReplayLoadError({ file, ...(firstFailure.line === undefined ? {} : { line: firstFailure.line }), problem: `${firstFailure.problem}; no record could be loaded${malformed.length + unreadable.size > 1 ? ` (${others} in all)` : ''}`, cause: firstFailure });
    }
  }
  // A run that lost records counts them as recorded steps: it is not "verified" for the steps that were never
  // replayed (a run that lost them all is listed too, with no step).
  for (const run of leftOutByRun.keys()) if (!runs.has(run)) runs.set(run, []);
  const tasks: ReplayTask[] = [...runs.entries()].map(([id, steps]) => {
    const leftOut = leftOutByRun.get(id) ?? 0;
    return { id, app: apps.get(id) ?? '', steps, ...(leftOut > 0 ? { recordedSteps: steps.length + leftOut } : {}) };
  });
  const invertedPerScreen = [...trees.values()].filter((tree): tree is UiTree => !(tree instanceof ReplayLoadError)).map((tree) => tree.nodes.filter((node) => isInvertedBounds(node.bounds)).length);
  const screenCounts = { read: invertedPerScreen.length, withInvertedBounds: invertedPerScreen.filter((count) => count > 0).length, invertedViews: invertedPerScreen.reduce((sum, count) => sum + count, 0) };
  debugLog('tasks', 'transitions loaded', { file, runs: tasks.length, steps: tasks.reduce((sum, task) => sum + task.steps.length, 0), screens: screens.size });
  const unreadableScreens = [...unreadable.values()].map((failure) => ({ file: failure.line === undefined ? failure.file : `${failure.file}:${failure.line}`, problem: failure.problem }));
  return { name: file, format: 'transitions-jsonl', tasks, skipped, unreadable: unreadableScreens, screens: screenCounts };
}
