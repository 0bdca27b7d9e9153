import { mkdir } from 'node:fs/promises';
import * as path from 'node:path';
import { describeChanges } from '../report/describe-changes.js';
import { reportStyle } from '../report/report-style.js';
import { pageHead } from '../report/render-run-page.js';
import { html, type SafeHtml } from '../report/safe-html.js';
import { drawScreen, renderPanel, type PanelMarks } from '../report/screen-drawing.js';
import { ScreenSprites } from '../report/screen-sprites.js';
import type { ReplayStep } from '../tasks/replay/replay-task.js';
import { boundsArea, boundsCentre } from '../ui/bounds.js';
import type { Bounds, UiTree } from '../ui/ui-tree.js';
import { computeDelta } from '../verify/compute-delta.js';
import type { VerifyOutcome } from '../verify/verify-outcome.js';
import type { ExplainedStep, StepExplanations } from './explain-replay-steps.js';
import { writeFileAtomic } from './write-file-atomic.js';

/** The page's own rules beside the reports' style: the panels of a step in a row that wraps. */
const pageStyle = `${reportStyle}
.panels{display:grid;grid-template-columns:repeat(auto-fill,minmax(180px,240px));gap:.8rem;align-items:start;margin-top:.4rem}
`;

/** What `writeReplayExplanations` wrote. */
export interface WrittenExplanations {
  readonly page: string;
  readonly steps: number;
  readonly screensDrawn: number;
}

/**
 * Writes the explained steps of `verify-replay --explain` / `--false-passes` as a page a
 * person can look through (`<dir>/index.html`): per step its text block and its screens
 * drawn side by side — before (the acted element marked, and what went), after (what came
 * or changed marked), the trail's pages it was judged against, and for a strong wrong-effect
 * pass the borrowed screen (what differs from the screen before marked). The drawings are
 * kept once each in SVG sprite files beside the page, as the run report keeps them; the page
 * runs nothing and loads only those files. Each file is written whole, so a reader never
 * sees half a page.
 */
export async function writeReplayExplanations(dir: string, title: string, explained: StepExplanations): Promise<WrittenExplanations> {
  await mkdir(dir, { recursive: true });
  const sprites = new ScreenSprites();
  const drawn = new Map<UiTree, { href: string; width: number; height: number } | undefined>();
  const screenOf = (tree: UiTree): { href: string; width: number; height: number } | undefined => {
    if (drawn.has(tree)) return drawn.get(tree);
    const drawing = drawScreen(tree);
    const ref = drawing === undefined ? undefined : sprites.add(drawing);
    const screen = ref === undefined ? undefined : { href: `${ref.file}#${ref.id}`, width: ref.width, height: ref.height };
    drawn.set(tree, screen);
    return screen;
  };
  const panel = (caption: string, tree: UiTree, marks: PanelMarks): SafeHtml => {
    const screen = screenOf(tree);
    return renderPanel({ caption, ...(screen ? { screen } : {}), marks, missing: 'nothing visible to draw' });
  };
  const sections = explained.steps.map((item) => renderStep(item, panel));
  const page = html`${pageHead(title, pageStyle)}<body>
<h1>${title}</h1>
<p class="notes">${explained.matched} step(s). Boxes: the acted element (orange), what came, went or changed (green, dashed). The text of each step is what <code>--explain</code> prints.</p>
${sections}
</body>
</html>
`;
  for (const file of sprites.files()) await writeFileAtomic(path.join(dir, file.name), file.markup);
  const pageFile = path.join(dir, 'index.html');
  await writeFileAtomic(pageFile, page.markup);
  return { page: pageFile, steps: explained.steps.length, screensDrawn: sprites.count };
}

type PanelOf = (caption: string, tree: UiTree, marks: PanelMarks) => SafeHtml;

function renderStep(item: ExplainedStep, panel: PanelOf): SafeHtml {
  const { replayed, step, donor } = item;
  const panels: SafeHtml[] = [];
  if (step) {
    const seen = changedPlaces(step.before, step.after);
    const element = step.action.kind === 'key' ? undefined : step.action.element;
    panels.push(panel('before', step.before, { ...(element ? { targets: [element.bounds], points: [boundsCentre(element.bounds)] } : {}), changed: seen.before }));
    panels.push(panel('after', step.after, { changed: seen.after }));
    for (const page of item.trailScreens) panels.push(panel(`trail: ${path.basename(page.file)}`, page.tree, {}));
    const wrong = replayed?.wrongEffect?.verdict;
    if (donor && wrong && strongPass(wrong)) panels.push(panel('wrong effect: the borrowed screen', donor.after, { changed: changedPlaces(step.before, donor.after).after }));
  }
  const verdict = replayed?.verdict;
  const badge = verdict === undefined ? html`<span class="badge closed">${replayed?.category ?? 'skipped'}</span>` : html`<span class="${`badge ${verdict.outcome}`}">${verdict.outcome}${verdict.strength ? ` ${verdict.strength}` : ''}</span>`;
  const falsePass = item.falsePass === undefined ? '' : html`<span class="badge fail">false pass: ${item.falsePass}</span>`;
  return html`<section class="step"><header class="step"><h2>${shortId(item.id, step)}</h2>${badge}${falsePass}</header>
<pre>${item.text}</pre>
${panels.length > 0 ? html`<div class="panels">${panels}</div>` : ''}
</section>
`;
}

function strongPass(verdict: VerifyOutcome): boolean {
  return verdict.outcome === 'pass' && verdict.strength === 'strong';
}

/** The last parts of a long id (a file path): enough to tell steps apart in a heading; the whole id is in the text. */
function shortId(id: string, step: ReplayStep | undefined): string {
  const parts = id.split('/');
  const tail = parts.length > 3 ? `…/${parts.slice(-3).join('/')}` : id;
  return step ? `${tail} (${step.app})` : tail;
}

/** A changed node this large (a share of its screen) is a container that came or went: marking it would cover what changed inside it. */
const maxMarkedShare = 0.5;

/** Where the screens differ: the places of what went (on the first) and of what came or changed (on the second), containers left out. */
function changedPlaces(from: UiTree, to: UiTree): { before: Bounds[]; after: Bounds[] } {
  const lines = describeChanges(computeDelta(from, to).changes, from, to);
  const places = { before: [] as Bounds[], after: [] as Bounds[] };
  for (const line of lines) {
    if (!line.bounds) continue;
    const screen = line.screen === 'before' ? from : to;
    if (boundsArea(line.bounds) > maxMarkedShare * screen.width * screen.height) continue;
    places[line.screen].push(line.bounds);
  }
  return places;
}
