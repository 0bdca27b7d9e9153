import { copyFile, mkdir, rm, stat, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { readRunArtifacts } from './read-run-artifacts.js';
import { renderReportHtml, type RenderedRun } from './render-report-html.js';
import type { ReportInput } from './report-input.js';

/** What `writeReport` wrote. */
export interface WrittenReport {
  readonly htmlFile: string;
  /** The folder beside the page holding copied screenshots (`<page name>-assets`). */
  readonly assetsDir: string;
  readonly htmlBytes: number;
  readonly assetBytes: number;
  readonly assetFiles: number;
  /** Runs whose trace folder was not read because it lies outside `readOnlyInside`, as sentences. */
  readonly refusedRuns: readonly string[];
}

/** Options of `writeReport`. */
export interface WriteReportOptions {
  /** Read no trace folder or step file outside this folder (see `readRunArtifacts`' `within`). */
  readonly readOnlyInside?: string;
}

/**
 * Writes the report: one static HTML page at `htmlFile` and, beside it,
 * `<name>-assets/` with each step's screenshot copied in (replaced on every write). The
 * page links raw step files in the run folders by relative path. Reads only the run
 * folders named in `input`, and of those only what lies inside `readOnlyInside` when
 * given. Throws the file-system error when the page cannot be written.
 */
export async function writeReport(input: ReportInput, htmlFile: string, options: WriteReportOptions = {}): Promise<WrittenReport> {
  const directory = path.dirname(path.resolve(htmlFile));
  const assetsName = `${path.basename(htmlFile, path.extname(htmlFile))}-assets`;
  const assetsDir = path.join(directory, assetsName);
  await rm(assetsDir, { recursive: true, force: true });
  let assetBytes = 0;
  let assetFiles = 0;
  const rendered: RenderedRun[] = [];
  const refusedRuns: string[] = [];
  for (const [index, run] of input.runs.entries()) {
    const artifacts = await readRunArtifacts(run.traceDir, options.readOnlyInside === undefined ? {} : { within: options.readOnlyInside });
    if (artifacts.refused !== undefined) refusedRuns.push(`${run.taskId} ${run.mode} r${run.repeat}: ${artifacts.refused}`);
    const screenshotHrefs = new Map<number, string>();
    for (const step of artifacts.steps) {
      if (step.screenshot === undefined) continue;
      const name = `run-${index}-step-${String(step.step).padStart(3, '0')}.png`;
      if (assetFiles === 0) await mkdir(assetsDir, { recursive: true });
      await copyFile(step.screenshot, path.join(assetsDir, name));
      assetBytes += (await stat(step.screenshot)).size;
      assetFiles++;
      screenshotHrefs.set(step.step, `${encodeURIComponent(assetsName)}/${name}`);
    }
    const folderHref = path.relative(directory, path.resolve(run.traceDir)).split(path.sep).map(encodeURIComponent).join('/') || '.';
    rendered.push({ run, artifacts, folderHref, screenshotHrefs });
  }
  const page = renderReportHtml(input, rendered);
  await mkdir(directory, { recursive: true });
  await writeFile(htmlFile, page, 'utf8');
  return { htmlFile: path.resolve(htmlFile), assetsDir, htmlBytes: Buffer.byteLength(page), assetBytes, assetFiles, refusedRuns };
}
