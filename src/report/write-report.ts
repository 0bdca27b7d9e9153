import { mkdirSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import * as path from 'node:path';
import { perceive } from '../perception/perceive.js';
import type { Bounds } from '../ui/ui-tree.js';
import { safeParseHierarchy } from '../ui/parse-hierarchy.js';
import { readRunArtifacts, type TextArtifact } from './read-run-artifacts.js';
import { renderSummaryPage, type SummaryRun } from './render-summary-page.js';
import type { ReportInput, ReportRun } from './report-input.js';
import { buildStepModels, type ReportScreen, type ScreenSource } from './run-page-model.js';
import { reportStyle } from './report-style.js';
import { renderRunPage, reportStyleFile } from './render-run-page.js';
import { drawScreen } from './screen-drawing.js';
import { ScreenSprites } from './screen-sprites.js';

/** What `writeReport` wrote. */
export interface WrittenReport {
  /** The summary page. */
  readonly htmlFile: string;
  /** The folder of the run pages, beside the summary (`<name>/`). */
  readonly pagesDir: string;
  readonly summaryBytes: number;
  readonly runPages: number;
  readonly runPageBytes: number;
  readonly largestRunPage: { readonly file: string; readonly bytes: number } | undefined;
  /** Screenshots the pages show (linked in the run folders, not copied). */
  readonly screenshots: number;
  /** Distinct screen drawings (a screen seen in many runs is drawn and stored once). */
  readonly screensDrawn: number;
  /** The shared folder inside `pagesDir`: the run pages' style sheet and the screen sprites. */
  readonly sharedDir: string;
  /** Bytes of the shared folder's files. */
  readonly sharedBytes: number;
  /** Runs whose trace folder was not read because it lies outside `readOnlyInside`, as sentences. */
  readonly refusedRuns: readonly string[];
}

/** Options of `writeReport`. */
export interface WriteReportOptions {
  /** Read no trace folder or step file outside this folder (see `readRunArtifacts`' `within`). */
  readonly readOnlyInside?: string;
}

/** Screens kept parsed between run pages; runs of one suite share most of their screens. */
const screenCacheSize = 2_000;

/** The folder of `pagesDir` that holds what every run page uses (no task's folder takes this name). */
export const sharedFolder = '_shared';

/**
 * Writes the report: the summary page at `htmlFile` and one page per run under
 * `<name>/<task>/<mode>-r<repeat>.html` beside it (that folder is replaced on every
 * write, and a `<name>-assets/` folder of an older report is removed). What every run
 * page uses lies once in `<name>/_shared/`: the style sheet and the screen drawings, each
 * distinct one once in SVG sprite files (`ScreenSprites`). Run pages link screenshots and
 * raw files in the run folders by relative path, so nothing is copied.
 * Reads only the run folders named in `input`, two at a time. Throws the file-system
 * error when a page cannot be written.
 */
export async function writeReport(input: ReportInput, htmlFile: string, options: WriteReportOptions = {}): Promise<WrittenReport> {
  const summaryFile = path.resolve(htmlFile);
  const directory = path.dirname(summaryFile);
  const name = path.basename(summaryFile, path.extname(summaryFile));
  const pagesDir = path.join(directory, name);
  await rm(pagesDir, { recursive: true, force: true });
  await rm(path.join(directory, `${name}-assets`), { recursive: true, force: true });
  const sharedDir = path.join(pagesDir, sharedFolder);
  const sprites = new ScreenSprites();
  const screens = screenCache(sprites);
  const pages = pagePaths(input.runs, pagesDir);
  const summaryRuns: SummaryRun[] = [];
  const created = new Set<string>();
  let runPageBytes = 0;
  let largest: WrittenReport['largestRunPage'];
  let screenshots = 0;
  const hierarchies = new Map<string, string>();
  const readOptions = { modelCalls: false, hierarchies, ...(options.readOnlyInside === undefined ? {} : { within: options.readOnlyInside }) };
  const refusedRuns: string[] = [];
  // The next run's folder is read while this one's page is drawn.
  let reading = input.runs[0] === undefined ? undefined : readRunArtifacts(input.runs[0].traceDir, readOptions);
  for (const [index, run] of input.runs.entries()) {
    const page = pages[index] ?? path.join(pagesDir, `${index}.html`);
    const pageDir = path.dirname(page);
    const href = (target: string): string => path.relative(pageDir, target).split(path.sep).map(encodeURIComponent).join('/') || '.';
    const artifacts = await (reading ?? readRunArtifacts(run.traceDir, readOptions));
    const following = input.runs[index + 1];
    reading = following === undefined ? undefined : readRunArtifacts(following.traceDir, readOptions);
    if (artifacts.refused !== undefined) refusedRuns.push(`${run.taskId} ${run.mode} r${run.repeat}: ${artifacts.refused}`);
    const steps = buildStepModels(artifacts, screens.source);
    screenshots += steps.reduce((sum, step) => sum + (step.before.screenshot ? 1 : 0) + (step.after?.screenshot ? 1 : 0) + (step.looseScreenshot ? 1 : 0), 0);
    const previous = pages[index - 1];
    const next = pages[index + 1];
    const markup = renderRunPage(run, artifacts, steps, {
      summary: href(summaryFile),
      shared: href(sharedDir),
      folder: href(path.resolve(run.traceDir)),
      ...(previous === undefined ? {} : { previous: href(previous) }),
      ...(next === undefined ? {} : { next: href(next) }),
    });
    if (!created.has(pageDir)) {
      mkdirSync(pageDir, { recursive: true });
      created.add(pageDir);
    }
    // Written synchronously: hundreds of small pages, each asynchronous write costs more than the write.
    writeFileSync(page, markup);
    const bytes = Buffer.byteLength(markup);
    runPageBytes += bytes;
    if (largest === undefined || bytes > largest.bytes) largest = { file: page, bytes };
    summaryRuns.push({
      run,
      href: path.relative(directory, page).split(path.sep).map(encodeURIComponent).join('/'),
      steps: run.steps ?? steps.filter((step) => step.actions.length > 0).length,
      vlmCalls: run.vlmCalls ?? artifacts.events.filter((event) => event.type === 'vlm-call-end').length,
    });
  }
  mkdirSync(sharedDir, { recursive: true });
  let sharedBytes = 0;
  for (const file of [{ name: reportStyleFile, markup: reportStyle }, ...sprites.files()]) {
    writeFileSync(path.join(sharedDir, file.name), file.markup);
    sharedBytes += Buffer.byteLength(file.markup);
  }
  const summary = renderSummaryPage(input, summaryRuns);
  mkdirSync(directory, { recursive: true });
  writeFileSync(summaryFile, summary);
  return { htmlFile: summaryFile, pagesDir, summaryBytes: Buffer.byteLength(summary), runPages: input.runs.length, runPageBytes, largestRunPage: largest, screenshots, screensDrawn: sprites.count, sharedDir, sharedBytes, refusedRuns };
}

/** `<pagesDir>/<task>/<mode>-r<repeat>.html`, made unique when two runs would share one. */
function pagePaths(runs: readonly ReportRun[], pagesDir: string): string[] {
  const used = new Set<string>();
  return runs.map((run, index) => {
    const folder = fileSegment(run.taskId);
    let page = path.join(pagesDir, folder === sharedFolder ? `${folder}_` : folder, `${fileSegment(run.mode)}-r${run.repeat}.html`);
    if (used.has(page)) page = page.replace(/\.html$/, `-${index}.html`);
    used.add(page);
    return page;
  });
}

function fileSegment(name: string): string {
  const cleaned = name.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\.+/, '_').slice(0, 100);
  return cleaned === '' ? '_' : cleaned;
}

/**
 * Parses and draws each distinct hierarchy once (keyed by its text) for all pages, the
 * drawing kept in `sprites`; a screen's units (perception) are worked out only when a
 * step without scg.json asks.
 */
export function screenCache(sprites: ScreenSprites = new ScreenSprites()): { source: ScreenSource; drawn: () => number } {
  const cache = new Map<string, ReportScreen | { problem: string }>();
  const source: ScreenSource = (artifact: TextArtifact, observed) => {
    const cached = cache.get(artifact.text);
    if (cached !== undefined) return cached;
    const parsed = safeParseHierarchy(artifact.text, { sourceName: artifact.name, ...(observed.packageName === undefined ? {} : { packageName: observed.packageName }), ...(observed.activity === undefined ? {} : { activity: observed.activity }) });
    let entry: ReportScreen | { problem: string };
    if (parsed.success) {
      const tree = parsed.value;
      let units: ReadonlyMap<string, { label: string; bounds: Bounds }> | undefined;
      const drawing = drawScreen(tree);
      entry = {
        tree,
        drawing: drawing === undefined ? undefined : sprites.add(drawing),
        units: () => (units ??= new Map(perceive(tree).units.map((unit) => [unit.id as string, { label: unit.label, bounds: unit.bounds }]))),
      };
    } else {
      entry = { problem: `${artifact.name} does not parse: ${parsed.error.message}` };
    }
    if (cache.size >= screenCacheSize) cache.delete(cache.keys().next().value as string);
    cache.set(artifact.text, entry);
    return entry;
  };
  return { source, drawn: () => sprites.count };
}
