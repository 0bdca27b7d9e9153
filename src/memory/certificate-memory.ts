import { open as openFile, readFile, mkdir, rename, rm, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { z } from 'zod';
import MiniSearch from 'minisearch';
import { debugLog } from '../util/debug-log.js';
import type { Redactor } from '../util/redactor.js';
import { certificateSchema, type Certificate } from '../verify/certificate.js';
import { CertificateMemoryError } from './certificate-memory-error.js';

/**
 * One line of the memory file: a certificate and, when a benchmark wrote it, the run it
 * came from (`<task>/<mode>-r<repeat>`), so that resuming a killed benchmark can drop what
 * its unfinished runs wrote.
 */
export const memoryRecordSchema = certificateSchema.extend({ run: z.string().min(1).optional() });
export type MemoryRecord = z.infer<typeof memoryRecordSchema>;

/** What the agent loop needs of a memory: retrieval, and appending under the run it is in. */
export interface CertificateStore {
  retrieve(query: RetrievalQuery, k?: number): RetrievedCertificate[];
  append(certificate: Certificate): Promise<void>;
}

/** A line of the memory file that was skipped on load, and why. */
export interface MemoryWarning {
  /** 1-based line number in the file. */
  readonly line: number;
  readonly problem: string;
}

/** What retrieval is asked: the current app, page and intent. */
export interface RetrievalQuery {
  readonly packageName: string;
  readonly scope?: string;
  readonly intent: string;
}

/** One retrieved certificate with its BM25 score (higher is more similar). */
export interface RetrievedCertificate {
  readonly certificate: Certificate;
  readonly score: number;
}

interface IndexedDocument {
  readonly id: number;
  readonly scope: string;
  readonly intent: string;
}

/** Retrieval weights: the intent says more than the page title. */
export const retrievalBoost = { intent: 2, scope: 1 } as const;

/** Words too common in intents to tell them apart; dropped from the index and queries. */
export const retrievalStopWords: ReadonlySet<string> = new Set([
  'a', 'an', 'the', 'to', 'of', 'in', 'on', 'for', 'and', 'or', 'with', 'at', 'by', 'from', 'into', 'my', 'me', 'it', 'is', 'as', 'this', 'that', 'then', 'please',
]);

function processTerm(term: string): string | null {
  const lower = term.toLowerCase();
  return retrievalStopWords.has(lower) ? null : lower;
}

function newIndex(): MiniSearch<IndexedDocument> {
  return new MiniSearch<IndexedDocument>({ fields: ['scope', 'intent'], storeFields: [], idField: 'id', processTerm });
}

/** A minisearch index built on first use; until then documents wait in `pending`. */
interface LazyIndex {
  search: MiniSearch<IndexedDocument> | undefined;
  readonly pending: IndexedDocument[];
}

function newLazyIndex(): LazyIndex {
  return { search: undefined, pending: [] };
}

function addDocument(index: LazyIndex, document: IndexedDocument): void {
  if (index.search) index.search.add(document);
  else index.pending.push(document);
}

function searchOf(index: LazyIndex): MiniSearch<IndexedDocument> {
  if (!index.search) {
    const search = newIndex();
    // One bulk insert is faster than adding documents one by one.
    search.addAll(index.pending);
    index.pending.length = 0;
    index.search = search;
  }
  return index.search;
}

/**
 * One app's indexes: all its documents, and one small index per scope (page) so that
 * a retrieval on a known page searches that page's certificates first. Certificates
 * with the same scope + intent share one document (a long-running memory repeats
 * intents), so the indexes grow with distinct keys.
 */
interface AppIndex {
  readonly all: LazyIndex;
  readonly scopes: Map<string, LazyIndex>;
  readonly documentOf: Map<string, number>;
  /** Per document: certificate positions, oldest first. */
  readonly members: number[][];
}

function newAppIndex(): AppIndex {
  return { all: newLazyIndex(), scopes: new Map(), documentOf: new Map(), members: [] };
}

/** Adds a certificate to an app's indexes (a new document only when its key is new). */
function addToAppIndex(index: AppIndex, position: number, certificate: Certificate): void {
  const text = `${certificate.scope}\u0000${certificate.intent}`;
  const existing = index.documentOf.get(text);
  if (existing !== undefined) {
    index.members[existing]?.push(position);
    return;
  }
  const id = index.members.length;
  index.members.push([position]);
  index.documentOf.set(text, id);
  const document = { id, scope: certificate.scope, intent: certificate.intent };
  addDocument(index.all, document);
  let scoped = index.scopes.get(certificate.scope);
  if (!scoped) {
    scoped = newLazyIndex();
    index.scopes.set(certificate.scope, scoped);
  }
  addDocument(scoped, document);
}

/**
 * Certificate memory persisted as append-only JSONL: one certificate a line, the file
 * fsync'd after every append. `open` loads every valid line; a torn last line or a
 * corrupt record is skipped with a warning (see `warnings`, and `DEBUG=senseact:memory`)
 * and never loses the other records. Retrieval is lexical BM25 (minisearch) over scope +
 * intent with indexes per app (results are always from the asked package) and per page
 * within it (same-page certificates first); an index is built on its first use (or all
 * at once by `buildIndexes`).
 */
export class CertificateMemory {
  readonly path: string;
  private readonly certificates: MemoryRecord[] = [];
  private readonly indexes = new Map<string, AppIndex>();
  private readonly loadWarnings: MemoryWarning[] = [];
  private handle: FileHandle | undefined;
  private appending: Promise<void> = Promise.resolve();
  /** The file's last byte is not a newline (torn write): the next append starts a new line. */
  private needsNewline = false;
  /** Set for a replica: where its appends go instead of a file. */
  private readonly forward: ((record: MemoryRecord) => void) | undefined;

  private constructor(path: string, private readonly redactor: Redactor | undefined, forward?: (record: MemoryRecord) => void) {
    this.path = path;
    this.forward = forward;
  }

  /**
   * A memory without a file, for a worker thread of a benchmark: it starts empty, takes
   * other runs' certificates through `adopt`, and hands each record appended to it (with
   * its run) to `forward` (which persists it in the one real memory) after indexing it.
   */
  static replica(name: string, forward: (record: MemoryRecord) => void, options: { readonly redactor?: Redactor } = {}): CertificateMemory {
    return new CertificateMemory(name, options.redactor, forward);
  }

  /** Indexes records another holder already persisted (a replica catching up). */
  adopt(records: readonly MemoryRecord[]): void {
    for (const record of records) this.remember(record);
  }

  /**
   * Opens (or creates on first append) the memory at `path` and loads it. With `redactor`,
   * every appended certificate goes through it first (an intent may quote a key a model echoed).
   * @throws CertificateMemoryError when the file exists but cannot be read.
   */
  static async open(path: string, options: { readonly redactor?: Redactor } = {}): Promise<CertificateMemory> {
    const memory = new CertificateMemory(path, options.redactor);
    let text = '';
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
        throw new CertificateMemoryError({ message: `Cannot read the certificate memory ${path}: ${(error as Error).message}. Check the path and its permissions.`, cause: error });
      }
    }
    memory.load(text);
    return memory;
  }

  private load(text: string): void {
    if (text === '') return;
    this.needsNewline = !text.endsWith('\n');
    const lines = text.split('\n');
    for (let index = 0; index < lines.length; index++) {
      const line = lines[index] ?? '';
      if (line.trim() === '') continue;
      const torn = index === lines.length - 1 && this.needsNewline;
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch (error) {
        this.warn({ line: index + 1, problem: torn ? 'torn last line (an interrupted write), skipped' : `not JSON (${(error as Error).message}), skipped` });
        continue;
      }
      const parsed = memoryRecordSchema.safeParse(value);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        this.warn({ line: index + 1, problem: `not a certificate (${issue ? `${issue.path.join('.') || 'record'}: ${issue.message}` : 'invalid'}), skipped` });
        continue;
      }
      this.remember(parsed.data);
    }
    debugLog('memory', `loaded ${this.certificates.length} certificate(s) from ${this.path}`, { skipped: this.loadWarnings.length });
  }

  private appIndex(packageName: string): AppIndex {
    let index = this.indexes.get(packageName);
    if (!index) {
      index = newAppIndex();
      this.indexes.set(packageName, index);
    }
    return index;
  }

  private warn(warning: MemoryWarning): void {
    this.loadWarnings.push(warning);
    debugLog('memory', `${this.path}:${warning.line}: ${warning.problem}`);
  }

  /** Lines skipped on load. */
  get warnings(): readonly MemoryWarning[] {
    return this.loadWarnings;
  }

  /** Number of certificates held. */
  get size(): number {
    return this.certificates.length;
  }

  /** All records (certificates with their run), in file order. */
  all(): readonly MemoryRecord[] {
    return this.certificates;
  }

  /**
   * Validates and appends one certificate, stamped with `run` when given: one JSON line,
   * then fsync.
   * @throws CertificateMemoryError when the certificate is invalid or the write fails.
   */
  append(certificate: Certificate, options: { readonly run?: string } = {}): Promise<void> {
    // Appends run one at a time (concurrent runs share a memory): one file handle, whole lines in order.
    const record = options.run === undefined ? certificate : { ...certificate, run: options.run };
    const next = this.appending.then(() => this.appendNow(record));
    this.appending = next.catch(() => undefined);
    return next;
  }

  /** This memory as one run sees it: retrieval over everything, appends stamped with `run`. */
  forRun(run: string): CertificateStore {
    return {
      retrieve: (query, k) => this.retrieve(query, k),
      append: (certificate) => this.append(certificate, { run }),
    };
  }

  /**
   * Keeps only the records whose run `keep` accepts (records without a run are always
   * kept) and rewrites the file atomically in the same order. Resuming a benchmark calls
   * it with the runs its journal holds, so certificates of a run killed in flight vanish
   * and the memory is the one an uninterrupted run would have. Returns how many records
   * were dropped (torn and invalid lines are dropped too).
   * @throws CertificateMemoryError when the file cannot be rewritten.
   */
  async retainRuns(keep: (run: string) => boolean): Promise<number> {
    await this.appending;
    const kept = this.certificates.filter((record) => record.run === undefined || keep(record.run));
    const dropped = this.certificates.length - kept.length;
    if (dropped === 0 && this.loadWarnings.length === 0) return 0;
    const temporary = join(dirname(this.path), `.${basename(this.path)}.${process.pid}.tmp`);
    try {
      await this.handle?.close();
      this.handle = undefined;
      await mkdir(dirname(this.path), { recursive: true });
      const handle = await openFile(temporary, 'w');
      try {
        await handle.writeFile(kept.map((record) => `${JSON.stringify(record)}\n`).join(''), 'utf8');
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(temporary, this.path);
    } catch (error) {
      await rm(temporary, { force: true });
      throw new CertificateMemoryError({ message: `Cannot rewrite the certificate memory ${this.path}: ${(error as Error).message}. Check free space and permissions.`, cause: error });
    }
    this.certificates.length = 0;
    this.indexes.clear();
    this.needsNewline = false;
    for (const record of kept) this.remember(record);
    debugLog('memory', `kept ${kept.length} certificate(s) of ${this.path}, dropped ${dropped} of runs not kept`);
    return dropped;
  }

  private remember(record: MemoryRecord): void {
    const position = this.certificates.length;
    this.certificates.push(record);
    addToAppIndex(this.appIndex(record.package), position, record);
  }

  private async appendNow(certificate: Certificate | MemoryRecord): Promise<void> {
    const parsed = memoryRecordSchema.safeParse(this.redactor ? this.redactor.deep(certificate) : certificate);
    if (!parsed.success) {
      throw new CertificateMemoryError({ message: `Refusing to append an invalid certificate to ${this.path}: ${parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')}. Build it with buildCertificate.` });
    }
    if (this.forward) {
      this.remember(parsed.data);
      this.forward(parsed.data);
      return;
    }
    try {
      if (!this.handle) {
        await mkdir(dirname(this.path), { recursive: true });
        this.handle = await openFile(this.path, 'a');
      }
      const line = `${this.needsNewline ? '\n' : ''}${JSON.stringify(parsed.data)}\n`;
      await this.handle.write(line);
      await this.handle.sync();
      this.needsNewline = false;
    } catch (error) {
      throw new CertificateMemoryError({ message: `Cannot append to the certificate memory ${this.path}: ${(error as Error).message}. Check free space and permissions.`, cause: error });
    }
    this.remember(parsed.data);
  }

  /**
   * The top-k certificates of the same app most similar to `scope` + `intent` (BM25,
   * intent boosted, stop words dropped), best first: certificates of the same scope
   * (page) come first, then the rest of the app's; certificates sharing a key come
   * newest first, each certificate id once. Empty when the app has none or the query has no searchable word.
   */
  retrieve(query: RetrievalQuery, k = 5): RetrievedCertificate[] {
    const index = this.indexes.get(query.packageName);
    if (!index || k <= 0) return [];
    const top: RetrievedCertificate[] = [];
    const taken = new Set<number>();
    const returned = new Set<string>();
    const collect = (hits: readonly { id: unknown; score: number }[]): void => {
      for (const hit of hits) {
        if (top.length >= k) return;
        const id = hit.id as number;
        if (taken.has(id)) continue;
        taken.add(id);
        const positions = index.members[id] ?? [];
        for (let at = positions.length - 1; at >= 0 && top.length < k; at--) {
          const certificate = this.certificates[positions[at] ?? -1];
          // The same certificate written twice (same content id) is returned once.
          if (certificate && !returned.has(certificate.id)) {
            returned.add(certificate.id);
            top.push({ certificate, score: hit.score });
          }
        }
      }
    };
    const scoped = query.scope === undefined ? undefined : index.scopes.get(query.scope);
    if (scoped && query.intent.trim() !== '') collect(searchOf(scoped).search(query.intent, { fields: ['intent'], combineWith: 'OR' }));
    if (top.length < k) {
      const text = [query.scope ?? '', query.intent].join(' ').trim();
      if (text !== '') collect(searchOf(index.all).search(text, { boost: retrievalBoost, combineWith: 'OR' }));
    }
    return top;
  }

  /**
   * Builds the search index of every app now. Otherwise an app's index is built on its
   * first retrieval, so that opening a large memory stays fast when a run touches few apps.
   */
  buildIndexes(): void {
    for (const index of this.indexes.values()) {
      searchOf(index.all);
      for (const scoped of index.scopes.values()) searchOf(scoped);
    }
  }

  /** Closes the append handle (the memory stays readable). */
  async close(): Promise<void> {
    await this.appending;
    const handle = this.handle;
    this.handle = undefined;
    await handle?.close();
  }
}
