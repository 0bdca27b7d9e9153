import { existsSync, realpathSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import * as path from 'node:path';
import { readTrace } from '../trace/read-trace.js';
import type { TraceEvent } from '../trace/trace-event.js';
import { traceFileName } from '../trace/trace-writer.js';

/** Embedded text artifacts are cut at this many characters; the file stays linked in full. */
export const maxEmbeddedChars = 64 * 1024;

/** Hierarchies larger than this are not drawn (real screens are 20–200 KB). */
export const maxHierarchyChars = 4 * 1024 * 1024;

/** A text artifact as read: its text (maybe cut) and, for JSON, the parsed value. */
export interface TextArtifact {
  readonly name: string;
  readonly text: string;
  readonly truncated: boolean;
  /** The parsed JSON, when the file is JSON and parses. */
  readonly json?: unknown;
}

/** What one step folder `steps/<nnn>/` holds. */
export interface StepArtifacts {
  readonly step: number;
  /** The step folder relative to the run folder, `/`-separated (e.g. `steps/003`). */
  readonly folder: string;
  /** Names of the files present (artifact names, not model calls). */
  readonly files: readonly string[];
  readonly view?: TextArtifact;
  readonly delta?: TextArtifact;
  readonly predicates?: TextArtifact;
  readonly scg?: TextArtifact;
  /** The hierarchy after the step (or before, when there is no after): for the wireframe. */
  readonly hierarchy?: TextArtifact;
  /** Absolute path of `screenshot.png`, when present. */
  readonly screenshot?: string;
  readonly modelCalls: readonly TextArtifact[];
}

/** Everything the report shows of one run folder. */
export interface RunArtifacts {
  readonly traceDir: string;
  /** False when the folder has no trace.jsonl (e.g. the run failed before it started). */
  readonly hasTrace: boolean;
  readonly events: readonly TraceEvent[];
  /**
   * Lines of trace.jsonl that were skipped, artifacts that could not be read, and paths
   * that were not followed because they lead outside the folder the reader was confined to.
   */
  readonly problems: readonly string[];
  /** Steps in order, from the events and the step folders together. */
  readonly steps: readonly StepArtifacts[];
  /** Why the folder was not read at all (it lies outside the confinement), when it was not. */
  readonly refused?: string;
}

/** Where `readRunArtifacts` may read. */
export interface ReadRunArtifactsOptions {
  /**
   * Read nothing outside this folder: a trace folder elsewhere (a `traceDir` of
   * `../../etc` in an edited results.json) and links leading out of it become `problems`
   * lines instead of being read.
   */
  readonly within?: string;
}

/**
 * Reads a run folder (`trace.jsonl` plus `steps/<nnn>/…`) for the report. Never throws
 * for a missing or damaged trace: what could not be read becomes a `problems` line.
 */
export async function readRunArtifacts(traceDir: string, options: ReadRunArtifactsOptions = {}): Promise<RunArtifacts> {
  const problems: string[] = [];
  const confinement = options.within === undefined ? undefined : confinedTo(options.within);
  // A link inside the run folder may point anywhere: compare real paths, not spellings.
  const escapes = (file: string, name: string): boolean => {
    const outside = confinement?.(file) ?? false;
    if (outside) problems.push(`${name} leads outside the run folder ${options.within}: not read.`);
    return outside;
  };
  if (confinement?.(traceDir) === true) {
    return { traceDir, hasTrace: false, events: [], problems, steps: [], refused: `the trace folder ${traceDir} lies outside the run folder ${options.within}: not read (results.json names a traceDir outside its own folder; re-run the bench, or put the trace folder back under the run folder).` };
  }
  let events: readonly TraceEvent[] = [];
  const hasTrace = existsSync(path.join(traceDir, traceFileName)) && !escapes(path.join(traceDir, traceFileName), traceFileName);
  if (hasTrace) {
    const trace = readTrace(traceDir);
    events = trace.events;
    problems.push(...trace.problems.map((problem) => `${traceFileName}: ${problem.message}`));
  }
  const stepNumbers = new Set<number>();
  for (const event of events) if (event.step !== null) stepNumbers.add(event.step);
  const stepsDir = path.join(traceDir, 'steps');
  const folders = new Map<number, string>();
  if (existsSync(stepsDir) && !escapes(stepsDir, 'steps/')) {
    for (const entry of await readdir(stepsDir, { withFileTypes: true })) {
      if (!entry.isDirectory() || !/^\d+$/.test(entry.name)) continue;
      const step = Number(entry.name);
      folders.set(step, entry.name);
      stepNumbers.add(step);
    }
  }
  const steps: StepArtifacts[] = [];
  for (const step of [...stepNumbers].sort((a, b) => a - b)) {
    const folderName = folders.get(step);
    steps.push(folderName === undefined
      ? { step, folder: `steps/${String(step).padStart(3, '0')}`, files: [], modelCalls: [] }
      : await readStep(traceDir, step, folderName, problems, escapes));
  }
  return { traceDir, hasTrace, events, problems, steps };
}

/** A test of whether a path's real location lies outside `folder` (a missing path by its spelling). */
function confinedTo(folder: string): (file: string) => boolean {
  const real = (file: string): string => {
    try {
      return realpathSync(file);
    } catch {
      return path.resolve(file);
    }
  };
  const root = real(folder);
  return (file) => {
    const relative = path.relative(root, real(file));
    return relative === '..' || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative);
  };
}

async function readStep(traceDir: string, step: number, folderName: string, problems: string[], escapes: (file: string, name: string) => boolean): Promise<StepArtifacts> {
  const folder = `steps/${folderName}`;
  const absolute = path.join(traceDir, 'steps', folderName);
  const entries = await readdir(absolute, { withFileTypes: true });
  // Links are not files here (Dirent.isFile is false for them): a link is never read.
  const files = entries.filter((entry) => entry.isFile()).map((entry) => entry.name).sort();
  const read = async (name: string, limit = maxEmbeddedChars): Promise<TextArtifact | undefined> => (files.includes(name) ? readText(path.join(absolute, name), `${folder}/${name}`, problems, limit) : undefined);
  const modelCalls: TextArtifact[] = [];
  if (entries.some((entry) => entry.isDirectory() && entry.name === 'model-calls')) {
    const calls = await readdir(path.join(absolute, 'model-calls'), { withFileTypes: true });
    const names = calls.filter((entry) => entry.name.endsWith('.json') && (entry.isFile() || !escapes(path.join(absolute, 'model-calls', entry.name), `${folder}/model-calls/${entry.name}`))).map((entry) => entry.name).sort();
    for (const name of names) modelCalls.push(await readText(path.join(absolute, 'model-calls', name), `${folder}/model-calls/${name}`, problems));
  }
  const view = await read('view.txt');
  const delta = await read('delta.json');
  const predicates = await read('predicates.json');
  const scg = await read('scg.json');
  // The hierarchy is drawn, not embedded: read it whole up to a sanity bound.
  const hierarchy = (await read('after.xml', maxHierarchyChars)) ?? (await read('before.xml', maxHierarchyChars));
  return {
    step,
    folder,
    files,
    ...(view === undefined ? {} : { view }),
    ...(delta === undefined ? {} : { delta }),
    ...(predicates === undefined ? {} : { predicates }),
    ...(scg === undefined ? {} : { scg }),
    ...(hierarchy === undefined ? {} : { hierarchy }),
    ...(files.includes('screenshot.png') ? { screenshot: path.join(absolute, 'screenshot.png') } : {}),
    modelCalls,
  };
}

async function readText(file: string, name: string, problems: string[], limit = maxEmbeddedChars): Promise<TextArtifact> {
  const full = await readFile(file, 'utf8');
  const truncated = full.length > limit;
  const text = truncated ? full.slice(0, limit) : full;
  if (!name.endsWith('.json')) return { name, text, truncated };
  try {
    return { name, text, truncated, json: JSON.parse(full) as unknown };
  } catch (error) {
    problems.push(`${name} is not valid JSON (${error instanceof Error ? error.message : String(error)}); shown as text.`);
    return { name, text, truncated };
  }
}
