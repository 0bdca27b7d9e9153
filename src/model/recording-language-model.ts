import { appendFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { redactSecrets } from '../util/redact-secrets.js';
import { cassetteVersion, readCassette, requestHash, type CassetteEntry } from './cassette.js';
import type { LanguageModel, LanguageModelRequest, ModelReply, ModelRequest, TextMessage } from './language-model.js';
import { recordMessages } from './model-call-record.js';
import type { ModelRole } from './model-role.js';
import type { VisionMessage, VisionModel, VisionModelRequest } from './vision-model.js';

export interface RecordingModelOptions {
  /** The cassette file (JSONL). Its folder is created. */
  readonly path: string;
  /** `overwrite` (default) starts a fresh cassette; `append` continues an existing one. */
  readonly mode?: 'overwrite' | 'append';
  /** Exact secret values to redact besides anything that looks like a key (e.g. the configured API key). */
  readonly secrets?: readonly string[];
}

/** Shared engine of the recorders: one JSONL line per successful call, written and flushed before the reply returns. */
class CassetteRecorder {
  private readonly options: RecordingModelOptions;
  private readonly occurrences = new Map<string, number>();
  private recordedCount = 0;

  constructor(options: RecordingModelOptions) {
    this.options = options;
    mkdirSync(dirname(options.path), { recursive: true });
    if ((options.mode ?? 'overwrite') === 'append' && existsSync(options.path)) {
      for (const entry of readCassette(options.path)) this.occurrences.set(entry.hash, Math.max(this.occurrences.get(entry.hash) ?? 0, entry.occurrence + 1));
    } else {
      writeFileSync(options.path, '');
    }
  }

  get recorded(): number {
    return this.recordedCount;
  }

  async generate<Message extends TextMessage | VisionMessage>(
    inner: { modelName(role: ModelRole): string; generate(request: ModelRequest<Message>): Promise<ModelReply> },
    request: ModelRequest<Message>,
  ): Promise<ModelReply> {
    const requestedModel = request.model ?? inner.modelName(request.role);
    const hash = requestHash(request, requestedModel);
    const reply = await inner.generate(request);
    const occurrence = this.occurrences.get(hash) ?? 0;
    this.occurrences.set(hash, occurrence + 1);
    const secrets = this.options.secrets ?? [];
    const entry: CassetteEntry = {
      v: cassetteVersion,
      hash,
      occurrence,
      role: request.role,
      model: requestedModel,
      request: {
        messages: recordMessages(request.messages).map((message) => ({
          role: message.role,
          content: redactSecrets(message.content, secrets),
          ...(message.images === undefined ? {} : { images: message.images.map((image) => ({ ...image })) }),
        })),
        ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
        ...(request.maxTokens === undefined ? {} : { maxTokens: request.maxTokens }),
        ...(request.json === undefined ? {} : { json: request.json }),
      },
      reply: {
        text: redactSecrets(reply.text, secrets),
        usage: { ...reply.usage },
        latencyMs: reply.latencyMs,
        model: reply.model,
        ...(reply.finishReason === undefined ? {} : { finishReason: reply.finishReason }),
      },
    };
    appendFileSync(this.options.path, `${JSON.stringify(entry)}\n`);
    this.recordedCount += 1;
    return reply;
  }
}

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

  constructor(inner: LanguageModel, options: RecordingModelOptions) {
    this.inner = inner;
    this.provider = `recording ${inner.provider}`;
    this.recorder = new CassetteRecorder(options);
  }

  /** Calls recorded by this instance. */
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

  constructor(inner: VisionModel, options: RecordingModelOptions) {
    this.inner = inner;
    this.provider = `recording ${inner.provider}`;
    this.recorder = new CassetteRecorder(options);
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
