import { CassetteRecorder, type RecordingModelOptions } from './cassette-recorder.js';
import type { LanguageModel, ModelReply, ModelRequest, TextMessage } from './language-model.js';
import type { ModelRole } from './model-role.js';
import type { VisionMessage, VisionModel } from './vision-model.js';

/** What a recording model wraps: a language or a vision model, whose requests carry `Message`s. */
interface RecordableModel<Message extends TextMessage | VisionMessage> {
  readonly provider: string;
  modelName(role: ModelRole): string;
  generate(request: ModelRequest<Message>): Promise<ModelReply>;
}

/** The one body of both recording models: they differ only in the messages they carry. */
class RecordingModel<Message extends TextMessage | VisionMessage> {
  readonly provider: string;
  private readonly inner: RecordableModel<Message>;
  private readonly recorder: CassetteRecorder;

  /** `options` opens a cassette of its own; a `CassetteRecorder` shares one with other recording models. */
  constructor(inner: RecordableModel<Message>, options: RecordingModelOptions | CassetteRecorder) {
    this.inner = inner;
    this.provider = `recording ${inner.provider}`;
    this.recorder = options instanceof CassetteRecorder ? options : new CassetteRecorder(options);
  }

  /** Calls recorded into the cassette (by every model sharing its recorder). */
  get recorded(): number {
    return this.recorder.recorded;
  }

  modelName(role: ModelRole): string {
    return this.inner.modelName(role);
  }

  generate(request: ModelRequest<Message>): Promise<ModelReply> {
    return this.recorder.generate(this.inner, request);
  }
}

/**
 * Wraps a {@link LanguageModel} and records every successful call into a cassette
 * (JSONL, one line per call: request hash → reply, usage, latency), so that
 * `ReplayingLanguageModel` can replay the run exactly. Failed calls are not recorded
 * (they throw through). Nothing secret is written: no headers or keys are ever seen
 * here, and text that looks like a key is redacted.
 */
export class RecordingLanguageModel extends RecordingModel<TextMessage> implements LanguageModel {}

/** The {@link VisionModel} counterpart of {@link RecordingLanguageModel}; images are stored as SHA-256 digests only. */
export class RecordingVisionModel extends RecordingModel<VisionMessage> implements VisionModel {}
