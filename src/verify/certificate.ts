import { z } from 'zod';
import { unitTypeSchema, type ControlUnit } from '../perception/control-unit.js';
import type { UiNode, UiTree } from '../ui/ui-tree.js';
import { assertNever } from '../util/assert-never.js';
import { stableHashHex } from '../util/stable-hash.js';
import { pageTitle } from './page-title.js';
import type { AtomicChange, Delta } from './compute-delta.js';
import type { ContractArgs } from './unit-contract.js';
import type { EvidenceStrength, Outcome } from './verify-outcome.js';

/** Version of the certificate record; bump when fields change meaning. */
export const certificateVersion = 1;

/**
 * A feedback certificate (docs/architecture.md §2.8): what was tried on which page, under which
 * conditions, and what it did. The DSL fields are `scope`, `state`, `prereq`, `action`,
 * `effect`, `confidence`; `key` (package + scope + intent) is what retrieval matches.
 */
export const certificateSchema = z.object({
  version: z.literal(certificateVersion),
  /** Stable id: a hash of the content, so the same certificate written twice has one id. */
  id: z.string().min(1),
  intent: z.string(),
  package: z.string(),
  /** The page / area: activity and page title. */
  scope: z.string(),
  /** Retrieval key: package + scope + intent. */
  key: z.string(),
  /** Static preconditions as abstract roles ("form with 2 fields", "toggle 'Wi-Fi'"). */
  state: z.array(z.string()),
  /** Dynamic preconditions: the acted-on unit's state before the action. */
  prereq: z.array(z.string()),
  action: z.object({
    unitType: unitTypeSchema,
    label: z.string(),
    value: z.string().optional(),
  }).strict(),
  effect: z.object({
    label: z.enum(['no-change', 'partial-change', 'new-page']),
    /** Short human summary of the delta ("checked 'Wi-Fi' off → on"). */
    summary: z.string(),
    errors: z.array(z.string()),
    outcome: z.enum(['pass', 'fail', 'inconclusive']),
    /** For a pass: `strong` when the change was tied to the unit, `weak` when only "something changed". */
    strength: z.enum(['strong', 'weak']).optional(),
  }).strict(),
  /** `high` when verified programmatically, `low` when inferred (e.g. by an LLM verifier). */
  confidence: z.enum(['high', 'low']),
}).strict();
export type Certificate = z.infer<typeof certificateSchema>;

/** What a certificate is built from. */
export interface CertificateInput {
  readonly intent: string;
  readonly before: UiTree;
  readonly after: UiTree;
  readonly unit: ControlUnit;
  readonly args?: ContractArgs;
  readonly delta: Delta;
  readonly outcome: Outcome;
  /** How firmly a pass was tied to the unit (docs/architecture.md §2.6); recorded so planners and reports see weak passes. */
  readonly strength?: EvidenceStrength;
  /** True when the outcome came from the contracts / predicates, false when a model inferred it. */
  readonly verifiedProgrammatically: boolean;
}

/** A model may rewrite a certificate more compactly; the template one is always kept. */
export interface CertificateCompressor {
  compress(certificate: Certificate, options?: { signal?: AbortSignal }): Promise<Certificate>;
}

const maxSummaryChanges = 4;

/** What a certificate stores instead of a value typed into a password field. */
export const redactedValue = '[redacted]';

function quote(text: string): string {
  const trimmed = text.replace(/\s+/g, ' ').trim();
  return JSON.stringify(trimmed.length > 40 ? `${trimmed.slice(0, 39)}…` : trimmed);
}

function nodeLabel(node: UiNode | undefined): string {
  if (!node) return '?';
  return node.text || node.contentDesc || node.hint || node.resourceId.slice(node.resourceId.indexOf('/') + 1) || node.className.slice(node.className.lastIndexOf('.') + 1);
}

/** The scope string: activity (short) and page title. */
export function certificateScope(tree: UiTree): string {
  const activity = tree.activity ? tree.activity.slice(tree.activity.lastIndexOf('.') + 1) : '';
  const title = pageTitle(tree);
  return [activity, title ? quote(title) : ''].filter(Boolean).join(' ');
}

function describeChange(change: AtomicChange, before: UiTree, after: UiTree): string {
  switch (change.kind) {
    case 'text':
      if (after.nodes[change.after]?.password || before.nodes[change.before]?.password) return 'text of a password field changed';
      return `${change.field === 'text' ? 'text' : 'desc'} ${quote(change.from)} → ${quote(change.to)}`;
    case 'checked':
    case 'selected':
    case 'enabled':
    case 'focused':
      return `${change.kind} ${quote(nodeLabel(after.nodes[change.after]))} ${change.from ? 'on' : 'off'} → ${change.to ? 'on' : 'off'}`;
    case 'added':
      return `added ${quote(nodeLabel(after.nodes[change.after]))}`;
    case 'removed':
      return `removed ${quote(nodeLabel(before.nodes[change.before]))}`;
    default:
      return assertNever(change, 'atomic change');
  }
}

/** A short summary of a delta, most telling changes first (values, flips, texts, then adds/removes). */
export function summariseDelta(delta: Delta, before: UiTree, after: UiTree): string {
  const rank = (change: AtomicChange): number => (change.kind === 'checked' || change.kind === 'selected' ? 0 : change.kind === 'text' ? 1 : change.kind === 'added' || change.kind === 'removed' ? 3 : 2);
  const ordered = [...delta.changes].sort((a, b) => rank(a) - rank(b));
  const parts = ordered.slice(0, maxSummaryChanges).map((change) => describeChange(change, before, after));
  if (ordered.length > maxSummaryChanges) parts.push(`… ${ordered.length - maxSummaryChanges} more`);
  if (delta.newSurface) parts.unshift('surface opened');
  if (delta.dismissedSurface) parts.unshift('surface dismissed');
  if (delta.packageChanged) parts.unshift(`app → ${after.packageName}`);
  return parts.length > 0 ? parts.join('; ') : 'nothing changed';
}

function unitState(unit: ControlUnit): string[] {
  const facts: string[] = [];
  const label = quote(unit.label || unit.type);
  if (unit.state.checked !== undefined) facts.push(`${label} ${unit.state.checked ? 'checked' : 'unchecked'}`);
  if (unit.state.selected !== undefined) facts.push(`${label} ${unit.state.selected ? 'selected' : 'not selected'}`);
  if (unit.state.value !== undefined) facts.push(`${label} ${unit.state.value === '' ? 'empty' : `holds ${quote(unit.state.value)}`}`);
  if (!unit.state.enabled) facts.push(`${label} disabled`);
  return facts;
}

function screenRoles(tree: UiTree): string[] {
  let fields = 0;
  let toggles = 0;
  let lists = 0;
  for (const node of tree.nodes) {
    if (node.editable) fields++;
    else if (node.checkable) toggles++;
    if (node.scrollable) lists++;
  }
  const roles: string[] = [];
  if (fields > 0) roles.push(`form with ${fields} field${fields === 1 ? '' : 's'}`);
  if (toggles > 0) roles.push(`${toggles} toggle${toggles === 1 ? '' : 's'}`);
  if (lists > 0) roles.push(`${lists} scrollable list${lists === 1 ? '' : 's'}`);
  return roles;
}

/**
 * Builds the template certificate of one executed intent. Deterministic: the same input
 * gives the same certificate (no clock, no randomness); its `id` is a content hash. A
 * value typed into a password field is stored as `redactedValue`.
 */
export function buildCertificate(input: CertificateInput): Certificate {
  const { before, after, unit, delta } = input;
  const scope = certificateScope(before);
  const packageName = before.packageName || after.packageName;
  // A secret typed into a password field never goes to memory (it is persisted on disk).
  const secret = unit.state.password === true || unit.members.some((member) => before.nodes[member.node]?.password === true);
  const value = input.args?.value === undefined ? undefined : secret ? redactedValue : input.args.value;
  const body = {
    version: certificateVersion,
    intent: input.intent,
    package: packageName,
    scope,
    key: [packageName, scope, input.intent].filter(Boolean).join(' | '),
    state: [...screenRoles(before), `${unit.type} ${quote(unit.label || unit.type)}`],
    prereq: unitState(unit),
    action: value === undefined ? { unitType: unit.type, label: unit.label } : { unitType: unit.type, label: unit.label, value },
    effect: {
      label: delta.label,
      summary: summariseDelta(delta, before, after),
      errors: delta.errorsOrBlocks.filter((blocker) => blocker.isNew).map((blocker) => `${blocker.kind}: ${blocker.text}`),
      outcome: input.outcome,
      ...(input.outcome === 'pass' && input.strength ? { strength: input.strength } : {}),
    },
    confidence: input.verifiedProgrammatically ? 'high' as const : 'low' as const,
  };
  return certificateSchema.parse({ ...body, id: `c${stableHashHex(JSON.stringify(body))}` });
}

/**
 * Renders a certificate in the DSL planners read:
 * `cert <id>` then one `field: value` line for scope, state, prereq, action, effect,
 * confidence (and the intent).
 */
export function renderCertificate(certificate: Certificate): string {
  const action = `${certificate.action.unitType} ${quote(certificate.action.label || certificate.action.unitType)}${certificate.action.value === undefined ? '' : ` value=${quote(certificate.action.value)}`}`;
  const errors = certificate.effect.errors.length > 0 ? ` errors: ${certificate.effect.errors.join('; ')}` : '';
  return [
    `cert ${certificate.id} ${certificate.effect.outcome}`,
    `  intent: ${certificate.intent}`,
    `  scope: ${certificate.package}${certificate.scope ? ` ${certificate.scope}` : ''}`,
    `  state: ${certificate.state.join('; ') || '-'}`,
    `  prereq: ${certificate.prereq.join('; ') || '-'}`,
    `  action: ${action}`,
    `  effect: ${certificate.effect.label}: ${certificate.effect.summary}${errors}${certificate.effect.strength ? ` (${certificate.effect.strength} evidence)` : ''}`,
    `  confidence: ${certificate.confidence}`,
  ].join('\n');
}

/** What a certificate's effect says in a hint: the delta's class, and for a partial change its most telling change. */
function effectHint(effect: Certificate['effect']): string {
  switch (effect.label) {
    case 'no-change':
      return 'no change';
    case 'new-page':
      return 'new page';
    case 'partial-change': {
      const first = effect.summary.split('; ')[0] ?? '';
      return first && !first.startsWith('…') ? `changed ${first}` : 'changed';
    }
    default:
      return assertNever(effect.label, 'transition label');
  }
}

/**
 * A certificate as one hint line for the planner (≈ 10–20 tokens where the DSL takes
 * ≈ 100): outcome, action, effect, errors — `fail: toggle "Use Bluetooth" → no change`.
 * Scope and state are left out: hints are shown on the screen they were written on.
 */
export function renderCertificateHint(certificate: Certificate): string {
  const { action, effect } = certificate;
  const outcome = `${effect.outcome}${effect.strength === 'weak' ? ' (weak)' : ''}${certificate.confidence === 'low' ? ' (unverified)' : ''}`;
  const acted = `${action.unitType} ${quote(action.label || action.unitType)}${action.value === undefined ? '' : ` value=${quote(action.value)}`}`;
  const errors = effect.errors.length > 0 ? `; ${effect.errors.slice(0, 2).map((error) => quote(error)).join('; ')}` : '';
  return `${outcome}: ${acted} → ${effectHint(effect)}${errors}`;
}
