import { closeSync, fsyncSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { debugLog } from '../util/debug-log.js';
import { Redactor } from '../util/redactor.js';
import { InvalidTraceEventError } from './invalid-trace-event-error.js';
import { makeRunId } from './make-run-id.js';
import { traceEventSchema, traceVersion, type TraceEvent, type TraceEventInput } from './trace-event.js';

/** The name of the event log inside a run folder. */
export const traceFileName = 'trace.jsonl';

/** The per-step artifacts a run folder may hold (`steps/<nnn>/<name>`). */
export const stepArtifactNames = ['before.xml', 'after.xml', 'view.txt', 'scg.json', 'delta.json', 'predicates.json', 'screenshot.png'] as const;
export type StepArtifactName = (typeof stepArtifactNames)[number];

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
  /** fsync after every event (survives power loss, not just a crash). Default false. */
  readonly fsync?: boolean;
}

/**
 * Writes one run folder `<root>/<suite>/<task>/<run-id>/` (STYLE.md "Debugging
 * artifacts"): `trace.jsonl` with one validated event per line, written through to the
 * OS before `emit` returns (a crash loses nothing already emitted), per-step artifacts
 * under `steps/<nnn>/`, and model calls under `steps/<nnn>/model-calls/<k>.json`.
 * Everything written is secret-redacted except PNG bytes. Throws
 * {@link InvalidTraceEventError} for a malformed event (a bug in the caller).
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
  private fd: number | undefined;
  private readonly modelCallCounts = new Map<string, number>();
  private readonly folders = new Set<string>();
  private eventCount = 0;

  constructor(options: TraceWriterOptions) {
    this.clock = options.clock ?? (() => performance.now());
    this.startedAt = this.clock();
    this.redactor = options.redactor ?? new Redactor(options.secrets ?? []);
    this.fsync = options.fsync ?? false;
    const parent = join(options.root, ...options.suite.split('/').map(safeSegment), safeSegment(options.task));
    const wanted = safeSegment(options.runId ?? makeRunId());
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
    if (this.fd === undefined) throw new Error(`TraceWriter for ${this.dir} is closed; emit events before close().`);
    const stamped = this.redactor.deep({ ...input, v: traceVersion, t: round(this.elapsed()) });
    const parsed = traceEventSchema.safeParse(stamped);
    if (!parsed.success) throw new InvalidTraceEventError({ type: String(input.type), detail: z.prettifyError(parsed.error).replace(/\n/g, ' ') });
    writeSync(this.fd, `${JSON.stringify(parsed.data, binaryReplacer)}\n`);
    if (this.fsync) fsyncSync(this.fd);
    this.eventCount += 1;
    return parsed.data;
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

  /** Flushes and closes the event log. Further `emit` calls throw; artifacts can still be written. */
  close(): void {
    if (this.fd === undefined) return;
    fsyncSync(this.fd);
    closeSync(this.fd);
    this.fd = undefined;
    this.stopListening();
  }

  /**
   * Rewrites every text file of the run folder through the redactor: a password typed in
   * step 5 was in the planner's reply recorded in step 4. PNG bytes are left alone.
   */
  private redactWritten(): void {
    const walk = (folder: string): void => {
      for (const entry of readdirSync(folder, { withFileTypes: true })) {
        const path = join(folder, entry.name);
        if (entry.isDirectory()) walk(path);
        else if (entry.isFile() && !entry.name.endsWith('.png')) {
          const text = readFileSync(path, 'utf8');
          const redacted = this.redactor.text(text);
          if (redacted !== text) writeFileSync(path, redacted);
        }
      }
    };
    walk(this.dir);
  }

  private writeFile(relative: string, content: unknown): void {
    const path = join(this.dir, relative);
    const folder = join(path, '..');
    // Steps write many artifacts into few folders: create each folder once.
    if (!this.folders.has(folder)) {
      mkdirSync(folder, { recursive: true });
      this.folders.add(folder);
    }
    if (content instanceof Uint8Array) writeFileSync(path, content);
    else if (typeof content === 'string') writeFileSync(path, this.redactor.text(content));
    else writeFileSync(path, `${JSON.stringify(this.redactor.deep(content), binaryReplacer, 2)}\n`);
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
