import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { constants as zlibConstants, gunzipSync } from 'node:zlib';
import { z } from 'zod';
import { artifactIndexSchema, bundledPrefix, type ArtifactIndex } from './artifact-index.js';
import { traceEventSchema, traceVersion, type TraceEvent } from './trace-event.js';
import { compressedTraceFileName, traceFileName } from './trace-writer.js';
import { utf8Text } from '../util/utf8-text.js';
import { asPathKindError } from '../util/path-kind-error.js';

/** A line of a trace that could not be used. */
export interface TraceProblem {
  /** One-based line number in the trace (decompressed). */
  readonly line: number;
  readonly kind: 'torn-last-line' | 'not-json' | 'unknown-version' | 'invalid-event' | 'invalid-artifacts';
  readonly message: string;
}

export interface TraceReadResult {
  /** The trace file read. */
  readonly path: string;
  /** Every valid event, in file order. */
  readonly events: readonly TraceEvent[];
  /** Lines skipped, with why. A torn last line (a crash mid-write) is one of them, not an error. */
  readonly problems: readonly TraceProblem[];
  /** True when the last line was cut off (the run crashed while writing it). */
  readonly tornLastLine: boolean;
  /** A compact trace's artifacts (its `{"artifacts":…}` lines merged; a bundled file as `bundle@<address>`); absent for a full trace or a run that never closed. */
  readonly artifacts?: ArtifactIndex;
}

/**
 * The event log of the run folder `dir`: `trace.jsonl` (a run still open, a full trace,
 * or a compact one whose compression did not finish), else `trace.jsonl.gz` (a compact
 * run that closed); undefined when it holds neither.
 */
export function findTraceFile(dir: string): string | undefined {
  for (const name of [traceFileName, compressedTraceFileName]) {
    const file = join(dir, name);
    if (existsSync(file)) return file;
  }
  return undefined;
}

/**
 * The file a path to a run's `trace.jsonl` stands for: that file, or, once a compact run
 * closed and compressed it, the `trace.jsonl.gz` beside it (a path written before the run
 * closed, or from habit, still reads).
 */
export function closedTracePath(file: string): string {
  if (existsSync(file) || basename(file) !== traceFileName) return file;
  return findTraceFile(dirname(file)) ?? file;
}

/**
 * Reads the trace of a run folder (or the file itself: `trace.jsonl`, or gzip-compressed
 * as `trace.jsonl.gz`, whose torn end reads as a torn last line). Tolerates a torn last line
 * (cut inside its JSON: skipped and reported); a last line that lost only its newline
 * is whole and kept, since writers never append to an existing trace;
 * validates every event against the schema and reports, rather than throws on, lines
 * that are not JSON, have an unknown version, or do not validate. Throws when the file
 * does not exist.
 */
export function readTrace(dirOrFile: string): TraceReadResult {
  const path = existsSync(dirOrFile) && statSync(dirOrFile).isDirectory() ? (findTraceFile(dirOrFile) ?? join(dirOrFile, traceFileName)) : closedTracePath(dirOrFile);
  if (!existsSync(path)) throw new Error(`No trace at ${path}: pass a run folder (runs/bench-<suite>-<time>/traces/<task>/<mode>-r<repeat>) or its ${traceFileName} (${compressedTraceFileName} once a compact run closed).`);
  let text: string;
  try {
    text = traceText(readFileSync(path), path);
  } catch (error) {
    throw asPathKindError(error, path, 'trace');
  }
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  const events: TraceEvent[] = [];
  const problems: TraceProblem[] = [];
  let tornLastLine = false;
  let artifacts: ArtifactIndex | undefined;
  lines.forEach((line, index) => {
    const number = index + 1;
    if (line.trim() === '') return;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch (error) {
      if (index === lines.length - 1 && !text.endsWith('\n')) {
        tornLastLine = true;
        problems.push({ line: number, kind: 'torn-last-line', message: `Line ${number} is cut off (the run stopped while writing it); skipped.` });
      } else {
        problems.push({ line: number, kind: 'not-json', message: `Line ${number} is not JSON (${error instanceof Error ? error.message : String(error)}).` });
      }
      return;
    }
    if (typeof json === 'object' && json !== null && 'artifacts' in json && !('v' in json)) {
      const index = artifactIndexSchema.safeParse(json.artifacts);
      if (index.success) artifacts = mergeIndexes(artifacts, index.data);
      else problems.push({ line: number, kind: 'invalid-artifacts', message: `Line ${number} (the run's artifacts) is not a valid artifact index: ${z.prettifyError(index.error).replace(/\n/g, ' ')}` });
      return;
    }
    const version = typeof json === 'object' && json !== null && 'v' in json ? json.v : undefined;
    if (version !== traceVersion) {
      problems.push({
        line: number,
        kind: 'unknown-version',
        message: `Line ${number} has trace version ${JSON.stringify(version)}; this reader understands v${traceVersion}. Use the senseact version that wrote the trace.`,
      });
      return;
    }
    const parsed = traceEventSchema.safeParse(json);
    if (!parsed.success) {
      const type = typeof json === 'object' && json !== null && 'type' in json ? JSON.stringify(json.type) : '(none)';
      problems.push({ line: number, kind: 'invalid-event', message: `Line ${number} (type ${type}) is not a valid event: ${z.prettifyError(parsed.error).replace(/\n/g, ' ')}` });
      return;
    }
    events.push(parsed.data);
  });
  return { path, events, problems, tornLastLine, ...(artifacts === undefined ? {} : { artifacts }) };
}

/**
 * The artifact lines of one run as one index (several when artifacts were written after
 * close; the later names win). A bundled file's entry becomes `bundle@<address of its
 * bundle>`, so every entry says where it is.
 */
function mergeIndexes(earlier: ArtifactIndex | undefined, later: ArtifactIndex): ArtifactIndex {
  const files = Object.fromEntries(Object.entries(later.files).map(([name, ref]) => [name, ref === 'bundle' && later.bundle !== undefined ? `${bundledPrefix}${later.bundle}` : ref]));
  return { store: later.store, files: { ...earlier?.files, ...files } };
}

/** A trace file's text: gzip (its magic bytes) decompressed as far as it goes, anything else as UTF-8. */
export function traceText(bytes: Uint8Array, path: string): string {
  if (bytes[0] !== 0x1f || bytes[1] !== 0x8b) return utf8Text(bytes);
  try {
    // Sync flush: a file cut short gives what it holds, and its last line reads as torn.
    return utf8Text(gunzipSync(bytes, { finishFlush: zlibConstants.Z_SYNC_FLUSH }));
  } catch (error) {
    throw new Error(`The trace ${path} is gzip but does not decompress (${error instanceof Error ? error.message : String(error)}): the file is damaged; a copy of the run folder from before the damage reads.`, { cause: error });
  }
}
