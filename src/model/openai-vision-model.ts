import type { ModelReply } from './language-model.js';
import type { ModelRole } from './model-role.js';
import { OpenAiChatClient, type OpenAiModelOptions } from './openai-chat-client.js';
import type { VisionModel, VisionModelRequest } from './vision-model.js';

/**
 * A {@link VisionModel} on any OpenAI-compatible chat endpoint: images go as base64
 * `data:image/png` URLs in `image_url` parts, with their `detail`. Same retries and
 * errors as `OpenAiLanguageModel`.
 */
export class OpenAiVisionModel implements VisionModel {
  readonly provider: string;
  private readonly client: OpenAiChatClient;

  constructor(options: OpenAiModelOptions) {
    this.client = new OpenAiChatClient(options);
    this.provider = this.client.provider;
  }

  modelName(role: ModelRole): string {
    return this.client.modelName(role);
  }

  generate(request: VisionModelRequest): Promise<ModelReply> {
    return this.client.generate(request);
  }
}
