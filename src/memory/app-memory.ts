import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { z } from 'zod';
import type { Redactor } from '../util/redactor.js';
import type { AppHintQuery, AppHints, AppHintSource } from './app-hints.js';
import { AppMemoryError } from './app-memory-error.js';
import { asPathKindError } from '../util/path-kind-error.js';

/** Version of an app memory file; bump when fields change meaning. */
export const appMemoryVersion = 1;

/** How many labels a page keeps as what it offers. */
export const maxOffers = 12;

const count = z.number().int().nonnegative();

/** A page (certificate scope: activity and title) and the controls it was seen to offer. */
export const appPageSchema = z.object({ scope: z.string(), offers: z.array(z.string()), seen: count });

/** A verified move between pages: acting on `unit` (its label and type) on `from` led to `to`. */
export const appLinkSchema = z.object({ from: z.string(), to: z.string(), unit: z.string(), type: z.string(), count });

/** One verified intent of a solved task, as the path of its family records it. */
export const appPathStepSchema = z.object({ scope: z.string(), intent: z.string(), unit: z.string(), type: z.string(), value: z.string().optional() });

/** How a kind of goal was reached: the shortest verified path of a solved task of this family. */
export const appNoteSchema = z.object({
  /** The family key: the instruction's content words, sorted (numbers and quoted values left out). */
  family: z.string(),
  instruction: z.string(),
  task: z.string().optional(),
  path: z.array(appPathStepSchema),
  /** Solved runs of this family seen. */
  runs: count,
});

/** A model's compressed rendering of the map, kept beside it (never instead of it). */
export const appSummarySchema = z.object({ text: z.string(), model: z.string(), tokens: count });

/**
 * The abstraction memory of one app (A²), distilled deterministically from verified
 * intents: the app map (pages, what each offers, which control leads where) and
 * task-family notes (how a kind of goal was reached). One JSON file per app.
 */
export const appMemoryFileSchema = z.object({
  version: z.literal(appMemoryVersion),
  package: z.string().min(1),
  pages: z.array(appPageSchema),
  links: z.array(appLinkSchema),
  notes: z.array(appNoteSchema),
  summary: appSummarySchema.optional(),
  /**
   * The runs learned into this file (`AppRun.runKey`): a run a kill cut off after it
   * learned, run again by `bench --resume`, is not learned twice.
   */
  learnedRuns: z.array(z.string()).default([]),
});
export type AppMemoryFile = z.infer<typeof appMemoryFileSchema>;
export type AppNote = z.infer<typeof appNoteSchema>;
export type AppSummary = z.infer<typeof appSummarySchema>;

/** One executed intent of a run, as the loop saw it (the trail a run leaves for the memory). */
export interface AppTrailStep {
  readonly packageName: string;
  /** Scope of the screen before and after the intent. */
  readonly from: string;
  readonly to: string;
  readonly intent: string;
  /** The pivot unit (the last executed): its label, type and value. */
  readonly unit: string;
  readonly type: string;
  readonly value?: string;
  /** Passed, checked by contracts and predicates (not a model's word): only these are learned. */
  readonly verified: boolean;
  /** Labels of the controls on the screen after the intent. */
  readonly offers: readonly string[];
}

/** A finished run to learn from: the task, whether its own check passed, and its trail. */
export interface AppRun {
  readonly taskId: string;
  readonly app: string;
  readonly instruction: string;
  readonly success: boolean;
  readonly trail: readonly AppTrailStep[];
  /** Names the run across processes (the bench's out dir, task, mode, repeat); a file that learned it already skips it. */
  readonly runKey?: string;
}

/** Counts a text's prompt tokens (the model layer's estimate, passed in). */
export type TokenCounter = (text: string) => number;

const stopWords = new Set(['a', 'an', 'the', 'to', 'of', 'in', 'on', 'for', 'and', 'or', 'with', 'at', 'by', 'from', 'into', 'my', 'me', 'it', 'is', 'as', 'this', 'that', 'then', 'please', 'i', 'phone', 'set', 'turn']);

/** The content words of an instruction: lower case, no stop words, no numbers or quoted values. */
export function instructionWords(instruction: string): string[] {
  const unquoted = instruction.replace(/"[^"]*"|'[^']*'|“[^”]*”/g, ' ');
  return [...new Set(unquoted.toLowerCase().split(/[^a-z]+/).filter((word) => word.length > 1 && !stopWords.has(word)))].sort();
}

/** The family key of an instruction: its content words, sorted. */
export function taskFamily(instruction: string): string {
  return instructionWords(instruction).join(' ');
}

function overlap(a: readonly string[], b: readonly string[]): number {
  if (a.length === 0 || b.length === 0) return 0;
  const set = new Set(b);
  const shared = a.filter((word) => set.has(word)).length;
  return shared / new Set([...a, ...b]).size;
}

/** Least word overlap (Jaccard) between a new instruction and a note's family for the note to be given. */
export const minNoteOverlap = 0.5;

function safeFileName(packageName: string): string {
  return `${packageName.replace(/[^A-Za-z0-9._-]/g, '_')}.json`;
}

function emptyFile(packageName: string): AppMemoryFile {
  return { version: appMemoryVersion, package: packageName, pages: [], links: [], notes: [], learnedRuns: [] };
}

function verb(step: { readonly unit: string; readonly type: string; readonly value?: string | undefined }): string {
  switch (step.type) {
    case 'fill': return `fill ${JSON.stringify(step.unit)}${step.value === undefined ? '' : ` with ${JSON.stringify(step.value)}`}`;
    case 'toggle': return `toggle ${JSON.stringify(step.unit)}`;
    case 'scroll': return `scroll ${JSON.stringify(step.unit)}`;
    case 'select': return `choose ${JSON.stringify(step.unit)}`;
    case 'long-press': return `long-press ${JSON.stringify(step.unit)}`;
    case 'navigate': return step.unit;
    default: return `tap ${JSON.stringify(step.unit)}`;
  }
}

/**
 * The per-app abstraction memory on disk (`<dir>/<package>.json`): learned from finished
 * runs ({@link AppMemory.learn}), asked for hints in a token budget
 * ({@link AppMemory.hints}), shown whole ({@link renderAppMemory}). Hints are hints: the
 * planner still acts only on units of the screen it sees.
 */
export class AppMemory implements AppHintSource {
  /** Writes run one at a time (concurrent runs learn into one memory). */
  private writing: Promise<void> = Promise.resolve();

  private constructor(
    readonly dir: string,
    private readonly files: Map<string, AppMemoryFile>,
    private readonly countTokens: TokenCounter,
    private readonly redactor: Redactor | undefined,
  ) {}

  /**
   * Opens (creating when missing) the memory in `dir`. Throws {@link AppMemoryError}
   * naming the file when one is not an app memory file (it is left as it is).
   */
  static async open(dir: string, options: { readonly countTokens: TokenCounter; readonly redactor?: Redactor }): Promise<AppMemory> {
    await mkdir(dir, { recursive: true });
    const files = new Map<string, AppMemoryFile>();
    for (const name of (await readdir(dir)).filter((entry) => entry.endsWith('.json')).sort()) {
      const file = path.join(dir, name);
      const text = await readFile(file, 'utf8').catch((error: unknown) => Promise.reject(asPathKindError(error, file, 'app memory file')));
      const parsed = appMemoryFileSchema.safeParse(parseJson(text, file));
      if (!parsed.success) throw new AppMemoryError({ message: `${file} is not an app memory file (version ${appMemoryVersion}): ${parsed.error.issues[0]?.message ?? 'invalid'} at ${parsed.error.issues[0]?.path.join('.') ?? ''}. Move it out of ${dir} or delete it.`, cause: parsed.error });
      files.set(parsed.data.package, parsed.data);
    }
    return new AppMemory(dir, files, options.countTokens, options.redactor);
  }

  /** The apps the memory knows. */
  apps(): string[] {
    return [...this.files.keys()].sort();
  }

  /** One app's memory, or undefined. */
  get(packageName: string): AppMemoryFile | undefined {
    return this.files.get(packageName);
  }

  /**
   * Learns from a finished run: every verified intent adds its pages, what they offer,
   * and (when the page changed) the link; a run whose task check passed also adds its
   * verified path as the note of its task family (the shortest path is kept). Writes the
   * apps it touched (atomically). Returns the apps written.
   */
  async learn(run: AppRun): Promise<string[]> {
    const touched = new Set<string>();
    const learnedBefore = (app: string): boolean => run.runKey !== undefined && (this.files.get(app)?.learnedRuns.includes(run.runKey) ?? false);
    const skipped = new Set([...new Set([run.app, ...run.trail.map((step) => step.packageName)])].filter(learnedBefore));
    const verified = samePageAcrossScrolls(run.trail.filter((step) => step.verified));
    for (const step of verified) {
      if (skipped.has(step.packageName)) continue;
      const file = this.fileFor(step.packageName);
      touched.add(step.packageName);
      addPage(file, step.from, []);
      addPage(file, step.to, step.offers);
      if (step.from !== step.to) {
        const link = file.links.find((candidate) => candidate.from === step.from && candidate.to === step.to && candidate.unit === step.unit);
        if (link) link.count += 1;
        else file.links.push({ from: step.from, to: step.to, unit: step.unit, type: step.type, count: 1 });
      }
    }
    if (run.success && verified.length > 0 && !skipped.has(run.app)) {
      const file = this.fileFor(run.app);
      touched.add(run.app);
      const family = taskFamily(run.instruction);
      const path = verified.filter((step) => step.packageName === run.app).map((step) => ({ scope: step.from, intent: step.intent, unit: step.unit, type: step.type, ...(step.value === undefined ? {} : { value: step.value }) }));
      const note = file.notes.find((candidate) => candidate.family === family);
      if (!note) file.notes.push({ family, instruction: run.instruction, task: run.taskId, path, runs: 1 });
      else {
        note.runs += 1;
        if (path.length > 0 && path.length < note.path.length) Object.assign(note, { instruction: run.instruction, task: run.taskId, path });
      }
    }
    for (const app of touched) {
      const file = this.files.get(app) as AppMemoryFile;
      // What the map learned is no longer what a model summarised.
      delete file.summary;
      if (run.runKey !== undefined) file.learnedRuns.push(run.runKey);
      await this.write(file);
    }
    return [...touched].sort();
  }

  /** Sets a model's summary of one app's map (checked by the caller) and writes the file. */
  async setSummary(packageName: string, summary: AppSummary): Promise<void> {
    const file = this.files.get(packageName);
    if (!file) throw new AppMemoryError({ message: `the app memory in ${this.dir} has no app ${packageName}; learn from a run of it first` });
    file.summary = summary;
    await this.write(file);
  }

  /**
   * Hints for the planner on `query.scope` of `query.packageName`, in `budgetTokens`:
   * the note of the most similar solved task family (its path), the links that leave the
   * current page, and the routes to pages that offer what the instruction names — in that
   * order, each line only while the budget lasts. Undefined when nothing applies.
   */
  hints(query: AppHintQuery, budgetTokens: number): AppHints | undefined {
    const file = this.files.get(query.packageName);
    if (!file) return undefined;
    const candidates = hintLines(file, query);
    if (candidates.length === 0) return undefined;
    const header = `Hints from earlier verified runs in ${file.package} (the screen decides; use ids from the screen):`;
    const lines: string[] = [];
    let text = header;
    for (const line of candidates) {
      const next = `${text}\n${line}`;
      if (this.countTokens(next) > budgetTokens) break;
      lines.push(line);
      text = next;
    }
    if (lines.length === 0) return undefined;
    return { app: file.package, text, tokens: this.countTokens(text), lines: lines.length };
  }

  private fileFor(packageName: string): AppMemoryFile {
    let file = this.files.get(packageName);
    if (!file) {
      file = emptyFile(packageName);
      this.files.set(packageName, file);
    }
    return file;
  }

  private write(file: AppMemoryFile): Promise<void> {
    const next = this.writing.then(() => this.writeNow(file));
    // A failed write fails its caller; the next write still runs.
    this.writing = next.catch(() => undefined);
    return next;
  }

  private async writeNow(file: AppMemoryFile): Promise<void> {
    const target = path.join(this.dir, safeFileName(file.package));
    const temporary = `${target}.${process.pid}.tmp`;
    const content = this.redactor ? this.redactor.deep(file) : file;
    try {
      await writeFile(temporary, `${JSON.stringify(content, null, 2)}\n`, 'utf8');
      await rename(temporary, target);
    } catch (error) {
      await rm(temporary, { force: true });
      throw new AppMemoryError({ message: `could not write the app memory of ${file.package} to ${target}: ${error instanceof Error ? error.message : String(error)}`, cause: error });
    }
  }
}

function parseJson(text: string, file: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new AppMemoryError({ message: `${file} is not JSON: ${error instanceof Error ? error.message : String(error)}. Move it out of the app memory folder or delete it.`, cause: error });
  }
}

/**
 * A page named by its first text near the top (no toolbar) gets another name when its
 * list scrolls. A scroll never leaves its page, so the name it led to is an alias of the
 * page it started on, for the rest of the run: no phantom page, no false link.
 */
function samePageAcrossScrolls(steps: readonly AppTrailStep[]): AppTrailStep[] {
  const alias = new Map<string, string>();
  const canonical = (scope: string): string => alias.get(scope) ?? scope;
  return steps.map((step) => {
    const from = canonical(step.from);
    if (step.type === 'scroll' && step.to !== step.from && !alias.has(step.to)) alias.set(step.to, from);
    return { ...step, from, to: canonical(step.to) };
  });
}

function addPage(file: AppMemoryFile, scope: string, offers: readonly string[]): void {
  let page = file.pages.find((candidate) => candidate.scope === scope);
  if (!page) {
    page = { scope, offers: [], seen: 0 };
    file.pages.push(page);
  }
  page.seen += 1;
  for (const offer of offers) {
    if (page.offers.length >= maxOffers) break;
    if (offer !== '' && !page.offers.includes(offer)) page.offers.push(offer);
  }
}

/** Hint lines in priority order (see `AppMemory.hints`). */
function hintLines(file: AppMemoryFile, query: AppHintQuery): string[] {
  const lines: string[] = [];
  const words = instructionWords(query.instruction);
  const best = file.notes
    .map((note) => ({ note, score: overlap(words, note.family.split(' ')) }))
    .filter((entry) => entry.score >= minNoteOverlap)
    .sort((a, b) => b.score - a.score || a.note.path.length - b.note.path.length)[0];
  if (best) lines.push(`A similar task ("${best.note.instruction}") was done by: ${best.note.path.map((step, index) => `${index + 1}) ${verb(step)} on ${step.scope}`).join(' ')}`);
  if (file.summary) {
    lines.push(`App map (summarised): ${file.summary.text}`);
    return lines;
  }
  const leaving = file.links.filter((link) => link.from === query.scope).sort((a, b) => b.count - a.count);
  if (leaving.length > 0) lines.push(`From this page: ${leaving.map((link) => `${verb(link)} → ${link.to}`).join('; ')}`);
  for (const route of routesToRelevantPages(file, query.scope, words)) lines.push(route);
  return lines;
}

/**
 * Routes (shortest, over verified links) from `scope` to the pages whose scope or offers
 * share words with the instruction, most shared words first: `To reach Display (offers
 * "Dark theme"): tap "Display"`.
 */
function routesToRelevantPages(file: AppMemoryFile, scope: string, words: readonly string[]): string[] {
  const previous = new Map<string, { from: string; link: z.infer<typeof appLinkSchema> }>();
  const queue = [scope];
  const seen = new Set([scope]);
  while (queue.length > 0) {
    const current = queue.shift() as string;
    for (const link of file.links.filter((candidate) => candidate.from === current)) {
      if (seen.has(link.to)) continue;
      seen.add(link.to);
      previous.set(link.to, { from: current, link });
      queue.push(link.to);
    }
  }
  const relevant = file.pages
    .filter((page) => page.scope !== scope && previous.has(page.scope))
    .map((page) => {
      const offered = page.offers.filter((offer) => instructionWords(offer).some((word) => words.includes(word)));
      const inScope = instructionWords(page.scope).filter((word) => words.includes(word)).length;
      return { page, offered, score: offered.length + inScope };
    })
    .filter((entry) => entry.score > 0)
    .sort((a, b) => b.score - a.score);
  return relevant.map(({ page, offered }) => {
    const steps: string[] = [];
    for (let at = page.scope; at !== scope;) {
      const hop = previous.get(at);
      if (!hop) break;
      steps.unshift(verb(hop.link));
      at = hop.from;
    }
    return `To reach ${page.scope}${offered.length > 0 ? ` (offers ${offered.map((offer) => JSON.stringify(offer)).join(', ')})` : ''}: ${steps.join(', then ')}`;
  });
}

/** One app's memory as text for `senseact memory show`: pages, links, notes, summary. */
export function renderAppMemory(file: AppMemoryFile): string {
  const lines = [`App memory of ${file.package} (version ${file.version}): ${file.pages.length} pages, ${file.links.length} links, ${file.notes.length} task-family notes`];
  lines.push('', 'Pages (what each offers):');
  for (const page of file.pages) lines.push(`  ${page.scope || '(no title)'}  [seen ${page.seen}]${page.offers.length > 0 ? `: ${page.offers.map((offer) => JSON.stringify(offer)).join(', ')}` : ''}`);
  lines.push('', 'Links (verified moves between pages):');
  for (const link of file.links) lines.push(`  ${link.from} --${verb(link)}--> ${link.to}  [${link.count}×]`);
  lines.push('', 'Task families (shortest verified path of a solved task):');
  for (const note of file.notes) {
    lines.push(`  ${note.family}  [${note.runs} solved runs; e.g. "${note.instruction}"${note.task === undefined ? '' : ` (${note.task})`}]`);
    note.path.forEach((step, index) => lines.push(`    ${index + 1}. ${verb(step)} on ${step.scope}  (${step.intent})`));
  }
  if (file.summary) lines.push('', `Summary by ${file.summary.model} (${file.summary.tokens} tokens): ${file.summary.text}`);
  return `${lines.join('\n')}\n`;
}
