import type { LanguageModel, ModelReply, ModelRequest, TextMessage } from './language-model.js';
import type { ModelRole } from './model-role.js';
import { OpenAiChatClient, type OpenAiModelOptions } from './openai-chat-client.js';
import type { VisionMessage } from './vision-model.js';

/** The body of both OpenAI-compatible models: one chat client; they differ only in the messages they send. */
export class OpenAiChatModel<Message extends TextMessage | VisionMessage> {
  readonly provider: string;
  private readonly client: OpenAiChatClient;

  constructor(options: OpenAiModelOptions) {
    this.client = new OpenAiChatClient(options);
    this.provider = this.client.provider;
  }

  modelName(role: ModelRole): string {
    return this.client.modelName(role);
  }

  generate(request: ModelRequest<Message>): Promise<ModelReply> {
    return this.client.generate(request);
  }
}

/**
 * A {@link LanguageModel} on any OpenAI-compatible chat endpoint (OpenAI, vLLM, Ollama,
 * LM Studio, llama.cpp server). The model name comes from the request's role via the
 * config. Retries 429, 5xx, timeouts and connection errors with backoff inside a budget;
 * throws `ModelCallError` when the call fails for good, `ModelConfigError` at
 * construction when a required key is missing.
 */
export class OpenAiLanguageModel extends OpenAiChatModel<TextMessage> implements LanguageModel {}
