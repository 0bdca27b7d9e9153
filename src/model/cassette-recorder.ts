import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { Redactor } from '../util/redactor.js';
import { cassetteVersion, readCassette, requestHash, type CassetteEntry } from './cassette.js';
import type { ModelReply, ModelRequest, TextMessage } from './language-model.js';
import { recordMessages } from './model-call-record.js';
import type { ModelRole } from './model-role.js';
import type { VisionMessage } from './vision-model.js';
import { asPathKindError } from '../util/path-kind-error.js';

export interface RecordingModelOptions {
  /** The cassette file (JSONL). Its folder is created. */
  readonly path: string;
  /** `overwrite` (default) starts a fresh cassette; `append` continues an existing one. */
  readonly mode?: 'overwrite' | 'append';
  /** Exact secret values to redact besides anything that looks like a key (e.g. the configured API key); ignored when `redactor` is given. */
  readonly secrets?: readonly string[];
  /**
   * The run's redaction pass. When it learns a secret or a typed password, the lines
   * already recorded are rewritten through it (the reply that held a password was
   * recorded before the password was typed); a replay then types the placeholder.
   */
  readonly redactor?: Redactor;
}

/**
 * Writes one cassette: one JSONL line per successful call, written through to the OS
 * before the reply returns. Share one recorder between a `RecordingLanguageModel` and a
 * `RecordingVisionModel` to record a whole run into one file.
 */
export class CassetteRecorder {
  private readonly options: RecordingModelOptions;
  private readonly occurrences = new Map<string, number>();
  private recordedCount = 0;
  private readonly redactor: Redactor;

  constructor(options: RecordingModelOptions) {
    this.options = options;
    this.redactor = options.redactor ?? new Redactor(options.secrets ?? []);
    this.redactor.onChange(() => this.redactRecorded());
    try {
      mkdirSync(dirname(options.path), { recursive: true });
      if ((options.mode ?? 'overwrite') === 'append' && existsSync(options.path)) {
        for (const entry of readCassette(options.path)) this.occurrences.set(entry.hash, Math.max(this.occurrences.get(entry.hash) ?? 0, entry.occurrence + 1));
      } else {
        writeFileSync(options.path, '');
      }
    } catch (error) {
      throw asPathKindError(error, options.path, 'cassette');
    }
  }

  /** Calls recorded so far. */
  get recorded(): number {
    return this.recordedCount;
  }

  /** Calls `inner` and records the call. */
  async generate<Message extends TextMessage | VisionMessage>(
    inner: { modelName(role: ModelRole): string; generate(request: ModelRequest<Message>): Promise<ModelReply> },
    request: ModelRequest<Message>,
  ): Promise<ModelReply> {
    const requestedModel = request.model ?? inner.modelName(request.role);
    const hash = requestHash(request, requestedModel);
    const reply = await inner.generate(request);
    const occurrence = this.occurrences.get(hash) ?? 0;
    this.occurrences.set(hash, occurrence + 1);
    const entry: CassetteEntry = {
      v: cassetteVersion,
      hash,
      occurrence,
      role: request.role,
      model: requestedModel,
      request: {
        messages: recordMessages(request.messages).map((message) => ({
          role: message.role,
          content: this.redactor.text(message.content),
          ...(message.images === undefined ? {} : { images: message.images.map((image) => ({ ...image })) }),
        })),
        ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
        ...(request.maxTokens === undefined ? {} : { maxTokens: request.maxTokens }),
        ...(request.json === undefined ? {} : { json: request.json }),
      },
      reply: {
        text: this.redactor.text(reply.text),
        usage: { ...reply.usage },
        latencyMs: reply.latencyMs,
        model: reply.model,
        ...(reply.finishReason === undefined ? {} : { finishReason: reply.finishReason }),
        ...(reply.attempts === undefined ? {} : { attempts: reply.attempts }),
      },
    };
    appendFileSync(this.options.path, `${JSON.stringify(entry)}\n`);
    this.recordedCount += 1;
    return reply;
  }

  /** Rewrites the cassette through the redactor (synchronously, so no append interleaves). */
  private redactRecorded(): void {
    if (!existsSync(this.options.path)) return;
    let text: string;
    try {
      text = readFileSync(this.options.path, 'utf8');
    } catch (error) {
      throw asPathKindError(error, this.options.path, 'cassette');
    }
    const redacted = this.redactor.text(text);
    if (redacted !== text) writeFileSync(this.options.path, redacted);
  }
}
