import type { RetrievedCertificate } from '../../memory/certificate-memory.js';
import type { Perception } from '../../perception/perceive.js';
import { certificateScope, renderCertificateHint, type Certificate } from '../../verify/certificate.js';
import type { HistoryEntry } from '../prompts/agent-prompts.js';

/** How many certificate hints the planner sees at most. */
export const maxCertificateHints = 2;

/** How many certificates to retrieve before {@link selectCertificateHints} filters them. */
export const retrievedCertificates = 8;

const normalise = (text: string): string => text.replace(/\s+/g, ' ').trim().toLowerCase();

/** The acted-on unit is on this screen (same type and label), or a pseudo unit (always there). */
function actionOnScreen(certificate: Certificate, perception: Perception): boolean {
  const { unitType, label } = certificate.action;
  if (unitType === 'navigate' || unitType === 'finish') return true;
  const hidden = new Set(perception.plannerView.hiddenUnits);
  return perception.units.some((unit) => unit.type === unitType && unit.label === label && !hidden.has(unit.id));
}

/**
 * The intent the next plan pursues, as far as it is known before the planner answers:
 * the last intent when it did not pass (it is still open: the planner retries it or works
 * around it), else the task itself. Retrieval keys on it, never on an intent already done.
 */
export function openIntent(history: readonly HistoryEntry[], instruction: string): string {
  const last = history.at(-1);
  return last && (last.outcome === 'fail' || last.outcome === 'inconclusive') ? last.intent : instruction;
}

/**
 * The retrieved certificates worth showing the planner, as hint lines, best first, at
 * most {@link maxCertificateHints}: warnings (a failure, an inconclusive check, a weak or
 * unverified pass: "executed but no change", "value not updated") written on this screen
 * (same scope) about a unit it shows, one per action and outcome, that the history does
 * not already say: not one this run wrote (`written`: its history entry is in the
 * prompt), nor one about an intent the history shows passed. What is left out adds
 * nothing the planner can act on here and only costs tokens: a certificate of another
 * page, one the history repeats, and a strong pass (it says only that the unit does what
 * its label says; the memory keeps it for skills and reports).
 */
export function selectCertificateHints(retrieved: readonly RetrievedCertificate[], context: { readonly perception: Perception; readonly history: readonly HistoryEntry[]; readonly written?: ReadonlySet<string> }): string[] {
  const scope = certificateScope(context.perception.tree);
  const packageName = context.perception.tree.packageName;
  const passed = new Set(context.history.filter((entry) => entry.outcome === 'pass').map((entry) => normalise(entry.intent)));
  const seen = new Set<string>();
  const kept: { hint: string; warns: boolean }[] = [];
  for (const { certificate } of retrieved) {
    if (certificate.package !== packageName || certificate.scope !== scope) continue;
    if (context.written?.has(certificate.id) || passed.has(normalise(certificate.intent))) continue;
    if (!actionOnScreen(certificate, context.perception)) continue;
    const hint = renderCertificateHint(certificate);
    if (seen.has(hint)) continue;
    seen.add(hint);
    const warns = certificate.effect.outcome !== 'pass' || certificate.effect.strength === 'weak' || certificate.confidence === 'low';
    kept.push({ hint, warns });
  }
  return kept.filter((entry) => entry.warns).slice(0, maxCertificateHints).map((entry) => entry.hint);
}
