import { appendFileSync, close as closeAsync, existsSync, fsync as fsyncAsync, fsyncSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, writeFile as writeFileAsync, writeFileSync, writeSync } from 'node:fs';
import { open as openAsync, readFile as readFileAsync, unlink as unlinkAsync } from 'node:fs/promises';
import { join } from 'node:path';
import { relative as relativePath } from 'node:path';
import { gzip, gzipSync } from 'node:zlib';
import { z } from 'zod';
import { debugLog } from '../util/debug-log.js';
import { Redactor } from '../util/redactor.js';
import { ArtifactStore, type BlobRef } from './artifact-store.js';
import { artifactIndexLine, storeFolderName, type ArtifactIndex } from './artifact-index.js';
import { InvalidTraceEventError } from './invalid-trace-event-error.js';
import { makeRunId } from './make-run-id.js';
import { traceEventSchema, traceVersion, type TraceEvent, type TraceEventInput } from './trace-event.js';

/** The name of the event log inside a run folder. */
export const traceFileName = 'trace.jsonl';

/** The event log of a compact run once it closed: `trace.jsonl`, gzip-compressed (`zcat` reads it). */
export const compressedTraceFileName = 'trace.jsonl.gz';

/** The per-step artifacts a run folder may hold (`steps/<nnn>/<name>`). */
export const stepArtifactNames = ['before.xml', 'after.xml', 'view.txt', 'scg.json', 'delta.json', 'predicates.json', 'screenshot.png'] as const;
export type StepArtifactName = (typeof stepArtifactNames)[number];

/**
 * How a run is written: `full`, a folder of files (`trace.jsonl`, `steps/<nnn>/…`);
 * `compact`, one file per run (`trace.jsonl` while it runs: the events, then one line
 * naming its artifacts; `trace.jsonl.gz` once it closed) with screens, model calls and
 * other artifacts compressed in a store shared by the runs beside it (`_store/`,
 * identical content stored once); `none`, nothing on
 * disk (events still validated and passed to `onEvent`).
 */
export const traceFormats = ['full', 'compact', 'none'] as const;
export type TraceFormat = (typeof traceFormats)[number];

export interface TraceWriterOptions {
  /** The runs root, e.g. `runs`. */
  readonly root: string;
  /** Suite name; `/` makes nested folders (`sim/settings`). */
  readonly suite: string;
  readonly task: string;
  /** Default: {@link makeRunId} from the current time. */
  readonly runId?: string;
  /** What to do when the run folder exists: add `-1`, `-2`, ... (default), fail, or replace it. */
  readonly ifExists?: 'suffix' | 'error' | 'replace';
  /** Monotonic clock in milliseconds for `t`. Default `performance.now`. */
  readonly clock?: () => number;
  /** Exact secret values to redact besides anything that looks like a key (ignored when `redactor` is given). */
  readonly secrets?: readonly string[];
  /**
   * The run's redaction pass, shared with the other writers of the run. When it learns a
   * new secret or password, everything this writer already wrote is rewritten through it.
   */
  readonly redactor?: Redactor;
  /** Write and fsync every event as it comes (survives power loss at any point). Default false: batches, one fsync at close. */
  readonly fsync?: boolean;
  /** Told of every event once it is validated and batched (a live view, progress); it must not throw. */
  readonly onEvent?: (event: TraceEvent) => void;
  /** What goes to disk (see {@link TraceFormat}); default `full`. */
  readonly format?: TraceFormat;
  /** The store of a compact trace; default `_store` beside the task folders (`<root>/<suite>/_store`). */
  readonly storeDir?: string;
}

/** Event types that end a batch: the events up to them are written at once. */
const batchEnds: ReadonlySet<string> = new Set(['step-end', 'task-end', 'run-end', 'error']);
/** A batch is also written when it grows past this many bytes. */
const maxBatchBytes = 64 * 1024;

/**
 * Writes one run folder `<root>/<suite>/<task>/<run-id>/` (docs/architecture.md §9):
 * `trace.jsonl` with one validated event per line, per-step artifacts under
 * `steps/<nnn>/`, and model calls under `steps/<nnn>/model-calls/<k>.json`. Everything
 * written is secret-redacted except PNG bytes. Throws {@link InvalidTraceEventError} for
 * a malformed event (a bug in the caller).
 *
 * Writing stays off the agent's path. Events are kept in a batch that is written in one
 * call when a step ends (`step-end`), at `task-end`, `run-end` and `error`, and past
 * 64 KB; artifacts are handed to the I/O thread pool and written while the agent goes
 * on; `close()` waits for all of it and fsyncs the event log once. What a crash loses:
 * the events of the step in progress (the last batch) and artifacts still being written;
 * every batch written before it is in the operating system. `fsync: true` writes and
 * fsyncs every event at once instead (power-loss safe, slow).
 */
export class TraceWriter {
  /** The run folder (absolute or relative as `root` was). */
  readonly dir: string;
  readonly runId: string;
  private readonly clock: () => number;
  private readonly startedAt: number;
  /** The redaction every written byte goes through. */
  readonly redactor: Redactor;
  private readonly stopListening: () => void;
  private readonly fsync: boolean;
  private readonly onEvent: ((event: TraceEvent) => void) | undefined;
  /** What goes to disk. */
  readonly format: TraceFormat;
  /** The store a compact trace puts its artifacts in. */
  readonly storeDir: string;
  /** A compact trace's artifacts, redacted, until they go to the store at `close()`. */
  private readonly pending = new Map<string, string | Uint8Array>();
  /** Set once `close()` began: later artifacts of a compact trace go to the store at once. */
  private closing = false;
  /** A compact trace's event log being compressed (set by `close()`): a line appended later waits for it. */
  private compressing: Promise<void> | undefined;
  private fd: number | undefined;
  private readonly modelCallCounts = new Map<string, number>();
  private readonly folders = new Set<string>();
  private eventCount = 0;
  private batch: string[] = [];
  private batchBytes = 0;
  /** Artifact writes handed to the thread pool and not yet finished; a file written twice waits for its first write. */
  private readonly inFlight = new Map<string, Promise<void>>();
  /** The first artifact write that failed: `close()` rethrows it. */
  private failure: unknown;

  constructor(options: TraceWriterOptions) {
    this.clock = options.clock ?? (() => performance.now());
    this.startedAt = this.clock();
    this.redactor = options.redactor ?? new Redactor(options.secrets ?? []);
    this.fsync = options.fsync ?? false;
    this.onEvent = options.onEvent;
    this.format = options.format ?? 'full';
    const suiteFolder = join(options.root, ...options.suite.split('/').map(safeSegment));
    const taskSegment = safeSegment(options.task);
    if (this.format === 'compact' && options.storeDir === undefined && taskSegment === storeFolderName) {
      throw new Error(`Task id ${JSON.stringify(options.task)} names the compact trace store's folder (${join(suiteFolder, storeFolderName)}): rename the task, or pass storeDir.`);
    }
    this.storeDir = options.storeDir ?? join(suiteFolder, storeFolderName);
    const parent = join(suiteFolder, taskSegment);
    const wanted = safeSegment(options.runId ?? makeRunId());
    if (this.format === 'none') {
      this.runId = wanted;
      this.dir = join(parent, wanted);
      this.stopListening = () => undefined;
      return;
    }
    const ifExists = options.ifExists ?? 'suffix';
    mkdirSync(parent, { recursive: true });
    if (ifExists === 'replace') rmSync(join(parent, wanted), { recursive: true, force: true });
    // Claim the folder with a non-recursive mkdir: atomic, so concurrent writers of the
    // same task never share a run folder.
    let runId = wanted;
    for (let suffix = 1; !claimFolder(join(parent, runId)); suffix++) {
      if (ifExists !== 'suffix') {
        throw new Error(`Run folder ${join(parent, runId)} already exists: pass another runId, or ifExists 'suffix' or 'replace'.`);
      }
      runId = `${wanted}-${suffix}`;
    }
    this.runId = runId;
    this.dir = join(parent, runId);
    this.folders.add(this.dir);
    this.fd = openSync(join(this.dir, traceFileName), 'a');
    this.stopListening = this.redactor.onChange(() => this.redactWritten());
    debugLog('trace', 'run folder opened', { dir: this.dir });
  }

  /** Events written so far. */
  get events(): number {
    return this.eventCount;
  }

  /** Milliseconds since the writer was created, by its clock. */
  elapsed(): number {
    return Math.max(0, this.clock() - this.startedAt);
  }

  /** Stamps (`v`, `t`), redacts, validates and appends one event; returns it as written. */
  emit(input: TraceEventInput): TraceEvent {
    if (this.format === 'none') return this.validate(input);
    if (this.fd === undefined) throw new Error(`TraceWriter for ${this.dir} is closed; emit events before close().`);
    const stamped = this.redactor.deep({ ...input, v: traceVersion, t: round(this.elapsed()) });
    const parsed = traceEventSchema.safeParse(stamped);
    if (!parsed.success) throw new InvalidTraceEventError({ type: String(input.type), detail: z.prettifyError(parsed.error).replace(/\n/g, ' ') });
    const line = `${JSON.stringify(parsed.data, binaryReplacer)}\n`;
    this.batch.push(line);
    this.batchBytes += line.length;
    this.eventCount += 1;
    if (this.fsync || this.batchBytes >= maxBatchBytes || batchEnds.has(parsed.data.type)) this.writeBatch();
    this.onEvent?.(parsed.data);
    return parsed.data;
  }

  /** A format `none` writer's emit: validated and passed on, not written. */
  private validate(input: TraceEventInput): TraceEvent {
    if (this.closing) throw new Error(`TraceWriter for ${this.dir} is closed; emit events before close().`);
    const stamped = this.redactor.deep({ ...input, v: traceVersion, t: round(this.elapsed()) });
    const parsed = traceEventSchema.safeParse(stamped);
    if (!parsed.success) throw new InvalidTraceEventError({ type: String(input.type), detail: z.prettifyError(parsed.error).replace(/\n/g, ' ') });
    this.eventCount += 1;
    this.onEvent?.(parsed.data);
    return parsed.data;
  }

  /**
   * Writes the events kept in the batch now (one call), for a reader of `trace.jsonl`
   * during the run (a test, a live view). No fsync.
   */
  flush(): void {
    this.writeBatch();
  }

  /** Writes the events not yet written (one call). */
  private writeBatch(): void {
    if (this.fd === undefined || this.batch.length === 0) return;
    writeSync(this.fd, this.batch.length === 1 ? (this.batch[0] ?? '') : this.batch.join(''));
    this.batch = [];
    this.batchBytes = 0;
    if (this.fsync) fsyncSync(this.fd);
  }

  /**
   * Writes `steps/<nnn>/<name>`: text as is, bytes as is (PNG), anything else as
   * indented JSON. Returns the path relative to the run folder (for event `artifact` fields).
   */
  writeStepArtifact(step: number, name: StepArtifactName, content: string | Uint8Array | unknown): string {
    const relative = join(stepFolder(step), name);
    this.writeFile(relative, content);
    return relative;
  }

  /**
   * Writes one model call (prompt, reply, tokens, latency: a `ModelCallRecord`) as
   * `steps/<nnn>/model-calls/<k>.json`, or `model-calls/<k>.json` outside a step, with
   * `k` counting from 0 per folder. Returns the path relative to the run folder.
   */
  writeModelCall(step: number | null, record: unknown): string {
    const folder = step === null ? 'model-calls' : join(stepFolder(step), 'model-calls');
    const k = this.modelCallCounts.get(folder) ?? 0;
    this.modelCallCounts.set(folder, k + 1);
    const relative = join(folder, `${String(k).padStart(3, '0')}.json`);
    this.writeFile(relative, record);
    return relative;
  }

  /** Writes any other file of the run (e.g. `result.json`), relative to the run folder, redacted. */
  writeRunFile(relativePath: string, content: string | Uint8Array | unknown): string {
    if (relativePath.split(/[\\/]/).some((part) => part === '..' || part === '')) {
      throw new Error(`TraceWriter.writeRunFile: ${JSON.stringify(relativePath)} must be a relative path inside the run folder.`);
    }
    this.writeFile(relativePath, content);
    return relativePath;
  }

  /**
   * Writes the last batch, waits for every artifact write, fsyncs and closes the event
   * log (a compact trace's is compressed to `trace.jsonl.gz` then). Further `emit` calls throw; artifacts can still be written (and are awaited by
   * `settled()`). Rejects with the first artifact write that failed.
   */
  async close(): Promise<void> {
    const fd = this.fd;
    this.closing = true;
    if (fd === undefined) return await this.settled();
    this.writeBatch();
    this.fd = undefined;
    this.stopListening();
    await this.settled();
    if (this.format === 'compact') {
      await this.storePending(fd);
      await new Promise<void>((resolve, reject) => closeAsync(fd, (error) => (error ? reject(error) : resolve())));
      this.compressing = this.compressEvents();
      return await this.compressing;
    }
    await new Promise<void>((resolve, reject) => fsyncAsync(fd, (error) => (error ? reject(error) : resolve())));
    await new Promise<void>((resolve, reject) => closeAsync(fd, (error) => (error ? reject(error) : resolve())));
  }

  /**
   * Replaces a closed compact trace's `trace.jsonl` by `trace.jsonl.gz` (a quarter of its
   * bytes). The compressed file is written and fsynced before the plain one is removed,
   * and readers take the plain one while it is there: a crash at any point leaves one
   * whole trace. Redaction is over by then (the writer stopped listening at close).
   */
  private async compressEvents(): Promise<void> {
    const plain = join(this.dir, traceFileName);
    const text = await readFileAsync(plain);
    const packed = await new Promise<Buffer>((resolve, reject) => gzip(text, (error, result) => (error ? reject(error) : resolve(result))));
    const file = await openAsync(join(this.dir, compressedTraceFileName), 'w');
    try {
      await file.writeFile(packed);
      await file.sync();
    } finally {
      await file.close();
    }
    await unlinkAsync(plain);
  }

  /** Resolves when every artifact write so far has finished; rejects with the first that failed. */
  async settled(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all(this.inFlight.values());
    if (this.failure !== undefined) throw this.failure;
  }

  /**
   * Puts a compact trace's artifacts in the store and appends the line that names them
   * to the event log (`fd`, or the file reopened when written after close): screens
   * (`.xml`, `.png`) one blob each, shared with every run that saw the same content, the
   * rest (model calls, views, verdicts, `result.json`) as one bundle of the run.
   */
  private async storePending(fd?: number): Promise<void> {
    if (this.pending.size === 0) return;
    const entries = [...this.pending];
    this.pending.clear();
    const store = ArtifactStore.at(this.storeDir);
    const bundle: Record<string, string> = {};
    const files: Record<string, BlobRef | 'bundle'> = {};
    const blobs: Promise<void>[] = [];
    for (const [name, data] of entries) {
      if (typeof data === 'string' && !/\.(xml|png)$/.test(name)) {
        bundle[name] = data;
        files[name] = 'bundle';
      } else {
        blobs.push(store.put(typeof data === 'string' ? Buffer.from(data, 'utf8') : data).then((ref) => {
          files[name] = ref;
        }));
      }
    }
    const index: ArtifactIndex = { store: relativePath(this.dir, this.storeDir).split(/[\\/]/).join('/'), files };
    const bundled = Object.keys(bundle).length === 0 ? undefined : store.put(Buffer.from(JSON.stringify(bundle), 'utf8'));
    await Promise.all(blobs);
    const line = artifactIndexLine(bundled === undefined ? index : { ...index, bundle: await bundled });
    // The blobs are on disk before a line names them.
    await store.sync();
    if (fd !== undefined) {
      writeSync(fd, line);
      return;
    }
    // After close: to the event log as it is now, plain or compressed (a gzip member of its own).
    await this.compressing;
    const plain = join(this.dir, traceFileName);
    if (existsSync(plain)) appendFileSync(plain, line);
    else appendFileSync(join(this.dir, compressedTraceFileName), gzipSync(line));
  }

  /**
   * Rewrites every text file of the run folder through the redactor: a password typed in
   * step 5 was in the planner's reply recorded in step 4. PNG bytes are left alone. The
   * events not yet written are redacted again; a file still being written is rewritten
   * once its write ends (reading it now could see half of it).
   */
  private redactWritten(): void {
    this.batch = this.batch.map((line) => this.redactor.text(line));
    for (const [name, data] of this.pending) if (typeof data === 'string') this.pending.set(name, this.redactor.text(data));
    const rewrite = (path: string): void => {
      const text = readFileSync(path, 'utf8');
      const redacted = this.redactor.text(text);
      if (redacted !== text) writeFileSync(path, redacted);
    };
    // A file still being written may not exist yet (its open runs on the pool): those are
    // taken from the writes in flight, not from the folder listing.
    for (const [path, writing] of [...this.inFlight]) if (!path.endsWith('.png')) this.track(path, writing.then(() => rewrite(path)));
    const walk = (folder: string): void => {
      for (const entry of readdirSync(folder, { withFileTypes: true })) {
        const path = join(folder, entry.name);
        if (entry.isDirectory()) walk(path);
        else if (entry.isFile() && !entry.name.endsWith('.png') && !this.inFlight.has(path)) rewrite(path);
      }
    };
    walk(this.dir);
  }

  private writeFile(relative: string, content: unknown): void {
    if (this.format === 'none') return;
    const data = content instanceof Uint8Array ? content
      : typeof content === 'string' ? this.redactor.text(content)
      : `${JSON.stringify(this.redactor.deep(content), binaryReplacer, 2)}\n`;
    if (this.format === 'compact') {
      this.pending.set(relative.split(/[\\/]/).join('/'), data);
      if (this.closing) this.track(join(this.dir, relative), this.storePending());
      return;
    }
    const path = join(this.dir, relative);
    this.ensureFolder(join(path, '..'));
    // fs.writeFile opens, writes and closes on the I/O pool: this thread only hands the bytes over.
    const write = (): Promise<void> => new Promise((resolve, reject) => writeFileAsync(path, data, (error) => (error ? reject(error) : resolve())));
    const previous = this.inFlight.get(path);
    this.track(path, previous === undefined ? write() : previous.then(write));
  }

  /** Keeps `write` of `path` in flight until it settles; its failure is kept for `close()`. */
  private track(path: string, write: Promise<void>): void {
    const written: Promise<void> = write
      .catch((error: unknown) => {
        this.failure ??= error;
      })
      .finally(() => {
        if (this.inFlight.get(path) === written) this.inFlight.delete(path);
      });
    this.inFlight.set(path, written);
  }

  /** Creates a folder of the run once, its parents first (each one level, no recursive search). */
  private ensureFolder(folder: string): void {
    if (this.folders.has(folder)) return;
    const parent = join(folder, '..');
    if (parent !== folder && !this.folders.has(parent) && parent.length >= this.dir.length) this.ensureFolder(parent);
    try {
      mkdirSync(folder);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    this.folders.add(folder);
  }
}

/** Creates `path` unless it exists; true when this call created it. */
function claimFolder(path: string): boolean {
  try {
    mkdirSync(path);
    return true;
  } catch (error) {
    if (typeof error === 'object' && error !== null && 'code' in error && error.code === 'EEXIST') return false;
    throw error;
  }
}

/** `steps/003` for step 3. */
export function stepFolder(step: number): string {
  if (!Number.isInteger(step) || step < 0) throw new Error(`Step number must be a non-negative integer, got ${step}.`);
  return join('steps', String(step).padStart(3, '0'));
}

function safeSegment(name: string): string {
  const cleaned = name.replace(/[^A-Za-z0-9._-]/g, '_');
  if (cleaned === '' || cleaned === '.' || cleaned === '..') throw new Error(`Invalid run folder name ${JSON.stringify(name)}: use letters, digits, '.', '_' or '-'.`);
  return cleaned;
}

function round(milliseconds: number): number {
  return Math.round(milliseconds * 1000) / 1000;
}

/** Binary data in JSON artifacts becomes its size; the bytes belong in their own files. */
function binaryReplacer(_key: string, value: unknown): unknown {
  if (value instanceof Uint8Array) return { binaryBytes: value.byteLength };
  return value;
}
