import { CassetteMissError } from './cassette-miss-error.js';
import { readCassette, requestHash, requestSnippet, type CassetteEntry } from './cassette.js';
import type { LanguageModel, LanguageModelRequest, ModelReply, ModelRequest, TextMessage } from './language-model.js';
import type { ModelRole } from './model-role.js';
import type { VisionMessage, VisionModel, VisionModelRequest } from './vision-model.js';

export interface ReplayingModelOptions {
  /** The cassette file written by a recording model. */
  readonly path: string;
  /**
   * Model name per role, as configured when recording. Default: the model recorded for
   * that role in the cassette (so a replay needs no configuration).
   */
  readonly models?: Partial<Record<ModelRole, string>>;
}

/** Shared engine of the replayers. */
class CassettePlayer {
  private readonly path: string;
  private readonly byKey = new Map<string, CassetteEntry>();
  private readonly countsByHash = new Map<string, number>();
  private readonly recordedModels = new Map<ModelRole, string>();
  private readonly models: Partial<Record<ModelRole, string>>;
  private readonly occurrences = new Map<string, number>();
  private replayedCount = 0;
  readonly size: number;

  constructor(options: ReplayingModelOptions) {
    this.path = options.path;
    this.models = options.models ?? {};
    const entries = readCassette(options.path);
    this.size = entries.length;
    for (const entry of entries) {
      this.byKey.set(`${entry.hash}#${entry.occurrence}`, entry);
      this.countsByHash.set(entry.hash, (this.countsByHash.get(entry.hash) ?? 0) + 1);
      if (!this.recordedModels.has(entry.role)) this.recordedModels.set(entry.role, entry.model);
    }
  }

  get replayed(): number {
    return this.replayedCount;
  }

  modelName(role: ModelRole): string {
    return this.models[role] ?? this.recordedModels.get(role) ?? `(no ${role} call recorded)`;
  }

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
    this.replayedCount += 1;
    const reply = entry.reply;
    return {
      text: reply.text,
      usage: reply.usage.estimated === true ? { promptTokens: reply.usage.promptTokens, completionTokens: reply.usage.completionTokens, estimated: true } : { promptTokens: reply.usage.promptTokens, completionTokens: reply.usage.completionTokens },
      latencyMs: reply.latencyMs,
      model: reply.model,
      ...(reply.finishReason === undefined ? {} : { finishReason: reply.finishReason }),
    };
  }
}

/**
 * A {@link LanguageModel} that answers from a cassette recorded by
 * `RecordingLanguageModel`: the n-th call with a given request hash gets the n-th
 * recorded reply for it, with the recorded usage and latency (so metrics replay too).
 * A request that was not recorded throws {@link CassetteMissError} naming the hash.
 * Throws `CassetteReadError` at construction when the file is missing or malformed.
 */
export class ReplayingLanguageModel implements LanguageModel {
  readonly provider: string;
  private readonly player: CassettePlayer;

  constructor(options: ReplayingModelOptions) {
    this.player = new CassettePlayer(options);
    this.provider = `replay ${options.path}`;
  }

  /** Calls answered so far. */
  get replayed(): number {
    return this.player.replayed;
  }

  /** Recorded calls not (yet) replayed: non-zero after a run means the run made fewer calls than the recording. */
  get unused(): number {
    return this.player.size - this.player.replayed;
  }

  modelName(role: ModelRole): string {
    return this.player.modelName(role);
  }

  generate(request: LanguageModelRequest): Promise<ModelReply> {
    return this.player.generate(request);
  }
}

/** The {@link VisionModel} counterpart of {@link ReplayingLanguageModel}; images match by their SHA-256. */
export class ReplayingVisionModel implements VisionModel {
  readonly provider: string;
  private readonly player: CassettePlayer;

  constructor(options: ReplayingModelOptions) {
    this.player = new CassettePlayer(options);
    this.provider = `replay ${options.path}`;
  }

  get replayed(): number {
    return this.player.replayed;
  }

  get unused(): number {
    return this.player.size - this.player.replayed;
  }

  modelName(role: ModelRole): string {
    return this.player.modelName(role);
  }

  generate(request: VisionModelRequest): Promise<ModelReply> {
    return this.player.generate(request);
  }
}
