import type { StructuredOutputMode } from './structured-output-mode.js';
import type { JsonSchema } from './json-schema.js';
import type { ModelRole } from './model-role.js';
import type { PromptPart } from './prompt-section.js';

/** A system or assistant turn, or a user turn without images. */
export interface TextMessage {
  readonly role: 'system' | 'user' | 'assistant';
  readonly content: string;
  /** Which part of `content` is which (`sectionedContent`), for the token accounting; never sent. */
  readonly sections?: readonly PromptPart[];
}

/** Token counts of one call as the provider reports them. */
export interface ModelUsage {
  readonly promptTokens: number;
  readonly completionTokens: number;
  /** True when the provider sent no usage and the counts were estimated locally. */
  readonly estimated?: boolean;
  /** Prompt tokens the provider served from its prompt cache (inside `promptTokens`), when it says (`prompt_tokens_details.cached_tokens`). */
  readonly cachedPromptTokens?: number;
}

/** What every model call takes, whatever the provider. */
export interface ModelRequest<Message> {
  /** Selects the model name (per-role configuration) and labels the call in the ledger. */
  readonly role: ModelRole;
  readonly messages: readonly Message[];
  readonly signal?: AbortSignal;
  /** Overrides the model the role would use. */
  readonly model?: string;
  /** Sampling and length; unset ones come from the role's configured settings, else the server's defaults. */
  readonly temperature?: number;
  readonly topP?: number;
  readonly seed?: number;
  readonly maxTokens?: number;
  /** Ask the provider for a JSON object reply when it supports it (the reply is parsed either way). */
  readonly json?: boolean;
  /**
   * The shape the reply must have, as JSON Schema (from the zod schema that validates it):
   * adapters request structured output with it as their mode allows (`SENSEACT_STRUCTURED`);
   * test doubles ignore it. The reply is validated either way.
   */
  readonly responseFormat?: { readonly name: string; readonly schema: JsonSchema };
}

/** What every model call returns. */
export interface ModelReply {
  readonly text: string;
  readonly usage: ModelUsage;
  /** Wall time of the call including our retries, in milliseconds. */
  readonly latencyMs: number;
  /** The model that answered, as the provider names it. */
  readonly model: string;
  /** Why generation stopped (`stop`, `length`, ...) when the provider says. */
  readonly finishReason?: string;
  /** Requests sent for this reply, retries included; absent means one. */
  readonly attempts?: number;
  /**
   * How the request that got this reply asked for structure, when an adapter knows: under
   * `json_schema` the strict schema makes optional keys nullable, so a `null` there follows
   * the schema and is no repair.
   */
  readonly structured?: StructuredOutputMode;
}

/** A request to a text-only model. */
export type LanguageModelRequest = ModelRequest<TextMessage>;

/**
 * A text model (docs/architecture.md §2.4). Provider-neutral: adapters (`OpenAiLanguageModel`), test
 * doubles (`ScriptedLanguageModel`) and decorators (`MeteredLanguageModel`,
 * `RecordingLanguageModel`, `ReplayingLanguageModel`) all implement it.
 * Infrastructure failures throw (`ModelCallError`); aborts throw when `signal` fires.
 */
export interface LanguageModel {
  /** Short description of the provider, e.g. `openai-compatible http://127.0.0.1:8000/v1`. */
  readonly provider: string;
  /** The model name a request with this role (and no override) would use. */
  modelName(role: ModelRole): string;
  generate(request: LanguageModelRequest): Promise<ModelReply>;
}
