import type { ReportInput, ReportRun, ReportSummary } from './report-input.js';
import { reportStyle } from './report-style.js';
import { outcomeBadge, pageHead } from './render-run-page.js';
import { html, type SafeHtml } from './safe-html.js';

/** A run in the summary's list: the run and the relative URL of its page. */
export interface SummaryRun {
  readonly run: ReportRun;
  readonly href: string;
  /** Steps, vision calls: shown as numbers in the list. */
  readonly steps: number;
  readonly vlmCalls: number;
}

/** Reasons in the list are cut here; the run page has them whole. */
const listReasonChars = 160;

/**
 * The summary page: the modes table and the other tables, then every run in one list
 * with a link to its page, filterable by outcome, mode and app. Filtering is CSS only:
 * radio buttons and `:has()` rules that name rows by the index of their mode and app
 * (never by the app's text), generated into the page's one style sheet, which its CSP
 * allows by hash. No script.
 */
export function renderSummaryPage(input: ReportInput, runs: readonly SummaryRun[]): string {
  const modes = [...new Set(runs.map((entry) => entry.run.mode))];
  const apps = [...new Set(runs.map((entry) => entry.run.app))].sort();
  const outcome = (run: ReportRun): 'success' | 'failed' | 'error' => (run.error !== null ? 'error' : run.success ? 'success' : 'failed');
  const outcomes = (['success', 'failed', 'error'] as const).filter((name) => runs.some((entry) => outcome(entry.run) === name));
  const styleText = `${reportStyle}${filterRules('o', outcomes.length)}${filterRules('m', modes.length)}${filterRules('a', apps.length)}`;
  const count = (predicate: (run: ReportRun) => boolean): number => runs.filter((entry) => predicate(entry.run)).length;
  const page = html`${pageHead(input.title, styleText)}<body>
<h1>${input.title}</h1>
${renderTable(input.summary)}
${(input.tables ?? []).map(renderTable)}
<h2>Runs</h2>
<form class="filters" aria-label="filter the runs">
${filterGroup('outcome', 'o', outcomes.map((name) => [name, count((run) => outcome(run) === name)] as const), runs.length)}
${filterGroup('mode', 'm', modes.map((name) => [name, count((run) => run.mode === name)] as const), runs.length)}
${filterGroup('app', 'a', apps.map((name) => [name, count((run) => run.app === name)] as const), runs.length)}
</form>
<table class="runs">
<thead><tr><th>task</th><th>mode</th><th>repeat</th><th>outcome</th><th>actions</th><th>vision</th><th>app</th><th>reason</th></tr></thead>
<tbody>${runs.map((entry) => html`<tr class="${`run o${outcomes.indexOf(outcome(entry.run))} m${modes.indexOf(entry.run.mode)} a${apps.indexOf(entry.run.app)}`}"><td><a href="${entry.href}">${entry.run.taskId}</a></td><td>${entry.run.mode}</td><td class="number">${entry.run.repeat}</td><td>${outcomeBadge(entry.run)}</td><td class="number">${entry.steps}</td><td class="number">${entry.vlmCalls}</td><td>${entry.run.app}</td><td class="reason">${cut(entry.run.error ?? entry.run.reason)}</td></tr>`)}</tbody>
<tfoot><tr><td colspan="8" class="notes"><span class="shown"></span> ${`of ${runs.length} runs shown`}</td></tr></tfoot>
</table>
<footer class="notes">Generated ${input.generatedAt} from the run folder alone (results.json and the trace folders); one page per run.</footer>
</body>
</html>
`;
  return page.markup;
}

/** Radio buttons of one filter: `all`, then each value with its count. Ids are `<prefix><index>`. */
function filterGroup(legend: string, prefix: string, values: readonly (readonly [name: string, count: number])[], total: number): SafeHtml {
  if (values.length < 2) return html``;
  return html`<fieldset><legend>${legend}</legend><input type="radio" name="${prefix}" id="${`${prefix}-all`}" checked><label for="${`${prefix}-all`}">${`all (${total})`}</label>${values.map(([name, count], index) => html`<input type="radio" name="${prefix}" id="${`${prefix}-${index}`}"><label for="${`${prefix}-${index}`}">${name} (${count})</label>`)}</fieldset>`;
}

/** `body:has(#m-1:checked) tr.run:not(.m1){display:none}` for every value of one filter. */
function filterRules(prefix: string, values: number): string {
  if (values < 2) return '';
  return Array.from({ length: values }, (_, index) => `body:has(#${prefix}-${index}:checked) tr.run:not(.${prefix}${index}){display:none}\n`).join('');
}

function renderTable(summary: ReportSummary): SafeHtml {
  return html`<h2>${summary.title}</h2>
<table class="summary"><thead><tr>${summary.headers.map((header) => html`<th>${header}</th>`)}</tr></thead>
<tbody>${summary.rows.map((row) => html`<tr>${row.map((cell) => html`<td>${cell}</td>`)}</tr>`)}</tbody></table>
<div class="notes">${summary.notes.map((note) => html`<div>${note}</div>`)}</div>`;
}

function cut(text: string): string {
  const flat = text.replace(/\s+/g, ' ');
  return flat.length > listReasonChars ? `${flat.slice(0, listReasonChars - 1)}…` : flat;
}
