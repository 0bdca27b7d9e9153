import type { AppFigures, TieFigures } from './replay-breakdown.js';
import type { OutcomeCounts, VerdictTable, VerifyReplayReport } from './verify-replay.js';

function percent(part: number, whole: number): string {
  return whole === 0 ? '-' : `${((part / whole) * 100).toFixed(1)}%`;
}

function cell(part: number, whole: number): string {
  return `${percent(part, whole)} (${part})`;
}

const typeOrder = ['click', 'commit', 'fill', 'toggle', 'select', 'long-press', 'scroll', 'navigate', 'finish', '?'];

function row(name: string, counts: OutcomeCounts): string {
  return [
    name.padEnd(10),
    String(counts.total).padStart(5),
    cell(counts.pass, counts.total).padStart(14),
    cell(counts.fail, counts.total).padStart(14),
    cell(counts.inconclusive, counts.total).padStart(14),
    cell(counts.strong, counts.pass).padStart(14),
    cell(counts.weak, counts.pass).padStart(14),
    String(counts.settled).padStart(8),
  ].join(' ');
}

function renderTable(title: string, data: VerdictTable, reasonOutcomes: readonly string[], reasonLimit: number): string[] {
  const lines = [title, `${'unit type'.padEnd(10)} ${'n'.padStart(5)} ${'pass'.padStart(14)} ${'fail'.padStart(14)} ${'inconclusive'.padStart(14)} ${'strong/pass'.padStart(14)} ${'weak/pass'.padStart(14)} ${'settled'.padStart(8)}`];
  const types = Object.keys(data.byType).sort((left, right) => typeOrder.indexOf(left) - typeOrder.indexOf(right));
  for (const type of types) lines.push(row(type, data.byType[type]!));
  lines.push(row('all', data.all));
  const reasons = data.reasons.filter((reason) => reasonOutcomes.includes(reason.outcome)).sort((left, right) => right.count - left.count).slice(0, reasonLimit);
  if (reasons.length > 0) {
    lines.push('  top reasons:');
    for (const reason of reasons) lines.push(`    ${reason.unitType} ${reason.outcome} ×${reason.count}: ${reason.reason}\n      e.g. ${reason.example}: ${reason.exampleReason}`);
  }
  return lines;
}

function falsePassLine(data: VerdictTable): string {
  const counts = data.all;
  const falsePasses = counts.pass - counts.settled;
  // Strong false passes per unit type, over all its steps: how often the evidence a planner trusts most was wrong.
  const strongByType = Object.keys(data.byType)
    .sort((left, right) => typeOrder.indexOf(left) - typeOrder.indexOf(right))
    .map((type) => {
      const typed = data.byType[type]!;
      return `${type} ${cell(typed.strong - typed.settled, typed.total)}`;
    })
    .join(', ');
  return `  false pass: ${cell(falsePasses, counts.total)} (strong ${counts.strong - counts.settled}, weak ${counts.weak}); settled taps on what was already chosen: ${counts.settled}\n  strong false pass by type (of all its steps): ${strongByType}`;
}

/** Per app: steps, what really happened (pass, strong share) and strong false passes on the wrong-effect control. */
function appLines(byApp: Record<string, AppFigures>): string[] {
  const apps = Object.entries(byApp).sort((left, right) => right[1].steps - left[1].steps || left[0].localeCompare(right[0]));
  const lines = ['Per app (steps with a visible effect; strong false pass on the wrong-effect control)', `${'app'.padEnd(44)} ${'steps'.padStart(5)} ${'replayed'.padStart(8)} ${'pass'.padStart(14)} ${'strong/pass'.padStart(14)} ${'strong false'.padStart(14)}`];
  for (const [app, figures] of apps) {
    lines.push(`${(app.length > 44 ? `${app.slice(0, 43)}…` : app).padEnd(44)} ${String(figures.steps).padStart(5)} ${String(figures.replayed).padStart(8)} ${cell(figures.pass, figures.replayed).padStart(14)} ${cell(figures.strong, figures.pass).padStart(14)} ${cell(figures.strongFalsePass, figures.controls).padStart(14)}`);
  }
  return lines;
}

/** First visits and repeats: where the strong passes come from (the memory ties only a repeat). */
function visitLines(byVisit: VerifyReplayReport['byVisit']): string[] {
  const lines = [
    'By visit (a repeat: the control was acted on, and verified, on a page like this one earlier in the replay)',
    `${'visit'.padEnd(10)} ${'replayed'.padStart(8)} ${'pass'.padStart(14)} ${'strong/pass'.padStart(14)} ${'strong false'.padStart(14)}`,
  ];
  for (const visit of ['first', 'repeat'] as const) {
    const figures = byVisit[visit];
    if (figures) lines.push(`${visit.padEnd(10)} ${String(figures.replayed).padStart(8)} ${cell(figures.pass, figures.replayed).padStart(14)} ${cell(figures.strong, figures.pass).padStart(14)} ${cell(figures.strongFalsePass, figures.controls).padStart(14)}`);
  }
  return lines;
}

/**
 * Per kind of evidence: the real passes it gave and its false passes on the controls. A
 * kind is sound when its false passes are few beside its real passes.
 */
function tieLines(byTie: Record<string, TieFigures>, realPasses: number, controls: number): string[] {
  const kinds = Object.entries(byTie).sort((left, right) => (left[1].strength === right[1].strength ? 0 : left[1].strength === 'strong' ? -1 : 1) || right[1].realPasses - left[1].realPasses);
  const lines = [
    `Per kind of evidence (real passes of ${realPasses}; false passes on ${controls} wrong-effect controls and on the no-op control)`,
    `${'evidence'.padEnd(30)} ${'strength'.padEnd(8)} ${'real passes'.padStart(14)} ${'wrong effect'.padStart(14)} ${'no-op'.padStart(6)}`,
  ];
  const meanings = new Map<string, string>();
  for (const [key, figures] of kinds) {
    const kind = key.slice(0, key.lastIndexOf('|'));
    lines.push(`${kind.padEnd(30)} ${figures.strength.padEnd(8)} ${cell(figures.realPasses, realPasses).padStart(14)} ${cell(figures.wrongEffectPasses, controls).padStart(14)} ${String(figures.noOpPasses).padStart(6)}`);
    meanings.set(kind, figures.meaning);
  }
  // A kind listed under both strengths is explained once.
  lines.push('What each kind means (docs/verify-replay.md, "Evidence kinds"):');
  for (const [kind, meaning] of meanings) lines.push(`  ${kind}: ${meaning}`);
  return lines;
}

/** The figures a reader compares first: pass, inconclusive, strong share, and the worst unit type's strong false passes. */
function headline(report: VerifyReplayReport): string {
  const real = report.visibleEffect.all;
  const control = report.wrongEffect;
  const worst = Object.entries(control.byType)
    .map(([type, counts]) => ({ type, share: counts.total === 0 ? 0 : (counts.strong - counts.settled) / counts.total, counts }))
    .sort((left, right) => right.share - left.share)[0];
  const strongFalse = control.all.strong - control.all.settled;
  return `summary: pass ${percent(real.pass, real.total)}, inconclusive ${percent(real.inconclusive, real.total)}, strong ${percent(real.strong, real.pass)} of passes; wrong-effect strong false pass ${percent(strongFalse, control.all.total)}${worst ? ` (worst: ${worst.type} ${cell(worst.counts.strong - worst.counts.settled, worst.counts.total)})` : ''}`;
}

/**
 * The human-readable `senseact verify-replay` report: what was replayed, the verdicts on
 * what really happened per unit type (with strong / weak evidence among passes and the
 * top reasons with an example each), the marked no-effect steps, the two negative
 * controls, per-task verification and the vision calls the verdicts imply.
 */
export function formatReplayReport(report: VerifyReplayReport, options: { reasons?: number } = {}): string {
  const limit = options.reasons ?? 8;
  const { categories } = report;
  const leftOut = Object.entries(report.leftOut).sort((left, right) => right[1] - left[1]).map(([reason, count]) => `${reason} ${count}`).join(', ');
  const lines = [
    `verify-replay: ${report.source} (${report.format}): ${report.steps} steps in ${report.tasks.total} tasks, ${Object.keys(report.byApp).length} apps`,
    headline(report),
    `replayed ${categories.replayed}, settled ${categories.settled} (the loop would not act: ${report.settled.visibleEffect} with a recorded effect, ${report.settled.noVisibleEffect} without), unmapped ${categories.unmapped}, not replayed ${categories['not-replayed']}${leftOut ? ` — ${leftOut}` : ''}`,
    '',
    ...renderTable('What really happened: steps with a visible effect (a pass is a true pass)', report.visibleEffect, ['fail', 'inconclusive'], limit),
    '',
    ...renderTable('Steps marked as changing nothing (a pass is a false pass, unless settled: a tap on what was already chosen)', report.noVisibleEffect, ['pass', 'inconclusive'], limit),
    falsePassLine(report.noVisibleEffect),
    '',
    ...renderTable('Negative control, no-op: after = before (a pass is a false pass, unless settled)', report.noOp, ['pass'], limit),
    falsePassLine(report.noOp),
    '',
    ...renderTable('Negative control, wrong effect: the after screen of another step of the same app, from the most similar before screen (a pass is a false pass)', report.wrongEffect, ['pass'], limit),
    falsePassLine(report.wrongEffect),
    '',
    ...tieLines(report.byTie, report.visibleEffect.all.pass, report.wrongEffect.all.total),
    '',
    ...visitLines(report.byVisit),
    '',
    ...appLines(report.byApp),
    '',
    `tasks: ${report.tasks.total}; verified (every step replayed and passed): ${cell(report.tasks.verified, report.tasks.total)}; ${report.tasks.withLeftOutSteps} left steps out (${report.tasks.leftOutSteps} in all: keys, swipes, unmapped elements, steps not loaded)`,
    `vision calls implied (incl. ${report.vision.unresolved} unresolved targets): one screenshot per step ${report.vision.screenshotPerStep}; gate on every non-pass ${report.vision.everyNonPass}; on every fail ${report.vision.everyFail}; the loop's gate (τ=${report.vision.threshold}) ${report.vision.gate} (pixel-only at once: ${report.vision.gatePixelOnly})`,
  ];
  if (report.skipped.length > 0) {
    lines.push(`skipped while loading: ${report.skipped.length}`);
    for (const entry of report.skipped.slice(0, skippedShown)) lines.push(`  ${entry.id}: ${entry.reason}`);
    if (report.skipped.length > skippedShown) lines.push(`  … and ${report.skipped.length - skippedShown} more (--json lists them all)`);
  }
  lines.push(...loadingLines(report), '', ...taskLines(report));
  return `${lines.join('\n')}\n`;
}

/** Records skipped while loading that the text report names one by one (the JSON lists every one). */
const skippedShown = 5;

/** What loading met: screens with inverted (clipped) bounds, kept; files that could not be read, left out. */
function loadingLines(report: VerifyReplayReport): string[] {
  const { screens, unreadable } = report;
  const lines = [
    `screens read: ${screens.read}; with views whose bounds are inverted (scrolled partly off screen, kept with zero visible area): ${screens.withInvertedBounds} (${screens.invertedViews} views)`,
    `steps whose screens carry the device's activity stack (before and after; activity-finished and editor-finished need it): ${report.stepsWithActivityStack} of ${report.steps}`,
  ];
  if (unreadable.length > 0) {
    lines.push(`unreadable files left out: ${unreadable.length}`);
    for (const entry of unreadable) lines.push(`  ${entry.file}: ${entry.problem}`);
  }
  return lines;
}

/** One line per task: verified or not, and how many of its steps passed, did not, were settled or left out. */
function taskLines(report: VerifyReplayReport): string[] {
  const lines = ['per task (verified: every step replayed and passed or settled):'];
  for (const task of report.tasks.perTask) {
    lines.push(`  ${task.verified ? 'verified    ' : 'not verified'} ${task.id}: ${task.steps} steps, passed ${task.passed}, not passed ${task.notPassed}, settled ${task.settled}, left out ${task.leftOut}`);
  }
  return lines;
}
