import { z } from 'zod';
import type { ModelReply, ModelRequest, TextMessage } from './language-model.js';
import type { ModelRole } from './model-role.js';
import type { PromptPart } from './prompt-section.js';

/**
 * How closely a vision model should look at an image (OpenAI's `detail`): `low` sends a
 * 512×512 version for a flat 85 tokens, `high` tiles the image (see `imageTokens`),
 * `auto` lets the provider choose.
 */
export const imageDetailSchema = z.enum(['low', 'high', 'auto']);
export type ImageDetail = z.infer<typeof imageDetailSchema>;

/** One image sent to a vision model: PNG bytes as taken from the device. */
export interface ModelImage {
  readonly png: Uint8Array;
  readonly detail?: ImageDetail;
}

/** A user turn that carries images after its text. */
export interface ImageMessage {
  readonly role: 'user';
  readonly content: string;
  /** Which part of `content` is which (`sectionedContent`), for the token accounting; never sent. */
  readonly sections?: readonly PromptPart[];
  readonly images: readonly ModelImage[];
}

/** Any turn a vision model accepts. */
export type VisionMessage = TextMessage | ImageMessage;

/** A request to a vision model. */
export type VisionModelRequest = ModelRequest<VisionMessage>;

/**
 * A vision-language model: a {@link LanguageModel} whose user turns may carry images.
 * Every `VisionModel` can serve text-only requests too.
 */
export interface VisionModel {
  readonly provider: string;
  modelName(role: ModelRole): string;
  generate(request: VisionModelRequest): Promise<ModelReply>;
}

/** True when the message carries images. */
export function isImageMessage(message: VisionMessage): message is ImageMessage {
  return 'images' in message;
}

/** Number of images and their total bytes in a list of messages. */
export function countImages(messages: readonly VisionMessage[]): { images: number; imageBytes: number } {
  let images = 0;
  let imageBytes = 0;
  for (const message of messages) {
    if (!isImageMessage(message)) continue;
    for (const image of message.images) {
      images += 1;
      imageBytes += image.png.byteLength;
    }
  }
  return { images, imageBytes };
}
