import type { TraceEvent } from '../trace/trace-event.js';
import { traceFileName } from '../trace/trace-writer.js';
import type { ExpectationNode } from './expectation-outcomes.js';
import type { RunArtifacts, TextArtifact } from './read-run-artifacts.js';
import { renderEvent } from './render-event.js';
import type { ReportRun } from './report-input.js';
import { contentSecurityPolicy, runPageContentSecurityPolicy, styleSheet } from './report-style.js';
import type { PanelModel, StepModel } from './run-page-model.js';
import { html, joinHtml, type SafeHtml } from './safe-html.js';
import { renderPanel } from './screen-drawing.js';

/** Where a run page links to, relative to the page. */
export interface RunPageLinks {
  /** The summary page. */
  readonly summary: string;
  /** The run folder (trace.jsonl, steps/…), ending without a slash. */
  readonly folder: string;
  /** The report's shared folder (style sheet, screen sprites), ending without a slash. */
  readonly shared: string;
  /** The previous and next run in the summary's order. */
  readonly previous?: string;
  readonly next?: string;
}

/** How much of each text a step embeds; the whole file is one click away in the run folder. */
export const runPageLimits = { view: 6_000, changes: 14 } as const;

/**
 * One run's page: its header (outcome, reason, facts, links), then per step the intent
 * and actions with the step's badges (vision, verifier, skill, gate, ...), the before
 * and after screens side by side with the tap point and target unit on the before screen
 * and the changed nodes on the after screen, the delta in words, the expectation atom by
 * atom (the atoms that failed outlined, never cut), and, collapsed, the reduced view, the
 * model calls and every event. Pure: all data is escaped by `html`; the page allows no
 * script and only the report's style sheet; its screens are images of the shared sprites.
 */
export function renderRunPage(run: ReportRun, artifacts: RunArtifacts, steps: readonly StepModel[], links: RunPageLinks): string {
  const outside = artifacts.events.filter((event) => event.step === null);
  const title = `${run.taskId} · ${run.mode} · r${run.repeat}`;
  const traceFile = artifacts.traceFile ?? traceFileName;
  const instruction = outside.find((event): event is Extract<TraceEvent, { type: 'task-start' }> => event.type === 'task-start')?.instruction;
  const page = html`${linkedStyleHead(title, `${links.shared}/${reportStyleFile}`)}<body>
<nav class="crumbs"><a href="${links.summary}">← all runs</a>${links.previous === undefined ? '' : html` · <a href="${links.previous}">previous run</a>`}${links.next === undefined ? '' : html` · <a href="${links.next}">next run</a>`} · <a href="${`${links.folder}/`}">run folder</a> · <a href="${`${links.folder}/${traceFile}`}">${traceFile}</a></nav>
<h1>${title} ${outcomeBadge(run)}</h1>
${instruction === undefined ? '' : html`<p class="intent">${instruction}</p>`}
<p>${run.reason}</p>
${run.error === null ? '' : html`<p class="problems">infrastructure error: ${run.error}</p>`}
<dl class="facts"><dt>app</dt><dd>${run.app}</dd>${[...run.facts, loopStepsFact(steps)].map(([label, value]) => html`<dt>${label}</dt><dd>${value}</dd>`)}</dl>
${artifacts.refused === undefined ? '' : html`<p class="problems">${artifacts.refused}</p>`}
${artifacts.hasTrace || artifacts.refused !== undefined ? '' : html`<p class="problems">no trace.jsonl in this run folder: the run produced no trace (see the error above).</p>`}
${artifacts.problems.length === 0 ? '' : html`<ul class="problems">${artifacts.problems.map((problem) => html`<li>${problem}</li>`)}</ul>`}
<p class="notes legend">Marks: <span>red circle = where the action touched</span><span>orange box = the unit it targeted</span><span>green dashed = what changed</span></p>
${steps.map((step) => renderStep(step, artifacts.format === 'compact' ? { ...links, compact: true } : links))}
${outside.length === 0 ? '' : html`<details><summary>run events</summary><ul class="events">${outside.map(renderEvent)}</ul></details>`}
${artifacts.format === 'compact'
    ? html`<footer class="notes">Built from the run's compact trace: its events are in <a href="${`${links.folder}/${traceFile}`}">${traceFile}</a>, its screens, model calls and other files in the bench's trace store (senseact debug shows them; bench --trace full writes them as files).</footer>`
    : html`<footer class="notes">Built from the run folder alone; every file behind this page is in <a href="${`${links.folder}/`}">the run folder</a>.</footer>`}
</body>
</html>
`;
  return page.markup;
}

function renderStep(step: StepModel, links: RunPageLinks & { readonly compact?: true }): SafeHtml {
  // A compact trace's files are in its store, not the folder: nothing to link but trace.jsonl.
  const file = (relative: string): string | undefined => (links.compact === true ? undefined : `${links.folder}/${relative.split('/').map(encodeURIComponent).join('/')}`);
  return html`<section class="step" id="${`step-${step.step}`}">
<header class="step"><h2>step ${step.step}</h2>${step.intent === undefined ? '' : html`<span class="intent">${step.finish ? 'FINISH' : step.intent}</span>`}${step.verdict === undefined ? '' : html`${verdictBadge(step.verdict.outcome)}`}${step.markers.map((marker) => html`<span class="${`badge ${marker.kind}`}" title="${marker.detail}">${marker.label}</span>`)}</header>
${step.actions.length === 0 ? '' : html`<div class="actions">${joinHtml(step.actions, ' → ')}</div>`}
<div class="sides">
${panel(step.before, file, links.shared)}
${step.after === undefined ? html`<div></div>` : panel(step.after, file, links.shared)}
<div class="findings">
${step.verdict === undefined ? '' : html`<h3>verdict</h3><div>${verdictBadge(step.verdict.outcome)} <span class="reason">${step.verdict.reason}${verdictSource(step.verdict.by)}</span></div>`}
${step.expectation === undefined ? '' : html`<h3>expectation</h3>${step.expectation.tree === undefined ? html`<div class="atom">${step.expectation.text}</div><div class="notes">${step.expectation.unevaluated ?? 'not in the predicate language; shown as written'}</div>` : html`<ul class="atoms">${expectationNode(step.expectation.tree)}</ul>`}`}
${step.unitChecks.length === 0 ? '' : html`<h3>unit checks</h3><ul class="atoms">${step.unitChecks.map((check) => html`<li class="${check.outcome === 'pass' ? '' : 'culprit'}">${verdictBadge(check.outcome)} <span class="atom">${check.unit}</span> <span class="reason">${check.reason}</span></li>`)}</ul>`}
${changesList(step)}
${modelCalls(step, file)}
</div>
</div>
${step.looseScreenshot === undefined || file(step.looseScreenshot) === undefined ? '' : html`<details><summary>screenshot (which screen it shows is not recorded in this trace)</summary><img src="${file(step.looseScreenshot)}" alt="${`screenshot of step ${step.step}`}" width="270"></details>`}
${step.view === undefined ? '' : html`<details><summary>reduced view (what the planner saw)</summary>${preformatted(step.view, runPageLimits.view, file(step.view.name))}</details>`}
${step.events.length === 0 ? '' : html`<details><summary>${`all ${step.events.length} events`}</summary><ul class="events">${step.events.map(renderEvent)}</ul></details>`}
${step.files.length === 0 || links.compact === true ? '' : html`<div class="notes">files: ${joinHtml(step.files.map((name) => html`<a href="${file(`${step.folder}/${name}`)}">${name}</a>`), ' · ')}</div>`}
</section>`;
}

/**
 * The step cards below, counted as `senseact debug` counts them: loop steps, step 0 being
 * the start screen. The result's own `steps` is the number of actions executed, a
 * different count (a step may execute several units, or none).
 */
function loopStepsFact(steps: readonly StepModel[]): [string, string] {
  const first = steps[0]?.step;
  const last = steps.at(-1)?.step;
  return ['loop steps', first === undefined || last === undefined ? '0 recorded' : `${steps.length} (${first === last ? `step ${first}` : `${first}–${last}`}, below)`];
}

/** Who decided a verdict, in words; nothing for `none` (open-loop: nothing was checked, and the reason says so). */
export function verdictSource(by: string | undefined): string {
  switch (by) {
    case undefined:
    case 'none':
      return '';
    case 'contract':
      return ' (checked on the screen: the unit\'s contract and the expectation)';
    case 'llm-verifier':
      return ' (decided by the LLM verifier)';
    case 'vlm':
      return ' (seen by the vision model)';
    default:
      return ` (by ${by})`;
  }
}

function panel(model: PanelModel, file: (relative: string) => string | undefined, shared: string): SafeHtml {
  const drawing = model.screen?.drawing;
  const shot = model.screenshot === undefined ? undefined : file(model.screenshot.path);
  const screen = model.screenshot !== undefined && shot !== undefined
    ? { href: shot, width: model.screenshot.width, height: model.screenshot.height }
    : drawing === undefined ? undefined : { href: `${shared}/${drawing.file}#${drawing.id}`, width: drawing.width, height: drawing.height };
  return renderPanel({
    caption: model.screenshot === undefined ? model.caption : `${model.caption} (screenshot)`,
    ...(screen === undefined ? {} : { screen }),
    marks: model.marks,
    ...(model.missing === undefined ? model.screen !== undefined && screen === undefined ? { missing: 'nothing visible on this screen' } : {} : { missing: model.missing }),
  });
}

function changesList(step: StepModel): SafeHtml {
  if (step.after === undefined) return html``;
  const shown = step.changes.slice(0, runPageLimits.changes);
  const label = step.changeLabel === undefined ? '' : ` (${step.changeLabel})`;
  if (step.changes.length === 0) return html`<h3>${`what changed${label}`}</h3><div class="notes">${step.changeLabel === 'no-change' ? 'nothing changed' : 'no change recorded'}</div>`;
  return html`<h3>${`what changed${label}`}</h3><ul class="changes">${shown.map((line) => html`<li>${line.text}</li>`)}</ul>${step.changes.length > shown.length ? html`<div class="notes">${`… ${step.changes.length - shown.length} more (see delta.json)`}</div>` : ''}`;
}

function expectationNode(node: ExpectationNode): SafeHtml {
  if (node.kind === 'atom') return html`<li class="${node.culprit ? 'culprit' : ''}">${verdictBadge(node.outcome)} <span class="atom">${node.text}</span> <span class="reason">${node.reason}</span></li>`;
  return html`<li>${verdictBadge(node.outcome)} <span class="atom">${node.kind}</span><ul class="atoms">${node.parts.map(expectationNode)}</ul></li>`;
}

function modelCalls(step: StepModel, file: (relative: string) => string | undefined): SafeHtml {
  if (step.modelCalls.length === 0) return html``;
  return html`<h3>model calls</h3><ul class="events">${step.modelCalls.map((call) => html`<li><span class="${`badge ${call.type === 'vlm-call-end' ? 'vision' : call.role === 'verifier' ? 'verifier' : 'closed'}`}">${call.role}</span> ${call.model} · ${call.promptTokens}+${call.completionTokens} tokens${call.images > 0 ? ` · ${call.images} image(s), ${call.imageBytes} B` : ''}${call.error === undefined ? '' : html` · <span class="problems">${call.error}</span>`}${call.artifact === undefined ? '' : linkTo(file(call.artifact.split(/[\\/]/).join('/')), 'prompt and reply')}</li>`)}</ul>`;
}

function preformatted(artifact: TextArtifact, limit: number, href: string | undefined): SafeHtml {
  const text = artifact.text;
  const cut = artifact.truncated || text.length > limit;
  return html`<pre>${cut ? `${text.slice(0, limit)}…` : text}</pre>${cut ? html`<div class="notes">cut at ${limit} characters; the whole file: ${href === undefined ? artifact.name : html`<a href="${href}">${artifact.name}</a>`}</div>` : ''}`;
}

/** ` · <a>label</a>`, or nothing when the file has no address of its own (a compact trace). */
function linkTo(href: string | undefined, label: string): SafeHtml {
  return href === undefined ? html`` : html` · <a href="${href}">${label}</a>`;
}

/** A badge for a run's outcome. */
export function outcomeBadge(run: ReportRun): SafeHtml {
  if (run.error !== null) return html`<span class="badge error">error</span>`;
  return run.success ? html`<span class="badge success">success</span>` : html`<span class="badge failed">failed</span>`;
}

function verdictBadge(outcome: string): SafeHtml {
  const known = outcome === 'pass' || outcome === 'fail' || outcome === 'inconclusive' ? outcome : 'error';
  return html`<span class="${`badge ${known}`}">${outcome}</span>`;
}

/** The file name of the report's style sheet in its shared folder. */
export const reportStyleFile = 'report.css';

/** The start of a run page up to `</head>`: its style is the linked sheet at `styleHref`; its CSP allows no inline style and no script. */
export function linkedStyleHead(title: string, styleHref: string): SafeHtml {
  return headOf(title, runPageContentSecurityPolicy(), html`<link rel="stylesheet" href="${styleHref}">`);
}

/** The start of a report page up to `</head>`: its CSP allows exactly `styleText` and no script. */
export function pageHead(title: string, styleText: string): SafeHtml {
  return headOf(title, contentSecurityPolicy(styleText), html`<style>${styleSheet(styleText)}</style>`);
}

/** The start of a page up to `</head>`, with its CSP and its style (a linked sheet or the sheet itself). */
function headOf(title: string, policy: string, style: SafeHtml): SafeHtml {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${policy}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
${style}
</head>
`;
}
