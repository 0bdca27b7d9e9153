import OpenAI from 'openai';
import type { ChatCompletion, ChatCompletionContentPart, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { readSseCompletion } from './read-sse-completion.js';
import { assertNever } from '../util/assert-never.js';
import { debugLog } from '../util/debug-log.js';
import { chatRequestBody } from './chat-request-body.js';
import { learnQuirk, noQuirks, type EndpointQuirks } from './endpoint-quirks.js';
import { estimatePromptTokens, estimateTokens } from './estimate-tokens.js';
import type { ModelReply, ModelRequest, ModelUsage, TextMessage } from './language-model.js';
import { ModelCallError, type ModelCallFailure } from './model-call-error.js';
import { ModelConfigError } from './model-config-error.js';
import { defaultStructuredOutputMode, isLoopback, modelTimeoutProblem, type ModelEndpointConfig } from './model-config-from-env.js';
import type { ModelRole } from './model-role.js';
import type { StructuredOutputMode } from './structured-output-mode.js';
import { defaultRetryPolicy, parseRetryAfter, retryDelayMs, sleep, type RetryPolicy } from './retry-policy.js';
import { defaultBreakerOptions, EndpointBreaker } from './endpoint-breaker.js';
import { isImageMessage, type VisionMessage } from './vision-model.js';

/** Options of the OpenAI-compatible adapters. */
export interface OpenAiModelOptions {
  /** Base URL, key and per-role models; usually `modelConfigFromEnv(process.env)`. */
  readonly config: ModelEndpointConfig;
  /** Timeout of one HTTP attempt, in milliseconds. Default: the config's, else 60000. */
  readonly timeoutMs?: number;
  /** Our retries on 429, 5xx, timeouts and connection errors. */
  readonly retry?: Partial<RetryPolicy>;
  /** Send `response_format: { type: 'json_object' }` when a request asks for JSON. Default false (not every server supports it). */
  readonly jsonMode?: boolean;
  /** Temperature when neither the request nor the role's settings set one. Default: the server's. */
  readonly defaultTemperature?: number;
  /** How structured replies are requested. Default: the config's, else the endpoint's safe default. */
  readonly structured?: StructuredOutputMode;
  /** The endpoint's breaker, shared by every client of the endpoint (`createConfiguredModels` shares one); default one of this client's own. */
  readonly breaker?: EndpointBreaker;
  /** Time and waiting between retries (tests inject a clock that does not really wait). Default: `performance.now` and a timer. */
  readonly clock?: RetryClock;
}

/** Where the client reads the time and how it waits between retries. */
export interface RetryClock {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

const realClock: RetryClock = { now: () => performance.now(), sleep };

/** Sent as the key to loopback servers that need none (the SDK insists on a value). */
const placeholderKey = 'no-key-needed';

/**
 * The HTTP engine behind `OpenAiLanguageModel` and `OpenAiVisionModel`: the official
 * `openai` client with its retries off, our backoff on top, images as base64 data URLs.
 */
export class OpenAiChatClient {
  readonly provider: string;
  private readonly client: OpenAI;
  private readonly config: ModelEndpointConfig;
  private readonly retry: RetryPolicy;
  private readonly timeoutMs: number;
  private readonly jsonMode: boolean;
  private readonly defaultTemperature: number | undefined;
  private readonly structured: StructuredOutputMode;
  private readonly breaker: EndpointBreaker;
  private readonly clock: RetryClock;
  /** Parameter adaptations learned per model from 400 replies. */
  private readonly quirks = new Map<string, EndpointQuirks>();

  /** Throws {@link ModelConfigError} when the endpoint needs a key and none is configured. */
  constructor(options: OpenAiModelOptions) {
    this.config = options.config;
    let host: string;
    try {
      host = new URL(options.config.baseUrl).hostname;
    } catch (error) {
      throw new ModelConfigError(`The model base URL ${JSON.stringify(options.config.baseUrl)} is not a URL: set the baseUrl option or SENSEACT_BASE_URL, e.g. http://127.0.0.1:8000/v1. (${String(error)})`);
    }
    if (options.config.apiKey === undefined && !isLoopback(host)) {
      throw new ModelConfigError(
        `No API key for the model endpoint ${options.config.baseUrl}: pass the apiKey option or set SENSEACT_API_KEY (or OPENAI_API_KEY).`,
      );
    }
    this.provider = `openai-compatible ${options.config.baseUrl}`;
    this.retry = { ...defaultRetryPolicy, ...options.config.retry, ...options.retry };
    this.clock = options.clock ?? realClock;
    this.breaker = options.breaker ?? new EndpointBreaker(defaultBreakerOptions, () => this.clock.now());
    this.timeoutMs = options.timeoutMs ?? options.config.timeoutMs ?? 60_000;
    const timeoutProblem = modelTimeoutProblem(this.timeoutMs);
    if (timeoutProblem !== undefined) throw new ModelConfigError(`The model request timeout (the timeoutMs option, or SENSEACT_MODEL_TIMEOUT_MS) ${timeoutProblem}.`);
    this.jsonMode = options.jsonMode ?? false;
    this.defaultTemperature = options.defaultTemperature;
    this.structured = options.structured ?? options.config.structured ?? defaultStructuredOutputMode(options.config.baseUrl);
    this.client = new OpenAI({
      baseURL: options.config.baseUrl,
      apiKey: options.config.apiKey ?? placeholderKey,
      maxRetries: 0,
      timeout: this.timeoutMs,
    });
  }

  modelName(role: ModelRole): string {
    return this.config.models[role];
  }

  /** One chat completion with our retries; throws {@link ModelCallError} when it fails for good. */
  async generate(request: ModelRequest<TextMessage | VisionMessage>): Promise<ModelReply> {
    const model = request.model ?? this.modelName(request.role);
    const roleSettings = this.config.generation?.[request.role] ?? {};
    const settings = roleSettings.temperature === undefined && this.defaultTemperature !== undefined ? { ...roleSettings, temperature: this.defaultTemperature } : roleSettings;
    const messages = request.messages.map(toOpenAiMessage);
    const started = this.clock.now();
    let attempt = 1;
    // Every request the endpoint sees, the resends after a learned quirk included: the call's attempts.
    let sent = 0;
    let rateLimitedRetries = 0;
    for (;;) {
      const quirks = this.quirks.get(model) ?? noQuirks;
      const structured = quirks.structuredCeiling ?? this.structured;
      const body = chatRequestBody({ model, messages, request, settings, structured, jsonMode: this.jsonMode, quirks });
      const down = this.breaker.refusal();
      if (down !== undefined) {
        throw this.failure('endpoint-down', model, request.role, sent, { detail: `not sent: the endpoint is down (${down})`, hint: 'Check that the model server runs and answers (senseact models --check); SENSEACT_MODEL_TIMEOUT_MS sets how long one request may take.' });
      }
      // The SDK adds an abort listener to the signal it is given and never removes it: it gets
      // one of its own per request, linked to the caller's (a bench-wide signal would collect one per request).
      const link = linkedSignal(request.signal);
      try {
        sent += 1;
        const received = await this.client.chat.completions.create(body, {
          ...(link === undefined ? {} : { signal: link.signal }),
          timeout: this.timeoutMs,
        }).finally(() => link?.release());
        this.breaker.answered();
        // A stream-only server answers with server-sent events even when no stream was asked for: read them as the reply.
        const completion = this.fromEventStream(received as unknown, model, request.role, sent) ?? received;
        // A proxy's login page or a server's error page can come with status 200: check the shape.
        const shapeProblem = completionShapeProblem(completion as unknown);
        if (shapeProblem !== undefined) throw new UnusableResponse(shapeProblem);
        const choice = completion.choices[0];
        const content = choice?.message.content;
        if (choice === undefined || content === null || content === undefined) {
          // What the endpoint billed for the empty reply is kept (a reasoning model may have spent every token thinking).
          const billed = reportedUsage(completion.usage);
          const reasoned = typeof (choice?.message as { reasoning_content?: unknown } | undefined)?.reasoning_content === 'string';
          throw this.failure('empty-reply', model, request.role, sent, {
            detail: choice === undefined ? 'the response has no choices' : `the reply has no text (finish_reason ${choice.finish_reason}${choice.message.refusal ? `, refusal ${JSON.stringify(choice.message.refusal)}` : ''}${reasoned ? ', only reasoning_content' : ''})`,
            hint: reasoned && choice?.finish_reason === 'length'
              ? `The model spent its token budget on reasoning before answering: raise the role's max tokens (SENSEACT_${request.role.toUpperCase()}_MAX_TOKENS or SENSEACT_MAX_TOKENS), or lower its reasoning effort.`
              : 'Check that the model is a chat model that answers in text.',
            ...(billed === undefined ? {} : { usage: billed }),
          });
        }
        const usage: ModelUsage = reportedUsage(completion.usage) ?? { promptTokens: estimatePromptTokens(request.messages), completionTokens: estimateTokens(content), estimated: true };
        return {
          text: content,
          usage,
          latencyMs: this.clock.now() - started,
          model: completion.model || model,
          ...(choice.finish_reason ? { finishReason: choice.finish_reason } : {}),
          attempts: sent,
          ...(body.response_format?.type === 'json_schema' || body.response_format?.type === 'json_object' ? { structured: body.response_format.type } : {}),
        };
      } catch (error) {
        if (ModelCallError.isInstance(error)) throw error;
        const learned = learnQuirk(error, body, quirks, structured);
        if (learned !== undefined) {
          // Newer OpenAI models refuse `max_tokens` and non-default temperatures, and older
          // servers structured output: adapt once per model and resend at once (not a
          // failure of the endpoint, so no backoff).
          debugLog('model', 'adapting request parameters', { model, quirks: learned });
          this.quirks.set(model, learned);
          continue;
        }
        const classified = classify(error, request.signal);
        // No HTTP answer at all (timed out, could not connect) counts towards the breaker; any status proves the endpoint up.
        if ((classified.failure === 'timeout' || classified.failure === 'connection') && error instanceof OpenAI.APIConnectionError) this.breaker.unanswered(classified.detail);
        else if (error instanceof OpenAI.APIError && typeof error.status === 'number') this.breaker.answered();
        const elapsed = this.clock.now() - started;
        // A 429 asks to wait: retried within the wall budget, not counted against maxAttempts.
        const attemptsLeft = this.retry.maxAttempts > 1 && (classified.failure === 'rate-limited' ? rateLimitedRetries < (this.retry.maxRateLimitRetries ?? Number.POSITIVE_INFINITY) : attempt < this.retry.maxAttempts);
        if (classified.retryable && attemptsLeft && this.breaker.refusal() === undefined) {
          const delay = retryDelayMs(this.retry, attempt, classified.retryAfterMs);
          if (elapsed + delay < this.retry.budgetMs) {
            debugLog('model', 'retrying model call', { model, role: request.role, attempt, failure: classified.failure, status: classified.status, delayMs: Math.round(delay) });
            try {
              await this.clock.sleep(delay, request.signal);
            } catch (abortError) {
              throw this.failure('aborted', model, request.role, sent, { detail: 'aborted while waiting to retry', hint: 'The caller cancelled the call.', cause: abortError });
            }
            if (classified.failure === 'rate-limited') rateLimitedRetries += 1;
            attempt += 1;
            continue;
          }
        }
        throw this.failure(classified.failure, model, request.role, sent, {
          ...(classified.status === undefined ? {} : { status: classified.status }),
          detail: classified.detail,
          hint: classified.hint,
          cause: error,
        });
      }
    }
  }

  /**
   * The completion a body of server-sent events holds, or undefined when `body` is none;
   * throws `invalid-response` (not retried: the endpoint answers so every time) for a
   * stream that holds no chat completion.
   */
  private fromEventStream(body: unknown, model: string, role: ModelRole, attempts: number): ChatCompletion | undefined {
    if (typeof body !== 'string') return undefined;
    const streamed = readSseCompletion(body);
    if (streamed === undefined) return undefined;
    if ('problem' in streamed) {
      throw this.failure('invalid-response', model, role, attempts, { detail: streamed.problem, hint: 'This endpoint streams its replies; SenseAct reads a streamed chat completion, but not this one: check that SENSEACT_BASE_URL is the OpenAI-compatible API (with its /v1 suffix) and that the server streams chat.completion.chunk events.' });
    }
    debugLog('model', 'read a streamed reply (server-sent events)', { model, role });
    // Only the fields the caller reads are there (model, choices[0].message.content and finish_reason, usage).
    return streamed as unknown as ChatCompletion;
  }

  private failure(
    failure: ModelCallFailure,
    model: string,
    role: ModelRole,
    attempts: number,
    details: { status?: number; detail: string; hint: string; cause?: unknown; usage?: ModelUsage },
  ): ModelCallError {
    return new ModelCallError({ failure, model, role, endpoint: this.config.baseUrl, attempts, ...details });
  }
}

/** A signal of one request that aborts with `signal`; `release` unlinks it (undefined without a signal). */
function linkedSignal(signal: AbortSignal | undefined): { readonly signal: AbortSignal; release(): void } | undefined {
  if (signal === undefined) return undefined;
  const controller = new AbortController();
  const abort = (): void => controller.abort(signal.reason);
  if (signal.aborted) abort();
  else signal.addEventListener('abort', abort, { once: true });
  return { signal: controller.signal, release: () => signal.removeEventListener('abort', abort) };
}

/**
 * The usage a completion reports, with its cached prompt tokens
 * (`prompt_tokens_details.cached_tokens`, inside the prompt tokens) when given; undefined
 * when it reports none.
 */
function reportedUsage(usage: unknown): ModelUsage | undefined {
  if (typeof usage !== 'object' || usage === null) return undefined;
  const { prompt_tokens: prompt, completion_tokens: completion, prompt_tokens_details: details } = usage as { prompt_tokens?: unknown; completion_tokens?: unknown; prompt_tokens_details?: unknown };
  if (typeof prompt !== 'number' || typeof completion !== 'number') return undefined;
  const cached = typeof details === 'object' && details !== null && 'cached_tokens' in details && typeof details.cached_tokens === 'number' ? details.cached_tokens : 0;
  return { promptTokens: prompt, completionTokens: completion, ...(cached > 0 ? { cachedPromptTokens: cached } : {}) };
}

function toOpenAiMessage(message: TextMessage | VisionMessage): ChatCompletionMessageParam {
  if (!isImageMessage(message)) {
    const role = message.role;
    switch (role) {
      case 'system':
        return { role: 'system', content: message.content };
      case 'user':
        return { role: 'user', content: message.content };
      case 'assistant':
        return { role: 'assistant', content: message.content };
      default:
        return assertNever(role, 'message role');
    }
  }
  const parts: ChatCompletionContentPart[] = [{ type: 'text', text: message.content }];
  for (const image of message.images) {
    parts.push({
      type: 'image_url',
      image_url: { url: `data:image/png;base64,${Buffer.from(image.png.buffer, image.png.byteOffset, image.png.byteLength).toString('base64')}`, ...(image.detail === undefined ? {} : { detail: image.detail }) },
    });
  }
  return { role: 'user', content: parts };
}

interface Classified {
  failure: ModelCallFailure;
  retryable: boolean;
  status?: number;
  retryAfterMs?: number;
  detail: string;
  hint: string;
}

/**
 * A 200 response that is no chat completion (an HTML page, a JSON without `choices`) or
 * one with an empty `choices` list: named, and retried like a server error.
 */
class UnusableResponse extends Error {
  constructor(readonly problem: { readonly failure: 'invalid-response'; readonly detail: string }) {
    super(problem.detail);
  }
}

/** What is wrong with a 200 body that should be a chat completion, or undefined when it is one with choices. */
function completionShapeProblem(body: unknown): UnusableResponse['problem'] | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    const text = typeof body === 'string' ? body.replace(/\s+/g, ' ').trim() : JSON.stringify(body) ?? String(body);
    return { failure: 'invalid-response', detail: `the endpoint answered status 200 with ${typeof body === 'string' ? 'a non-JSON body' : 'JSON that is no object'} instead of a chat completion (${JSON.stringify(text.slice(0, 80))}${text.length > 80 ? '…' : ''})` };
  }
  const choices = (body as { choices?: unknown }).choices;
  if (!Array.isArray(choices)) return { failure: 'invalid-response', detail: 'the endpoint answered status 200 with JSON that has no `choices` list: not a chat completion' };
  // No choice at all is the server's doing (a model's empty answer is a choice with no text).
  if (choices.length === 0) return { failure: 'invalid-response', detail: 'the endpoint answered status 200 with an empty `choices` list' };
  return undefined;
}

function classify(error: unknown, signal: AbortSignal | undefined): Classified {
  if (error instanceof UnusableResponse) {
    return { failure: error.problem.failure, retryable: true, detail: error.problem.detail, hint: 'Check SENSEACT_BASE_URL: it must reach the OpenAI-compatible API itself (with its /v1 suffix), not a login page or a proxy; a server that keeps answering so is failing.' };
  }
  const message = error instanceof Error ? error.message : String(error);
  if (signal?.aborted === true || error instanceof OpenAI.APIUserAbortError) {
    return { failure: 'aborted', retryable: false, detail: 'the call was aborted', hint: 'The caller cancelled the call.' };
  }
  if (error instanceof OpenAI.APIConnectionTimeoutError) {
    return { failure: 'timeout', retryable: true, detail: 'the request timed out', hint: 'The server is slow or overloaded: raise timeoutMs, or use a smaller model.' };
  }
  if (error instanceof OpenAI.APIConnectionError) {
    return { failure: 'connection', retryable: true, detail: `could not reach the server (${message})`, hint: 'Check that the server runs and SENSEACT_BASE_URL points at it (including the /v1 suffix).' };
  }
  if (error instanceof OpenAI.APIError && typeof error.status === 'number') {
    const status = error.status;
    const retryAfterMs = parseRetryAfter(error.headers);
    const withRetryAfter = retryAfterMs === undefined ? {} : { retryAfterMs };
    if (status === 429) return { failure: 'rate-limited', retryable: true, status, ...withRetryAfter, detail: message, hint: 'The endpoint rate-limits this key: wait, lower concurrency, or raise the retry budget.' };
    if (status >= 500) return { failure: 'server-error', retryable: true, status, ...withRetryAfter, detail: message, hint: 'The model server failed: check its logs.' };
    if (status === 408) return { failure: 'timeout', retryable: true, status, detail: message, hint: 'The server timed out the request: raise its timeout or use a smaller model.' };
    const hint =
      status === 401 || status === 403
        ? 'The key was refused: check SENSEACT_API_KEY (or OPENAI_API_KEY) and the apiKey option.'
        : status === 404
          ? 'Not found: check the model name (SENSEACT_<ROLE>_MODEL) and that SENSEACT_BASE_URL ends in /v1.'
          : 'The server rejected the request: check the model name and that the model accepts these inputs (e.g. images).';
    return { failure: 'client-error', retryable: false, status, detail: message, hint };
  }
  return { failure: 'connection', retryable: false, detail: message, hint: 'Unexpected error from the OpenAI client; see the cause.' };
}
