import { OpenAiChatModel } from './openai-language-model.js';
import type { VisionMessage, VisionModel } from './vision-model.js';

/**
 * A {@link VisionModel} on any OpenAI-compatible chat endpoint: images go as base64
 * `data:image/png` URLs in `image_url` parts, with their `detail`. Same retries and
 * errors as `OpenAiLanguageModel`.
 */
export class OpenAiVisionModel extends OpenAiChatModel<VisionMessage> implements VisionModel {}
