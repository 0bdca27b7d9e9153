import { createHash } from 'node:crypto';
import { existsSync, lstatSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import * as path from 'node:path';
import { findTraceFile, readTrace } from '../trace/read-trace.js';
import type { TraceEvent } from '../trace/trace-event.js';
import { openRunFiles, type RunFiles } from '../trace/run-files.js';
import { storeFolderName } from '../trace/artifact-index.js';
import { utf8Text } from '../util/utf8-text.js';

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
  /** The hierarchy the step observed first (step 0) and the one its action left, read whole up to `maxHierarchyChars`. */
  readonly before?: TextArtifact;
  readonly after?: TextArtifact;
  /** Absolute path of `screenshot.png`, when present as a file (a compact trace keeps it in its store: `screenshotStored`). */
  readonly screenshot?: string;
  /** True when a compact trace holds a screenshot of this step in its store (no file to link). */
  readonly screenshotStored?: true;
  /** The model calls read (prompt and reply), when asked for. */
  readonly modelCalls: readonly TextArtifact[];
  /** Every model call file of the step, relative to the run folder (`steps/003/model-calls/000.json`). */
  readonly modelCallFiles: readonly string[];
}

/** Everything the report shows of one run folder. */
export interface RunArtifacts {
  readonly traceDir: string;
  /** False when the folder has no trace (e.g. the run failed before it started). */
  readonly hasTrace: boolean;
  /** The trace's file name in the folder: `trace.jsonl`, or `trace.jsonl.gz` once a compact run closed. */
  readonly traceFile?: string;
  /** How the run was written: a folder of files (`full`; also when absent), or one trace file with its artifacts in a shared store (nothing to link but trace.jsonl). */
  readonly format?: 'full' | 'compact';
  readonly events: readonly TraceEvent[];
  /** Lines of trace.jsonl that were skipped, and artifacts that could not be read, as sentences. */
  readonly problems: readonly string[];
  /** Steps in order, from the events and the step folders together. */
  readonly steps: readonly StepArtifacts[];
  /** Why the folder was not read at all (it lies outside the confinement), when it was not. */
  readonly refused?: string;
}

/** What to read besides the step artifacts. */
export interface ReadRunOptions {
  /** Read and parse every model call (prompt and reply); default true. Otherwise only their names are listed. */
  readonly modelCalls?: boolean;
  /**
   * Hierarchies already read, by digest (shared by the runs of one report): a screen seen
   * again is not decoded again, and its artifact's `text` is the one string.
   */
  readonly hierarchies?: Map<string, string>;
  /**
   * Read nothing outside this folder: a trace folder elsewhere (a `traceDir` of
   * `../../etc` in an edited results.json) and links leading out of it become `problems`
   * lines (or `refused`) instead of being read.
   */
  readonly within?: string;
  /** Decoded blobs of compact traces by address, shared by the runs of one report. */
  readonly blobs?: Map<string, Uint8Array>;
}

/**
 * Reads a run folder (`trace.jsonl` plus `steps/<nnn>/…`) for the report. Never throws
 * for a missing or damaged trace: what could not be read becomes a `problems` line.
 * The folder is listed once and its files read synchronously: a report reads thousands
 * of small files, and each asynchronous read costs more than the read itself.
 */
export function readRunArtifacts(traceDir: string, options: ReadRunOptions = {}): Promise<RunArtifacts> {
  try {
    return Promise.resolve(readRunArtifactsNow(traceDir, options));
  } catch (error) {
    return Promise.reject(error as Error);
  }
}

function readRunArtifactsNow(traceDir: string, options: ReadRunOptions): RunArtifacts {
  const problems: string[] = [];
  const confinement = options.within === undefined ? undefined : confinedTo(options.within);
  // A link inside the run folder may point anywhere: compare real paths, not spellings.
  const escapes = (file: string, name: string): boolean => {
    const outside = confinement?.(file) ?? false;
    if (outside) problems.push(`${name} leads outside the run folder ${options.within}: not read.`);
    return outside;
  };
  if (confinement?.(traceDir) === true) {
    return { traceDir, hasTrace: false, format: 'full', events: [], problems, steps: [], refused: `the trace folder ${traceDir} lies outside the run folder ${options.within}: not read (results.json names a traceDir outside its own folder; re-run the bench, or put the trace folder back under the run folder).` };
  }
  let events: readonly TraceEvent[] = [];
  const file = findTraceFile(traceDir);
  const traceFile = file === undefined ? undefined : path.basename(file);
  const hasTrace = file !== undefined && traceFile !== undefined && !escapes(file, traceFile);
  let compact: RunFiles | undefined;
  if (hasTrace) {
    const trace = readTrace(traceDir);
    events = trace.events;
    problems.push(...trace.problems.map((problem) => `${traceFile}: ${problem.message}`));
    if (trace.artifacts !== undefined) {
      compact = openRunFiles(traceDir, { artifacts: trace.artifacts, ...(options.blobs === undefined ? {} : { blobs: options.blobs }) });
      // The store beside the task folders (where compact traces put it) belongs to the run even when reading is confined to the run folder.
      const ownStore = trace.artifacts.store === `../../${storeFolderName}` && !isLink(compact.storeDir ?? '');
      if (compact.storeDir !== undefined && !ownStore && escapes(compact.storeDir, `the store ${trace.artifacts.store}`)) compact = undefined;
    }
  }
  const stepNumbers = new Set<number>();
  for (const event of events) if (event.step !== null) stepNumbers.add(event.step);
  const found = traceFile === undefined ? {} : { traceFile };
  if (compact !== undefined) return { traceDir, hasTrace, ...found, format: 'compact', events, problems, steps: compactSteps(compact, stepNumbers, options, problems) };
  const stepsDir = path.join(traceDir, 'steps');
  // Per step folder: its files, and its model calls.
  const listing = new Map<string, { files: string[]; calls: string[] }>();
  if (existsSync(stepsDir) && !escapes(stepsDir, 'steps/')) {
    for (const entry of readdirSync(stepsDir, { withFileTypes: true, recursive: true })) {
      const relative = path.relative(stepsDir, path.join(entry.parentPath, entry.name)).split(path.sep);
      const [folder, second, third] = relative;
      if (folder === undefined || !/^\d+$/.test(folder)) continue;
      // Step files that are links are never read; a model call that is a link is followed
      // only while it stays inside the confinement.
      if (!entry.isFile()) {
        const call = relative.length === 3 && second === 'model-calls' && third?.endsWith('.json') === true;
        if (!call || !entry.isSymbolicLink() || escapes(path.join(entry.parentPath, entry.name), `steps/${relative.join('/')}`)) continue;
      }
      let listed = listing.get(folder);
      if (listed === undefined) {
        listed = { files: [], calls: [] };
        listing.set(folder, listed);
      }
      if (relative.length === 2 && second !== undefined) listed.files.push(second);
      else if (relative.length === 3 && second === 'model-calls' && third?.endsWith('.json')) listed.calls.push(third);
    }
    // A step folder with nothing in it still counts as a step.
    for (const entry of readdirSync(stepsDir, { withFileTypes: true })) {
      if (entry.isDirectory() && /^\d+$/.test(entry.name) && !listing.has(entry.name)) listing.set(entry.name, { files: [], calls: [] });
    }
  }
  const folders = new Map<number, string>();
  for (const name of listing.keys()) {
    folders.set(Number(name), name);
    stepNumbers.add(Number(name));
  }
  const steps: StepArtifacts[] = [];
  for (const step of [...stepNumbers].sort((a, b) => a - b)) {
    const folderName = folders.get(step);
    const listed = folderName === undefined ? undefined : listing.get(folderName);
    steps.push(folderName === undefined || listed === undefined
      ? { step, folder: `steps/${String(step).padStart(3, '0')}`, files: [], modelCalls: [], modelCallFiles: [] }
      : readStep(traceDir, step, folderName, listed, options, problems));
  }
  return { traceDir, hasTrace, ...found, format: 'full', events, problems, steps };
}

/** The steps of a compact trace, listed from its artifact index and read from its store. */
function compactSteps(files: RunFiles, stepNumbers: Set<number>, options: ReadRunOptions, problems: string[]): StepArtifacts[] {
  const listing = new Map<string, { files: string[]; calls: string[] }>();
  for (const name of files.names) {
    const [top, folder, second, third, ...rest] = name.split('/');
    if (top !== 'steps' || folder === undefined || !/^\d+$/.test(folder) || second === undefined || rest.length > 0) continue;
    let listed = listing.get(folder);
    if (listed === undefined) {
      listed = { files: [], calls: [] };
      listing.set(folder, listed);
      stepNumbers.add(Number(folder));
    }
    if (third === undefined) listed.files.push(second);
    else if (second === 'model-calls' && third.endsWith('.json')) listed.calls.push(third);
  }
  const folders = new Map([...listing.keys()].map((name) => [Number(name), name]));
  return [...stepNumbers].sort((a, b) => a - b).map((step) => {
    const folderName = folders.get(step);
    const listed = folderName === undefined ? undefined : listing.get(folderName);
    if (folderName === undefined || listed === undefined) return { step, folder: `steps/${String(step).padStart(3, '0')}`, files: [], modelCalls: [], modelCallFiles: [] };
    const folder = `steps/${folderName}`;
    const source: StepSource = {
      text: (name, limit) => {
        const text = readStoredText(files, `${folder}/${name}`, problems);
        return text === undefined ? undefined : textArtifact(text, `${folder}/${name}`, problems, limit);
      },
      hierarchy: (name) => {
        const address = files.addressOf(`${folder}/${name}`);
        const cached = address === undefined ? undefined : options.hierarchies?.get(address);
        if (cached !== undefined) return sized(cached, `${folder}/${name}`);
        const text = readStoredText(files, `${folder}/${name}`, problems);
        if (text === undefined) return undefined;
        if (address !== undefined) options.hierarchies?.set(address, text);
        return sized(text, `${folder}/${name}`);
      },
      call: (name) => {
        return textArtifact(readStoredText(files, `${folder}/model-calls/${name}`, problems) ?? '', `${folder}/model-calls/${name}`, problems, maxEmbeddedChars);
      },
      screenshot: () => ({ screenshotStored: true }),
    };
    return stepFrom(step, folder, listed, source, options);
  });
}

/** The text of a file of a run, or undefined (with a problem line when a compact trace's store cannot give it). */
function readStoredText(files: RunFiles, name: string, problems: string[]): string | undefined {
  try {
    const bytes = files.read(name);
    return bytes === undefined ? undefined : utf8Text(bytes);
  } catch (error) {
    problems.push(`${name}: ${error instanceof Error ? error.message : String(error)}`);
    return undefined;
  }
}

function sized(full: string, name: string): TextArtifact {
  const truncated = full.length > maxHierarchyChars;
  return { name, text: truncated ? full.slice(0, maxHierarchyChars) : full, truncated };
}

/** True when `file` is a symbolic link (false when it does not exist). */
function isLink(file: string): boolean {
  try {
    return lstatSync(file).isSymbolicLink();
  } catch {
    return false;
  }
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

/** How a step's files are read: from the folder (full traces) or the store (compact). */
interface StepSource {
  text(name: string, limit?: number): TextArtifact | undefined;
  hierarchy(name: string): TextArtifact | undefined;
  call(name: string): TextArtifact;
  screenshot(): { screenshot: string } | { screenshotStored: true };
}

function readStep(traceDir: string, step: number, folderName: string, listed: { files: string[]; calls: string[] }, options: ReadRunOptions, problems: string[]): StepArtifacts {
  const folder = `steps/${folderName}`;
  const absolute = path.join(traceDir, 'steps', folderName);
  const source: StepSource = {
    text: (name, limit = maxEmbeddedChars) => readText(path.join(absolute, name), `${folder}/${name}`, problems, limit),
    hierarchy: (name) => readHierarchyFile(path.join(absolute, name), `${folder}/${name}`, options.hierarchies),
    call: (name) => readText(path.join(absolute, 'model-calls', name), `${folder}/model-calls/${name}`, problems),
    screenshot: () => ({ screenshot: path.join(absolute, 'screenshot.png') }),
  };
  return stepFrom(step, folder, listed, source, options);
}

function stepFrom(step: number, folder: string, listed: { files: string[]; calls: string[] }, source: StepSource, options: ReadRunOptions): StepArtifacts {
  const files = [...listed.files].sort();
  const read = (name: string, limit = maxEmbeddedChars): TextArtifact | undefined => (files.includes(name) ? source.text(name, limit) : undefined);
  const readHierarchy = (name: string): TextArtifact | undefined => (files.includes(name) ? source.hierarchy(name) : undefined);
  const callNames = [...listed.calls].sort();
  const modelCalls = options.modelCalls === false ? [] : callNames.map((name) => source.call(name));
  const view = read('view.txt');
  const delta = read('delta.json');
  const predicates = read('predicates.json');
  const scg = read('scg.json');
  // Hierarchies are drawn, not embedded: read them whole up to a sanity bound.
  const before = readHierarchy('before.xml');
  const after = readHierarchy('after.xml');
  return {
    step,
    folder,
    files,
    ...(view === undefined ? {} : { view }),
    ...(delta === undefined ? {} : { delta }),
    ...(predicates === undefined ? {} : { predicates }),
    ...(scg === undefined ? {} : { scg }),
    ...(before === undefined ? {} : { before }),
    ...(after === undefined ? {} : { after }),
    ...(files.includes('screenshot.png') ? source.screenshot() : {}),
    modelCalls,
    modelCallFiles: callNames.map((name) => `${folder}/model-calls/${name}`),
  };
}

/** A hierarchy file, whole up to `maxHierarchyChars`; decoded once per distinct content when `cache` is given. */
function readHierarchyFile(file: string, name: string, cache: Map<string, string> | undefined): TextArtifact {
  if (cache === undefined) return readText(file, name, [], maxHierarchyChars);
  const bytes = readFileSync(file);
  const digest = createHash('sha1').update(bytes).digest('hex');
  let full = cache.get(digest);
  if (full === undefined) {
    full = bytes.toString('utf8');
    cache.set(digest, full);
  }
  const truncated = full.length > maxHierarchyChars;
  return { name, text: truncated ? full.slice(0, maxHierarchyChars) : full, truncated };
}

function readText(file: string, name: string, problems: string[], limit = maxEmbeddedChars): TextArtifact {
  return textArtifact(readFileSync(file, 'utf8'), name, problems, limit);
}

function textArtifact(full: string, name: string, problems: string[], limit = maxEmbeddedChars): TextArtifact {
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
