import { createHash } from 'node:crypto';
import { closeSync, fstatSync, fsync as fsyncAsync, mkdirSync, openSync, readSync, statSync, write as writeAsync } from 'node:fs';
import * as path from 'node:path';
import { threadId } from 'node:worker_threads';
import { gunzipSync, gzip } from 'node:zlib';
import { StoreBlobError } from './store-blob-error.js';

/**
 * Where a blob lies in a store: `<pack>:<offset>:<length>:<digest>` (the pack file's
 * name, the byte offset and length of its gzip member, and the first 32 hex digits of
 * the SHA-256 of the uncompressed bytes).
 */
export type BlobRef = string;

/** The digest part of a blob's address: 128 bits of SHA-256, in hex. */
const digestChars = 32;

/**
 * A content-addressed store of run artifacts shared by the runs of a bench (compact
 * traces, docs/architecture.md §9): each distinct content is gzip-compressed once and
 * appended to a pack file; identical content (the same screen in another run) is stored
 * once. One pack per process and thread writes here (no two writers share a file), so a
 * bench writes a handful of files however many runs it has. Writes go to the I/O pool;
 * `sync()` waits for them and fsyncs the pack.
 */
export class ArtifactStore {
  private static readonly open = new Map<string, ArtifactStore>();
  readonly dir: string;
  private fd: number | undefined;
  private packName = '';
  private end = 0;
  private readonly known = new Map<string, Promise<BlobRef>>();
  private readonly writing = new Set<Promise<void>>();

  private constructor(dir: string) {
    this.dir = dir;
  }

  /** The store of `dir` for this thread (one instance per folder; a new one when its pack was removed since). */
  static at(dir: string): ArtifactStore {
    const absolute = path.resolve(dir);
    const existing = ArtifactStore.open.get(absolute);
    if (existing !== undefined && existing.packIntact()) return existing;
    existing?.release();
    const store = new ArtifactStore(absolute);
    ArtifactStore.open.set(absolute, store);
    return store;
  }

  /** Stores `data` (once per content) and returns its address. */
  put(data: Uint8Array): Promise<BlobRef> {
    const digest = createHash('sha256').update(data).digest('hex').slice(0, digestChars);
    const known = this.known.get(digest);
    if (known !== undefined) return known;
    const stored = new Promise<Buffer>((resolve, reject) => gzip(data, { level: 6 }, (error, result) => (error ? reject(error) : resolve(result)))).then((packed) => this.append(packed, digest));
    this.known.set(digest, stored);
    stored.catch(() => this.known.delete(digest));
    return stored;
  }

  /** Waits for every write so far and fsyncs the pack (before a trace names what it holds). */
  async sync(): Promise<void> {
    await Promise.all([...this.known.values()]);
    while (this.writing.size > 0) await Promise.all([...this.writing]);
    const fd = this.fd;
    if (fd !== undefined) await new Promise<void>((resolve, reject) => fsyncAsync(fd, (error) => (error ? reject(error) : resolve())));
  }

  private append(packed: Buffer, digest: string): Promise<BlobRef> {
    const fd = this.fd ?? this.openPack();
    const offset = this.end;
    this.end += packed.length;
    const written = new Promise<void>((resolve, reject) => writeAsync(fd, packed, 0, packed.length, offset, (error) => (error ? reject(error) : resolve())));
    this.writing.add(written);
    const settle = (): void => {
      this.writing.delete(written);
    };
    written.then(settle, settle);
    return written.then(() => `${this.packName}:${offset}:${packed.length}:${digest}`);
  }

  private openPack(): number {
    mkdirSync(this.dir, { recursive: true });
    for (let attempt = 0; ; attempt++) {
      const name = `${process.pid}-${threadId}-${Date.now().toString(36)}${attempt === 0 ? '' : `-${attempt}`}.pack`;
      try {
        this.fd = openSync(path.join(this.dir, name), 'wx');
        this.packName = name;
        this.end = 0;
        return this.fd;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 100) throw error;
      }
    }
  }

  /** False when the pack this instance appends to is no longer the file at its path (the folder was removed). */
  private packIntact(): boolean {
    if (this.fd === undefined) return true;
    try {
      return statSync(path.join(this.dir, this.packName)).ino === fstatSync(this.fd).ino;
    } catch {
      return false;
    }
  }

  private release(): void {
    if (this.fd !== undefined && this.writing.size === 0) closeSync(this.fd);
    this.fd = undefined;
  }
}

/**
 * Reads one blob of the store in `storeDir` by its address: the pack is read at the
 * blob's offset, decompressed and checked against the digest. Throws
 * {@link StoreBlobError} naming the pack and what to do when it cannot.
 */
export function readBlob(storeDir: string, ref: BlobRef): Uint8Array {
  const match = /^([A-Za-z0-9._-]+\.pack):(\d+):(\d+):([0-9a-f]+)$/.exec(ref);
  if (match === null) throw new StoreBlobError(`Blob address ${JSON.stringify(ref)} is not <pack>:<offset>:<length>:<digest>; the trace line that names it is damaged.`);
  const [, pack = '', offsetText = '0', lengthText = '0', digest = ''] = match;
  const file = path.join(storeDir, pack);
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (error) {
    throw new StoreBlobError(`The store pack ${file} cannot be opened (${(error as NodeJS.ErrnoException).code ?? String(error)}): copy a run folder together with the store folder its trace names.`);
  }
  try {
    const length = Number(lengthText);
    const buffer = Buffer.alloc(length);
    const read = readSync(fd, buffer, 0, length, Number(offsetText));
    if (read !== length) throw new StoreBlobError(`The store pack ${file} ends before blob ${digest} (offset ${offsetText}, ${length} bytes): the pack was cut short.`);
    let data: Buffer;
    try {
      data = gunzipSync(buffer);
    } catch (error) {
      throw new StoreBlobError(`Blob ${digest} in ${file} does not decompress (${error instanceof Error ? error.message : String(error)}): the pack is damaged.`);
    }
    if (createHash('sha256').update(data).digest('hex').slice(0, digest.length) !== digest) throw new StoreBlobError(`Blob at ${offsetText} in ${file} does not match its digest ${digest}: the pack is damaged.`);
    return data;
  } finally {
    closeSync(fd);
  }
}
