import { CassetteMissError } from './cassette-miss-error.js';
import { readCassette, requestHash, requestSnippet, type CassetteEntry } from './cassette.js';
import type { ModelReply, ModelRequest, TextMessage } from './language-model.js';
import type { ModelRole } from './model-role.js';
import type { VisionMessage } from './vision-model.js';

export interface ReplayingModelOptions {
  /** The cassette file written by a recording model. */
  readonly path: string;
  /**
   * Model name per role, as configured when recording. Default: the model recorded for
   * that role in the cassette (so a replay needs no configuration).
   */
  readonly models?: Partial<Record<ModelRole, string>>;
}

/** One recorded call a replay did not use. */
export interface UnusedCassetteCall {
  readonly role: ModelRole;
  readonly hash: string;
  readonly occurrence: number;
  /** The recorded request's last user text, shortened. */
  readonly snippet: string;
}

/**
 * How a replay used its cassette: recorded calls, calls answered, and the recorded ones no
 * request asked for (the run made fewer calls than the recording, or other ones) in file order.
 */
export interface CassetteUse {
  readonly path: string;
  readonly recorded: number;
  readonly replayed: number;
  readonly unused: readonly UnusedCassetteCall[];
}

/**
 * Answers requests from one cassette: the n-th call with a given request hash gets the
 * n-th recorded reply for it. Share one player between a `ReplayingLanguageModel` and a
 * `ReplayingVisionModel` to replay a run recorded into one file.
 */
export class CassettePlayer {
  /** The cassette file. */
  readonly path: string;
  private readonly byKey = new Map<string, CassetteEntry>();
  private readonly countsByHash = new Map<string, number>();
  private readonly recordedModels = new Map<ModelRole, string>();
  private readonly models: Partial<Record<ModelRole, string>>;
  private readonly occurrences = new Map<string, number>();
  private readonly entries: readonly CassetteEntry[];
  private readonly used = new Set<string>();
  private replayedCount = 0;
  /** Calls in the cassette. */
  readonly size: number;

  constructor(options: ReplayingModelOptions) {
    this.path = options.path;
    this.models = options.models ?? {};
    const entries = readCassette(options.path);
    this.entries = entries;
    this.size = entries.length;
    for (const entry of entries) {
      this.byKey.set(`${entry.hash}#${entry.occurrence}`, entry);
      this.countsByHash.set(entry.hash, (this.countsByHash.get(entry.hash) ?? 0) + 1);
      if (!this.recordedModels.has(entry.role)) this.recordedModels.set(entry.role, entry.model);
    }
  }

  /** Calls answered so far. */
  get replayed(): number {
    return this.replayedCount;
  }

  modelName(role: ModelRole): string {
    return this.recordedModel(role) ?? `(no ${role} call recorded)`;
  }

  /** What the replay used so far; after the run, `unused` lists the recorded calls it never asked for. */
  use(): CassetteUse {
    const unused = this.entries
      .filter((entry) => !this.used.has(`${entry.hash}#${entry.occurrence}`))
      .map((entry) => ({ role: entry.role, hash: entry.hash, occurrence: entry.occurrence, snippet: recordedSnippet(entry) }));
    return { path: this.path, recorded: this.size, replayed: this.replayedCount, unused };
  }

  /** The model that answered `role` when recording (or as configured in `models`); undefined when the cassette has no call of that role. */
  recordedModel(role: ModelRole): string | undefined {
    return this.models[role] ?? this.recordedModels.get(role);
  }

  /** The recorded reply; throws {@link CassetteMissError} when the request was not recorded. */
  async generate(request: ModelRequest<TextMessage | VisionMessage>): Promise<ModelReply> {
    if (request.signal?.aborted === true) throw request.signal.reason;
    const model = request.model ?? this.modelName(request.role);
    const hash = requestHash(request, model);
    const occurrence = this.occurrences.get(hash) ?? 0;
    const entry = this.byKey.get(`${hash}#${occurrence}`);
    if (entry === undefined) {
      throw new CassetteMissError({
        hash,
        occurrence,
        role: request.role,
        model,
        cassette: this.path,
        requestSnippet: requestSnippet(request),
        recordedForHash: this.countsByHash.get(hash) ?? 0,
      });
    }
    this.occurrences.set(hash, occurrence + 1);
    this.used.add(`${hash}#${occurrence}`);
    this.replayedCount += 1;
    const reply = entry.reply;
    return {
      text: reply.text,
      usage: reply.usage.estimated === true ? { promptTokens: reply.usage.promptTokens, completionTokens: reply.usage.completionTokens, estimated: true } : { promptTokens: reply.usage.promptTokens, completionTokens: reply.usage.completionTokens },
      latencyMs: reply.latencyMs,
      model: reply.model,
      ...(reply.finishReason === undefined ? {} : { finishReason: reply.finishReason }),
      ...(reply.attempts === undefined ? {} : { attempts: reply.attempts }),
    };
  }
}

/** The last user text of a recorded request, on one line and shortened. */
function recordedSnippet(entry: CassetteEntry): string {
  const text = ([...entry.request.messages].reverse().find((message) => message.role === 'user')?.content ?? '').replace(/\s+/g, ' ').trim();
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}
