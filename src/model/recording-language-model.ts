import { CassetteRecorder, type RecordingModelOptions } from './cassette-recorder.js';
import type { LanguageModel, LanguageModelRequest, ModelReply } from './language-model.js';
import type { ModelRole } from './model-role.js';
import type { VisionModel, VisionModelRequest } from './vision-model.js';

/**
 * Wraps a {@link LanguageModel} and records every successful call into a cassette
 * (JSONL, one line per call: request hash → reply, usage, latency), so that
 * `ReplayingLanguageModel` can replay the run exactly. Failed calls are not recorded
 * (they throw through). Nothing secret is written: no headers or keys are ever seen
 * here, and text that looks like a key is redacted.
 */
export class RecordingLanguageModel implements LanguageModel {
  readonly provider: string;
  private readonly inner: LanguageModel;
  private readonly recorder: CassetteRecorder;

  /** `options` opens a cassette of its own; a `CassetteRecorder` shares one with other recording models. */
  constructor(inner: LanguageModel, options: RecordingModelOptions | CassetteRecorder) {
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

  generate(request: LanguageModelRequest): Promise<ModelReply> {
    return this.recorder.generate(this.inner, request);
  }
}

/** The {@link VisionModel} counterpart of {@link RecordingLanguageModel}; images are stored as SHA-256 digests only. */
export class RecordingVisionModel implements VisionModel {
  readonly provider: string;
  private readonly inner: VisionModel;
  private readonly recorder: CassetteRecorder;

  constructor(inner: VisionModel, options: RecordingModelOptions | CassetteRecorder) {
    this.inner = inner;
    this.provider = `recording ${inner.provider}`;
    this.recorder = options instanceof CassetteRecorder ? options : new CassetteRecorder(options);
  }

  get recorded(): number {
    return this.recorder.recorded;
  }

  modelName(role: ModelRole): string {
    return this.inner.modelName(role);
  }

  generate(request: VisionModelRequest): Promise<ModelReply> {
    return this.recorder.generate(this.inner, request);
  }
}
