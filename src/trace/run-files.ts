import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { readBlob } from './artifact-store.js';
import { bundledPrefix, type ArtifactIndex } from './artifact-index.js';
import { StoreBlobError } from './store-blob-error.js';
import { traceFileName } from './trace-writer.js';
import { utf8Text } from '../util/utf8-text.js';

/** The files of one run folder, whichever way it was written (`--trace full` or `compact`). */
export interface RunFiles {
  readonly dir: string;
  readonly format: 'full' | 'compact';
  /** Every file of the run but `trace.jsonl`, relative to the run folder, `/`-separated, sorted. */
  readonly names: readonly string[];
  /** The store folder of a compact trace. */
  readonly storeDir?: string;
  /** The bytes of one file; undefined when the run has no such file. Throws `StoreBlobError` when the store cannot give it back. */
  read(name: string): Uint8Array | undefined;
  /** The address of a file in the store (its digest part identifies the content), for a compact trace. */
  addressOf(name: string): string | undefined;
}

/** Options of {@link openRunFiles}. */
export interface OpenRunFilesOptions {
  /** The run's artifact index (`readTrace(dir).artifacts`); a folder without one is read as a full trace. */
  readonly artifacts?: ArtifactIndex;
  /** Decoded blobs by address, shared by the runs a caller reads (a screen seen in many runs is read once). */
  readonly blobs?: Map<string, Uint8Array>;
}

/**
 * The files of the run folder `dir`: listed from the folder for a full trace, from the
 * artifact index of a compact one (its screens and bundle read from the store on
 * demand, each blob once).
 */
export function openRunFiles(dir: string, options: OpenRunFilesOptions = {}): RunFiles {
  const index = options.artifacts;
  if (index === undefined) return fullRunFiles(dir);
  const storeDir = path.resolve(dir, index.store);
  const blobs = options.blobs ?? new Map<string, Uint8Array>();
  const blob = (ref: string): Uint8Array => {
    let data = blobs.get(ref);
    if (data === undefined) {
      data = readBlob(storeDir, ref);
      blobs.set(ref, data);
    }
    return data;
  };
  const bundles = new Map<string, Record<string, unknown>>();
  const bundle = (ref: string): Record<string, unknown> => {
    let parsed = bundles.get(ref);
    if (parsed === undefined) {
      try {
        parsed = JSON.parse(utf8Text(blob(ref))) as Record<string, unknown>;
      } catch (error) {
        throw new StoreBlobError(`The artifact bundle ${ref} of ${dir} is not JSON (${error instanceof Error ? error.message : String(error)}): the store is damaged.`);
      }
      bundles.set(ref, parsed);
    }
    return parsed;
  };
  return {
    dir,
    format: 'compact',
    storeDir,
    names: Object.keys(index.files).sort(),
    read(name) {
      const ref = index.files[name];
      if (ref === undefined) return undefined;
      if (!ref.startsWith(bundledPrefix)) return blob(ref);
      const text = bundle(ref.slice(bundledPrefix.length))[name];
      return typeof text === 'string' ? Buffer.from(text, 'utf8') : undefined;
    },
    addressOf(name) {
      const ref = index.files[name];
      return ref === undefined || ref.startsWith(bundledPrefix) ? undefined : ref;
    },
  };
}

function fullRunFiles(dir: string): RunFiles {
  const names = existsSync(dir)
    ? readdirSync(dir, { withFileTypes: true, recursive: true })
      .filter((entry) => entry.isFile())
      .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
      .filter((name) => name !== traceFileName)
      .sort()
    : [];
  const present = new Set(names);
  return {
    dir,
    format: 'full',
    names,
    read: (name) => (present.has(name) ? readFileSync(path.join(dir, ...name.split('/'))) : undefined),
    addressOf: () => undefined,
  };
}
