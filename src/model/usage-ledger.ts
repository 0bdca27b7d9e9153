import type { ModelCallRecord } from './model-call-record.js';
import type { ModelRole } from './model-role.js';
import type { SectionTokens } from './prompt-section.js';
import { addSectionTokens } from './prompt-tokens-by-section.js';
import { tallyReplyRead, type ReplyRead, type ReplyRepairsByRole } from './reply-repair.js';
import { PromptPrefixIndex } from './prompt-prefix-index.js';
import { promptPrefixText } from './shared-prompt-prefix.js';

/** Summed accounting over a set of calls. */
export interface UsageTotals {
  readonly calls: number;
  /** Requests sent for those calls, retries included: more than `calls` when an endpoint had to be asked again. */
  readonly attempts: number;
  readonly failedCalls: number;
  readonly promptTokens: number;
  readonly completionTokens: number;
  readonly latencyMs: number;
  readonly images: number;
  readonly imageBytes: number;
  /** Estimated prompt tokens of the images (inside `promptTokens`; see `ModelCallRecord.imageTokens`). */
  readonly imageTokens: number;
  /** Estimated prompt tokens by section (see `ModelCallRecord.promptSections`). */
  readonly promptSections: SectionTokens;
  /** Calls whose token counts were estimated locally (the provider sent none). */
  readonly estimatedCalls: number;
  /** Prompt tokens the provider served from its cache (inside `promptTokens`). */
  readonly cachedPromptTokens: number;
  /** Images sent, by pixel size (`1080x2400`; `unknown` when the header could not be read). */
  readonly imageSizes: ImageSizeCounts;
  /** Prompt tokens each call shared, from its start, with an earlier call of the ledger (`LedgerEntry.sharedPrefixTokens`). */
  readonly sharedPrefixTokens: number;
}

/** Images counted by pixel size: `{ "1080x2400": 12 }`. */
export type ImageSizeCounts = Readonly<Record<string, number>>;

/** The key an image size is counted under: `1080x2400`, or `unknown`. */
export function imageSizeKey(size: { readonly width?: number; readonly height?: number }): string {
  return size.width === undefined || size.height === undefined ? 'unknown' : `${size.width}x${size.height}`;
}

/** Two tallies of image sizes added. */
export function addImageSizes(a: ImageSizeCounts, b: ImageSizeCounts): ImageSizeCounts {
  const result: Record<string, number> = { ...a };
  for (const [size, count] of Object.entries(b)) result[size] = (result[size] ?? 0) + count;
  return result;
}

/** One call as the ledger keeps it. */
export interface LedgerEntry {
  readonly role: ModelRole;
  /** The model that answered, or the requested one when the call failed. */
  readonly model: string;
  readonly promptTokens: number;
  readonly completionTokens: number;
  readonly latencyMs: number;
  readonly images: number;
  readonly imageBytes: number;
  readonly imageTokens: number;
  readonly promptSections: SectionTokens;
  readonly estimated: boolean;
  readonly failed: boolean;
  /** Requests sent for the call, retries included. */
  readonly attempts: number;
  /** Prompt tokens served from the provider's cache (inside `promptTokens`); absent: none reported. */
  readonly cachedPromptTokens?: number;
  /** The call's images by pixel size; absent: none. */
  readonly imageSizes?: ImageSizeCounts;
  /**
   * Estimated prompt tokens (o200k) at the start of this call's prompt that an earlier call
   * of the same ledger (one run) began with too: what a prefix cache could serve. Absent: none.
   */
  readonly sharedPrefixTokens?: number;
}

const emptyTotals: UsageTotals = { calls: 0, attempts: 0, failedCalls: 0, promptTokens: 0, completionTokens: 0, latencyMs: 0, images: 0, imageBytes: 0, imageTokens: 0, promptSections: {}, estimatedCalls: 0, cachedPromptTokens: 0, imageSizes: {}, sharedPrefixTokens: 0 };

/**
 * Per-call accounting (docs/architecture.md §6): prompt and completion tokens, latency, images and
 * image bytes, summed per role and per model. Fed by `MeteredLanguageModel` /
 * `MeteredVisionModel`, or by `record` directly.
 */
export class UsageLedger {
  private readonly entryList: LedgerEntry[] = [];
  /** The prompt text of every call recorded from its trace record, for the shared prefixes. */
  private readonly promptTexts = new PromptPrefixIndex();
  private readonly replyReads: { -readonly [Role in keyof ReplyRepairsByRole]: ReplyRepairsByRole[Role] } = {};

  /** Adds one call. */
  record(entry: LedgerEntry): void {
    this.entryList.push(entry);
  }

  /** Adds one call from its trace record. */
  recordCall(record: ModelCallRecord): LedgerEntry {
    const entry: LedgerEntry = {
      role: record.role,
      model: record.reply?.model ?? record.requestedModel,
      promptTokens: record.promptTokens,
      completionTokens: record.completionTokens,
      latencyMs: record.latencyMs,
      images: record.images,
      imageBytes: record.imageBytes,
      imageTokens: record.imageTokens,
      promptSections: record.promptSections,
      estimated: record.usageEstimated,
      failed: record.error !== undefined,
      attempts: record.attempts ?? 1,
      ...(record.cachedPromptTokens === undefined ? {} : { cachedPromptTokens: record.cachedPromptTokens }),
      ...imageSizesOf(record),
      ...this.sharedPrefixOf(record),
    };
    this.record(entry);
    return entry;
  }

  private sharedPrefixOf(record: ModelCallRecord): { sharedPrefixTokens?: number } {
    const text = promptPrefixText(record.messages);
    const shared = record.error === undefined ? this.promptTexts.sharedTokens(text) : 0;
    this.promptTexts.add(text);
    return shared > 0 ? { sharedPrefixTokens: shared } : {};
  }

  /** Counts one structured reply of `role` as it was read (`generateStructured` reports each through the metered model). */
  recordReplyRead(role: ModelRole, read: ReplyRead): void {
    this.replyReads[role] = tallyReplyRead(this.replyReads[role], read);
  }

  /** The structured replies read per role: how many, how many only after a repair and of what kind, how many invalid. */
  replyRepairs(): ReplyRepairsByRole {
    return { ...this.replyReads };
  }

  /** Every call, in order. */
  get entries(): readonly LedgerEntry[] {
    return this.entryList;
  }

  /** Totals over every call, or over the calls from index `since` on (for per-step deltas). */
  totals(since = 0): UsageTotals {
    return sum(this.entryList.slice(since));
  }

  /** Totals per role; roles without calls are absent. */
  byRole(): Partial<Record<ModelRole, UsageTotals>> {
    const result: Partial<Record<ModelRole, UsageTotals>> = {};
    for (const entry of this.entryList) result[entry.role] = add(result[entry.role] ?? emptyTotals, entry);
    return result;
  }

  /** Plain-JSON summary (for `run-end` events and result files): totals, per role, per model. */
  summary(): { totals: UsageTotals; byRole: Partial<Record<ModelRole, UsageTotals>>; byModel: Record<string, UsageTotals> } {
    return { totals: this.totals(), byRole: this.byRole(), byModel: Object.fromEntries(this.byModel()) };
  }

  /** Totals per model name, in first-seen order. */
  byModel(): Map<string, UsageTotals> {
    const result = new Map<string, UsageTotals>();
    for (const entry of this.entryList) result.set(entry.model, add(result.get(entry.model) ?? emptyTotals, entry));
    return result;
  }
}

function sum(entries: readonly LedgerEntry[]): UsageTotals {
  return entries.reduce(add, emptyTotals);
}

function add(totals: UsageTotals, entry: LedgerEntry): UsageTotals {
  return {
    calls: totals.calls + 1,
    attempts: totals.attempts + entry.attempts,
    failedCalls: totals.failedCalls + (entry.failed ? 1 : 0),
    promptTokens: totals.promptTokens + entry.promptTokens,
    completionTokens: totals.completionTokens + entry.completionTokens,
    latencyMs: totals.latencyMs + entry.latencyMs,
    images: totals.images + entry.images,
    imageBytes: totals.imageBytes + entry.imageBytes,
    imageTokens: totals.imageTokens + entry.imageTokens,
    promptSections: addSectionTokens(totals.promptSections, entry.promptSections),
    estimatedCalls: totals.estimatedCalls + (entry.estimated ? 1 : 0),
    cachedPromptTokens: totals.cachedPromptTokens + (entry.cachedPromptTokens ?? 0),
    imageSizes: entry.imageSizes === undefined ? totals.imageSizes : addImageSizes(totals.imageSizes, entry.imageSizes),
    sharedPrefixTokens: totals.sharedPrefixTokens + (entry.sharedPrefixTokens ?? 0),
  };
}

/** The record's images by size, as a ledger entry field (nothing when it sent none). */
function imageSizesOf(record: ModelCallRecord): { imageSizes?: ImageSizeCounts } {
  const sizes: Record<string, number> = {};
  for (const message of record.messages) for (const image of message.images ?? []) sizes[imageSizeKey(image)] = (sizes[imageSizeKey(image)] ?? 0) + 1;
  return Object.keys(sizes).length === 0 ? {} : { imageSizes: sizes };
}
