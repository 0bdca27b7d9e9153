import { createHash } from 'node:crypto';
import type { ModelReply, ModelRequest, TextMessage } from './language-model.js';
import { imageDimensions } from './image-dimensions.js';
import { estimateImageTokens } from './image-tokens.js';
import type { ModelRole } from './model-role.js';
import type { SectionTokens } from './prompt-section.js';
import { promptTokensBySection } from './prompt-tokens-by-section.js';
import { isImageMessage, type ImageDetail, type VisionMessage } from './vision-model.js';

/** An image as it appears in records and cassettes: its hash and size, never its bytes. */
export interface ImageDigest {
  readonly sha256: string;
  readonly bytes: number;
  readonly detail?: ImageDetail;
  /** Estimated prompt tokens of this image (its size and detail by the tile formula). */
  readonly tokens?: number;
  /** Pixel size read from the image's header; absent when it could not be read. */
  readonly width?: number;
  readonly height?: number;
}

/** A message as it appears in records: text, plus image digests for image turns. */
export interface RecordedMessage {
  readonly role: 'system' | 'user' | 'assistant';
  readonly content: string;
  readonly images?: readonly ImageDigest[];
}

/**
 * Everything about one model call that a trace artifact (`model-calls/<k>.json`) keeps:
 * prompt, reply, tokens, latency, images. JSON-serialisable; image bytes are replaced by
 * their digests. Not yet redacted: writers redact on the way to disk.
 */
export interface ModelCallRecord {
  readonly role: ModelRole;
  /** The model requested (override or the role's configured model). */
  readonly requestedModel: string;
  readonly messages: readonly RecordedMessage[];
  readonly temperature?: number;
  readonly maxTokens?: number;
  readonly reply?: {
    readonly text: string;
    readonly model: string;
    readonly finishReason?: string;
  };
  readonly promptTokens: number;
  readonly completionTokens: number;
  readonly usageEstimated: boolean;
  /** Prompt tokens served from the provider's cache (inside `promptTokens`), when it said. */
  readonly cachedPromptTokens?: number;
  readonly latencyMs: number;
  /** Requests sent to the endpoint for this call, retries included; absent means one. */
  readonly attempts?: number;
  readonly images: number;
  readonly imageBytes: number;
  /**
   * Prompt tokens of the images, estimated from each image's real size and requested detail
   * (OpenAI's tile formula): providers do not report them apart, so this is always ours.
   */
  readonly imageTokens: number;
  /**
   * Estimated prompt tokens (o200k) by section: system prompt, task, history,
   * certificates, feedback, view, images, ... (`promptTokensBySection`). Local estimates
   * even when the provider reports the total; empty for a call that failed.
   */
  readonly promptSections: SectionTokens;
  /** Set when the call threw: the error's name, code and message. */
  readonly error?: { readonly name: string; readonly code?: string; readonly message: string };
}

/** SHA-256 of image bytes, lowercase hex. */
export function imageSha256(png: Uint8Array): string {
  return createHash('sha256').update(png).digest('hex');
}

/** Messages with every image replaced by its digest. */
export function recordMessages(messages: readonly (TextMessage | VisionMessage)[]): RecordedMessage[] {
  return messages.map((message) => {
    if (!isImageMessage(message)) return { role: message.role, content: message.content };
    return {
      role: message.role,
      content: message.content,
      images: message.images.map((image) => ({
        sha256: imageSha256(image.png),
        bytes: image.png.byteLength,
        ...(image.detail === undefined ? {} : { detail: image.detail }),
        tokens: estimateImageTokens(image),
        ...imageDimensions(image.png),
      })),
    };
  });
}

/** Builds the record of one call from its request and its reply (or the error it threw). */
export function buildModelCallRecord(
  request: ModelRequest<TextMessage | VisionMessage>,
  requestedModel: string,
  outcome: { reply: ModelReply } | { error: unknown; latencyMs: number },
): ModelCallRecord {
  const messages = recordMessages(request.messages);
  let images = 0;
  let imageBytes = 0;
  let imageTokens = 0;
  for (const message of messages) {
    for (const image of message.images ?? []) {
      images += 1;
      imageBytes += image.bytes;
      imageTokens += image.tokens ?? 0;
    }
  }
  const base = {
    role: request.role,
    requestedModel,
    messages,
    ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
    ...(request.maxTokens === undefined ? {} : { maxTokens: request.maxTokens }),
    images,
    imageBytes,
    imageTokens,
  };
  if ('reply' in outcome) {
    const reply = outcome.reply;
    return {
      ...base,
      promptSections: promptTokensBySection(request.messages),
      reply: { text: reply.text, model: reply.model, ...(reply.finishReason === undefined ? {} : { finishReason: reply.finishReason }) },
      promptTokens: reply.usage.promptTokens,
      completionTokens: reply.usage.completionTokens,
      usageEstimated: reply.usage.estimated === true,
      ...(reply.usage.cachedPromptTokens === undefined ? {} : { cachedPromptTokens: reply.usage.cachedPromptTokens }),
      latencyMs: reply.latencyMs,
      attempts: reply.attempts ?? 1,
    };
  }
  const error = outcome.error;
  const code: unknown = typeof error === 'object' && error !== null && 'code' in error ? error.code : undefined;
  const described =
    error instanceof Error
      ? { name: error.name, message: error.message, ...(typeof code === 'string' ? { code } : {}) }
      : { name: 'NonError', message: String(error) };
  const attempts: unknown = typeof error === 'object' && error !== null && 'attempts' in error ? error.attempts : undefined;
  // A reply the endpoint sent and billed but that could not be used keeps its usage.
  const billed: unknown = typeof error === 'object' && error !== null && 'usage' in error ? error.usage : undefined;
  const usage = typeof billed === 'object' && billed !== null && 'promptTokens' in billed && 'completionTokens' in billed && typeof billed.promptTokens === 'number' && typeof billed.completionTokens === 'number'
    ? { promptTokens: billed.promptTokens, completionTokens: billed.completionTokens, ...('cachedPromptTokens' in billed && typeof billed.cachedPromptTokens === 'number' ? { cachedPromptTokens: billed.cachedPromptTokens } : {}) }
    : { promptTokens: 0, completionTokens: 0 };
  return { ...base, promptSections: {}, ...usage, usageEstimated: false, latencyMs: outcome.latencyMs, attempts: typeof attempts === 'number' ? attempts : 1, error: described };
}
