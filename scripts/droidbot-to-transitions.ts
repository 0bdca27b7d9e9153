// Converts DroidBot output folders (or DroidTask's user_tasks) into a transitions JSONL with
// its screens as uiautomator XML, the form of recorded transitions docs/verify-replay.md
// describes: the same steps `senseact verify-replay <folder>` replays, each screen converted
// the way `uiautomator dump` would have written it (views with visible: false left out). Use
// it to measure DroidBot recordings in the form XML dumps take, and with --per-app to keep the
// first N steps of each app, as a held-out set of short runs is cut.
//   npx tsx scripts/droidbot-to-transitions.ts <droidbot folder> --out <dir> [--per-app N]
//   node bin/senseact.js verify-replay <dir>/transitions.jsonl
// Writes <dir>/transitions.jsonl and <dir>/xml/<sha1 prefix>.xml (each distinct screen once).
import { createHash } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { writeFileAtomic } from '../src/bench/write-file-atomic.js';
import { loadReplaySource } from '../src/tasks/replay/load-replay-source.js';
import { ReplayLoadError } from '../src/tasks/replay/replay-load-error.js';
import type { ReplayAction, ReplayElement, ReplaySource, ReplayStep } from '../src/tasks/replay/replay-task.js';
import { formatBounds } from '../src/ui/bounds.js';
import { droidBotStateXml } from '../src/ui/droidbot-state-xml.js';
import { oppositeDirection } from '../src/ui/scroll-direction.js';
import type { UiTree } from '../src/ui/ui-tree.js';

/** What a conversion wrote. */
export interface ConversionSummary {
  readonly records: number;
  readonly screens: number;
  readonly apps: number;
  /** Steps of the source left out by --per-app. */
  readonly overCap: number;
  /** State files that did not convert, with the problem (their steps are left out). */
  readonly unconverted: readonly { readonly file: string; readonly problem: string }[];
}

function elementFields(element: ReplayElement | undefined): Record<string, unknown> {
  if (!element) return {};
  const [left, top, right, bottom] = element.bounds;
  return {
    bounds: formatBounds(element.bounds),
    class: element.className || null,
    resource_id: element.resourceId || null,
    text: element.text || null,
    content_desc: element.contentDesc || null,
    point: [Math.round((left + right) / 2), Math.round((top + bottom) / 2)],
  };
}

/** The record's `action`, as docs/verify-replay.md names its fields. */
function actionRecord(action: ReplayAction): Record<string, unknown> {
  switch (action.kind) {
    case 'tap': return { kind: 'tap', ...elementFields(action.element) };
    case 'long-press': return { kind: 'long_press', ...elementFields(action.element) };
    case 'set-text': return { kind: 'set_text', ...elementFields(action.element), typed_text: action.text, typing: action.append ? 'append' : 'replace' };
    case 'key': return { kind: 'key', key: action.key };
    // The record names the way the finger moved; the replay names the way content came into view.
    case 'scroll': return { kind: 'scroll', ...elementFields(action.element), ...(action.direction ? { finger_moves: oppositeDirection(action.direction) } : {}) };
  }
}

function componentOf(tree: UiTree): string | null {
  return tree.activity === '' ? null : `${tree.packageName}/${tree.activity}`;
}

/** Converts each state file to XML once, and writes each distinct screen once (by content). */
class ScreenWriter {
  private readonly written = new Map<string, string | { problem: string }>();
  /** The XML files written, by name (two state files can hold the same screen). */
  private readonly names = new Set<string>();
  readonly unconverted: { file: string; problem: string }[] = [];
  constructor(private readonly out: string) {}

  get count(): number {
    return this.names.size;
  }

  /** The record's path of the converted screen, or undefined when the state does not convert (listed in `unconverted`). */
  async screen(file: string): Promise<string | undefined> {
    let entry = this.written.get(file);
    if (entry === undefined) {
      entry = await this.convert(file);
      this.written.set(file, entry);
      if (typeof entry !== 'string') this.unconverted.push({ file, problem: entry.problem });
    }
    return typeof entry === 'string' ? entry : undefined;
  }

  private async convert(file: string): Promise<string | { problem: string }> {
    let data: unknown;
    try {
      data = JSON.parse(await readFile(file, 'utf8')) as unknown;
    } catch (error) {
      return { problem: `not a DroidBot state JSON (${(error as Error).message})` };
    }
    const converted = droidBotStateXml(data);
    if ('problem' in converted) return { problem: `${converted.path}: ${converted.problem}` };
    const name = `xml/${createHash('sha1').update(converted.xml).digest('hex').slice(0, 16)}.xml`;
    if (!this.names.has(name)) {
      await writeFile(path.join(this.out, name), converted.xml);
      this.names.add(name);
    }
    return name;
  }
}

function record(step: ReplayStep, before: string, after: string, sourceFolder: string, stacks: boolean): Record<string, unknown> {
  return {
    id: path.relative(sourceFolder, step.id) || step.id,
    source: step.id,
    source_format: 'droidbot',
    app_package: step.app,
    before,
    after,
    action: actionRecord(step.action),
    no_visible_effect: before === after,
    foreground_activity_before: componentOf(step.before),
    foreground_activity_after: componentOf(step.after),
    ...(stacks && step.before.activityStack.length > 0 ? { activity_stack_before: step.before.activityStack } : {}),
    ...(stacks && step.after.activityStack.length > 0 ? { activity_stack_after: step.after.activityStack } : {}),
    after_capture: step.afterFromOtherCapture === true ? 'other_capture_same_state_str' : 'at_event',
    before_source: step.beforeFile,
    after_source: step.afterFile,
  };
}

/**
 * Writes `source`'s steps (a DroidBot or DroidTask source, as `loadReplaySource` reads
 * it) to `out`/transitions.jsonl, their screens to `out`/xml/. `perApp` keeps the first
 * steps of each app, in the source's order; `stacks` keeps DroidBot's activity stacks
 * (an XML dump has none, so by default they are left out). The JSONL is written
 * atomically (`writeFileAtomic`), so an interrupted run leaves no partial file. Throws
 * when the source is already a transitions JSONL (its screens are XML already).
 */
export async function writeTransitions(source: ReplaySource, out: string, options: { perApp?: number; stacks?: boolean } = {}): Promise<ConversionSummary> {
  if (source.format !== 'droidbot' && source.format !== 'droidtask') {
    throw new Error(`droidbot-to-transitions: ${source.name} is a ${source.format} source; it converts DroidBot output folders or DroidTask's user_tasks`);
  }
  await mkdir(path.join(out, 'xml'), { recursive: true });
  const screens = new ScreenWriter(out);
  const perApp = new Map<string, number>();
  const lines: string[] = [];
  let overCap = 0;
  for (const task of source.tasks) {
    for (const step of task.steps) {
      const taken = perApp.get(step.app) ?? 0;
      if (options.perApp !== undefined && taken >= options.perApp) {
        overCap += 1;
        continue;
      }
      const before = await screens.screen(step.beforeFile);
      const after = await screens.screen(step.afterFile);
      if (before === undefined || after === undefined) continue;
      perApp.set(step.app, taken + 1);
      lines.push(JSON.stringify(record(step, before, after, source.name, options.stacks === true)));
    }
  }
  await writeFileAtomic(path.join(out, 'transitions.jsonl'), lines.length > 0 ? `${lines.join('\n')}\n` : '');
  return { records: lines.length, screens: screens.count, apps: perApp.size, overCap, unconverted: screens.unconverted };
}

/** Where the script writes: the console, or a test's collector. */
export interface ScriptIo {
  readonly out: (line: string) => void;
  readonly err: (line: string) => void;
}

const consoleIo: ScriptIo = { out: (line) => { console.log(line); }, err: (line) => { console.error(line); } };

/** The script's command line: converts, prints what it wrote, and returns the exit code (2 on a usage or load problem). */
export async function main(args: readonly string[], io: ScriptIo = consoleIo): Promise<number> {
  const option = (name: string): string | undefined => {
    const at = args.indexOf(name);
    return at >= 0 ? args[at + 1] : undefined;
  };
  const input = args.find((arg, index) => !arg.startsWith('--') && !['--out', '--per-app'].includes(args[index - 1] ?? ''));
  const out = option('--out');
  const perAppText = option('--per-app');
  const perApp = perAppText === undefined ? undefined : Number(perAppText);
  if (input === undefined || out === undefined || (perApp !== undefined && !(Number.isInteger(perApp) && perApp > 0))) {
    io.err('droidbot-to-transitions: usage: npx tsx scripts/droidbot-to-transitions.ts <droidbot folder> --out <dir> [--per-app N (a positive integer)] [--stacks]');
    return 2;
  }
  let source: ReplaySource;
  try {
    source = await loadReplaySource(input);
  } catch (error) {
    if (!ReplayLoadError.isInstance(error)) throw error;
    io.err(`droidbot-to-transitions: ${error.file}: ${error.problem}`);
    return 2;
  }
  const summary = await writeTransitions(source, out, { ...(perApp === undefined ? {} : { perApp }), stacks: args.includes('--stacks') });
  io.out(`${path.join(out, 'transitions.jsonl')}: ${summary.records} records, ${summary.screens} screens, ${summary.apps} apps`
    + `${summary.overCap > 0 ? `; ${summary.overCap} steps over --per-app left out` : ''}; ${source.skipped.length} recorded events not UI actions or without a screen, ${source.unreadable.length} unreadable files`);
  for (const entry of summary.unconverted) io.err(`  not converted: ${entry.file}: ${entry.problem}`);
  return 0;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  process.exitCode = await main(process.argv.slice(2));
}
