import { CassettePlayer, type ReplayingModelOptions } from './cassette-player.js';
import type { LanguageModel, ModelReply, ModelRequest, TextMessage } from './language-model.js';
import type { ModelRole } from './model-role.js';
import type { VisionMessage, VisionModel } from './vision-model.js';

/** The one body of both replaying models: they differ only in the messages they accept. */
class ReplayingModel<Message extends TextMessage | VisionMessage> {
  readonly provider: string;
  private readonly player: CassettePlayer;

  /** `options` opens a cassette of its own; a `CassettePlayer` shares one with other replaying models. */
  constructor(options: ReplayingModelOptions | CassettePlayer) {
    this.player = options instanceof CassettePlayer ? options : new CassettePlayer(options);
    this.provider = `replay ${this.player.path}`;
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

  generate(request: ModelRequest<Message>): Promise<ModelReply> {
    return this.player.generate(request);
  }
}

/**
 * A {@link LanguageModel} that answers from a cassette recorded by
 * `RecordingLanguageModel`: the n-th call with a given request hash gets the n-th
 * recorded reply for it, with the recorded usage and latency (so metrics replay too).
 * A request that was not recorded throws {@link CassetteMissError} naming the hash.
 * Throws `CassetteReadError` at construction when the file is missing or malformed.
 */
export class ReplayingLanguageModel extends ReplayingModel<TextMessage> implements LanguageModel {}

/** The {@link VisionModel} counterpart of {@link ReplayingLanguageModel}; images match by their SHA-256. */
export class ReplayingVisionModel extends ReplayingModel<VisionMessage> implements VisionModel {}
