import type { LanguageModel, LanguageModelRequest, ModelReply } from './language-model.js';
import type { ModelRole } from './model-role.js';
import { OpenAiChatClient, type OpenAiModelOptions } from './openai-chat-client.js';

/**
 * A {@link LanguageModel} on any OpenAI-compatible chat endpoint (OpenAI, vLLM, Ollama,
 * LM Studio, llama.cpp server). The model name comes from the request's role via the
 * config. Retries 429, 5xx, timeouts and connection errors with backoff inside a budget;
 * throws `ModelCallError` when the call fails for good, `ModelConfigError` at
 * construction when a required key is missing.
 */
export class OpenAiLanguageModel implements LanguageModel {
  readonly provider: string;
  private readonly client: OpenAiChatClient;

  constructor(options: OpenAiModelOptions) {
    this.client = new OpenAiChatClient(options);
    this.provider = this.client.provider;
  }

  modelName(role: ModelRole): string {
    return this.client.modelName(role);
  }

  generate(request: LanguageModelRequest): Promise<ModelReply> {
    return this.client.generate(request);
  }
}
