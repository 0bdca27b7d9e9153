import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { estimateImagesTokens, estimateTokens } from './estimate-tokens.js';
import { PromptPrefixIndex } from './prompt-prefix-index.js';
import { promptPrefixText } from './shared-prompt-prefix.js';
import type { ImageDetail, ModelImage } from './vision-model.js';

/** One request the mock server received. */
export interface MockChatRequest {
  /** Zero-based arrival index. */
  readonly index: number;
  readonly method: string;
  readonly path: string;
  /** Lower-cased header names. */
  readonly headers: Readonly<Record<string, string>>;
  /** The parsed JSON body (`undefined` when it was not JSON). */
  readonly body: unknown;
  /** `body.model` when it is a string. */
  readonly model: string | undefined;
  /** Text of every message, in order (text parts joined). */
  readonly texts: readonly string[];
  /** Decoded bytes of every `data:` image URL, in order. */
  readonly images: readonly Uint8Array[];
  /** The `detail` each image asked for, in the order of `images` (undefined when the request left it out). */
  readonly imageDetails: readonly (ImageDetail | undefined)[];
}

/** A reply of the mock: assistant text, or a raw HTTP response (errors, odd bodies). */
export type MockReply =
  | string
  | {
      readonly text: string;
      /** `cachedPromptTokens` goes out as `prompt_tokens_details.cached_tokens`, as OpenAI reports its prompt cache. */
      readonly usage?: { readonly promptTokens: number; readonly completionTokens: number; readonly cachedPromptTokens?: number };
      /** Leave `usage` out of the response, as some servers do. */
      readonly omitUsage?: boolean;
      readonly model?: string;
      readonly finishReason?: string;
      /** Wait this long before answering (timeouts, slow servers). */
      readonly delayMs?: number;
      /** Send the reply as server-sent events (`chat.completion.chunk`s, then `[DONE]`) whatever the request asked: a stream-only server. */
      readonly stream?: boolean;
    }
  | {
      readonly status: number;
      /** Sent as JSON; a string with a non-JSON `content-type` header is sent as is. */
      readonly body: unknown;
      readonly headers?: Readonly<Record<string, string>>;
      readonly delayMs?: number;
    };

export interface MockOpenAiServerOptions {
  /** Computes the reply to each POST /v1/chat/completions. */
  readonly reply: (request: MockChatRequest) => MockReply | Promise<MockReply>;
  /** Port on 127.0.0.1; default 0 (a free port chosen by the OS). */
  readonly port?: number;
  /**
   * Play a provider's prefix cache: a reply without its own usage reports, as
   * `prompt_tokens_details.cached_tokens`, the tokens at the start of the request's messages
   * that any earlier request began with too (token-granular, every request kept; none when nothing is shared).
   */
  readonly prefixCache?: boolean;
}

export interface MockOpenAiServer {
  /** Base URL including `/v1`, e.g. `http://127.0.0.1:41234/v1`. */
  readonly url: string;
  /** Every request received, in arrival order. */
  readonly requests: readonly MockChatRequest[];
  /** Stops the server and drops open connections (pending slow replies are cancelled). Idempotent. */
  close(): Promise<void>;
}

/**
 * A local OpenAI-compatible HTTP server for tests and offline runs, on 127.0.0.1 and a
 * free port. Implements `POST /v1/chat/completions` (JSON, or server-sent events for a reply
 * with `stream`, with `usage`:
 * given by the reply, else counted locally: o200k text tokens, and each image at its real
 * size and requested detail by OpenAI's tile formula) and `GET /v1/models`.
 * The reply function decides each answer, including error statuses and delays, so the
 * real `openai` client and our adapters run unchanged against it.
 */
export async function startMockOpenAiServer(options: MockOpenAiServerOptions): Promise<MockOpenAiServer> {
  const state: MockState = { options, requests: [], pending: new Set(), cachedPrompts: new PromptPrefixIndex() };
  const server = createServer((incoming, response) => {
    void route(state, incoming, response).catch((error: unknown) => {
      if (!response.headersSent) sendJson(response, 500, { error: { message: `mock server failure: ${String(error)}`, type: 'server_error' } });
      else response.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;

  let closing: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${address.port}/v1`,
    requests: state.requests,
    close: () => {
      closing ??= new Promise<void>((resolve, reject) => {
        for (const timer of state.pending) clearTimeout(timer);
        state.pending.clear();
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      });
      return closing;
    },
  };
}

/** What one mock server keeps: its options, the requests received, the slow replies pending, the prompts its prefix cache has seen. */
interface MockState {
  readonly options: MockOpenAiServerOptions;
  readonly requests: MockChatRequest[];
  readonly pending: Set<NodeJS.Timeout>;
  readonly cachedPrompts: PromptPrefixIndex;
}

/** Routes one HTTP request: the model list, a chat completion (recorded, then answered by the reply function), or a 404. */
async function route(state: MockState, incoming: IncomingMessage, response: ServerResponse): Promise<void> {
  const raw = await readBody(incoming);
  const path = (incoming.url ?? '/').split('?')[0] ?? '/';
  if (incoming.method === 'GET' && path === '/v1/models') {
    sendJson(response, 200, { object: 'list', data: [{ id: 'mock-model', object: 'model', created: 0, owned_by: 'senseact' }] });
    return;
  }
  if (incoming.method !== 'POST' || path !== '/v1/chat/completions') {
    sendJson(response, 404, { error: { message: `mock server: no route ${incoming.method ?? '?'} ${path}`, type: 'invalid_request_error' } });
    return;
  }
  const request = readChatRequest(incoming, raw, path, state.requests.length);
  state.requests.push(request);
  if (request.body === undefined) {
    sendJson(response, 400, { error: { message: 'mock server: the body is not JSON', type: 'invalid_request_error' } });
    return;
  }
  const reply = await state.options.reply(request);
  const delayMs = typeof reply === 'string' ? 0 : (reply.delayMs ?? 0);
  if (delayMs > 0) {
    const delivered = await waitUnlessClosed(delayMs, response, state.pending);
    if (!delivered) return;
  }
  if (typeof reply !== 'string' && 'status' in reply) {
    sendJson(response, reply.status, reply.body, reply.headers);
    return;
  }
  // The prefix cache sees only requests whose reply leaves the usage to the server.
  sendCompletion(response, request, reply, () => cachedUsage(state, request.body));
}

/** A POST's request as the tests see it: headers lower-cased, the body parsed (undefined when not JSON), its texts and images read out. */
function readChatRequest(incoming: IncomingMessage, raw: string, path: string, index: number): MockChatRequest {
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    body = undefined;
  }
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  const { texts, images, imageDetails } = readMessages(body);
  const model = typeof body === 'object' && body !== null && 'model' in body && typeof body.model === 'string' ? body.model : undefined;
  return { index, method: incoming.method ?? '', path, headers, body, model, texts, images, imageDetails };
}

/** Under `prefixCache`: the tokens this request shares from its start with an earlier one (none: no field). */
function cachedUsage(state: MockState, body: unknown): { cachedPromptTokens?: number } {
  if (state.options.prefixCache !== true) return {};
  const prompt = promptPrefixText(readRoles(body));
  const cached = state.cachedPrompts.sharedTokens(prompt);
  state.cachedPrompts.add(prompt);
  return cached > 0 ? { cachedPromptTokens: cached } : {};
}

/** Answers with the reply's text as a chat completion (or as server-sent events), its usage given by the reply or counted here. */
function sendCompletion(response: ServerResponse, request: MockChatRequest, reply: Exclude<MockReply, { readonly status: number }>, cached: () => { cachedPromptTokens?: number }): void {
  const { texts, images, imageDetails, model } = request;
  const text = typeof reply === 'string' ? reply : reply.text;
  const usage =
    typeof reply !== 'string' && reply.usage !== undefined
      ? reply.usage
      : { promptTokens: texts.reduce((total, part) => total + estimateTokens(part), 0) + estimateImagesTokens(sentImages(images, imageDetails)), completionTokens: estimateTokens(text), ...cached() };
  const omitUsage = typeof reply !== 'string' && reply.omitUsage === true;
  if (typeof reply !== 'string' && reply.stream === true) {
    sendEventStream(response, { id: `chatcmpl-mock-${request.index}`, model: reply.model ?? model ?? 'mock-model', text, finishReason: reply.finishReason ?? 'stop', ...(omitUsage ? {} : { usage }) });
    return;
  }
  sendJson(response, 200, {
    id: `chatcmpl-mock-${request.index}`,
    object: 'chat.completion',
    created: 0,
    model: (typeof reply !== 'string' ? reply.model : undefined) ?? model ?? 'mock-model',
    choices: [{ index: 0, message: { role: 'assistant', content: text, refusal: null }, finish_reason: (typeof reply !== 'string' ? reply.finishReason : undefined) ?? 'stop', logprobs: null }],
    ...(omitUsage
      ? {}
      : { usage: { prompt_tokens: usage.promptTokens, completion_tokens: usage.completionTokens, total_tokens: usage.promptTokens + usage.completionTokens, ...('cachedPromptTokens' in usage && usage.cachedPromptTokens !== undefined ? { prompt_tokens_details: { cached_tokens: usage.cachedPromptTokens } } : {}) } }),
  });
}

function readBody(incoming: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    incoming.on('error', reject);
  });
}

/** Resolves true after `ms`, or false as soon as the client hangs up (then nothing is sent). */
function waitUnlessClosed(ms: number, response: ServerResponse, pending: Set<NodeJS.Timeout>): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      pending.delete(timer);
      response.off('close', onClose);
      resolve(true);
    }, ms);
    pending.add(timer);
    const onClose = (): void => {
      clearTimeout(timer);
      pending.delete(timer);
      resolve(false);
    };
    response.once('close', onClose);
  });
}

/** A reply as a stream-only server sends it: the text in three chunks, the finish reason, the usage, `[DONE]`. */
function sendEventStream(response: ServerResponse, reply: { id: string; model: string; text: string; finishReason: string; usage?: { promptTokens: number; completionTokens: number } }): void {
  const chunk = (choices: unknown[], extra: Record<string, unknown> = {}): string => `data: ${JSON.stringify({ id: reply.id, object: 'chat.completion.chunk', created: 0, model: reply.model, choices, ...extra })}\n\n`;
  const third = Math.ceil(reply.text.length / 3);
  const pieces = [reply.text.slice(0, third), reply.text.slice(third, 2 * third), reply.text.slice(2 * third)];
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  response.write(chunk([{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }]));
  for (const piece of pieces) response.write(chunk([{ index: 0, delta: { content: piece }, finish_reason: null }]));
  response.write(chunk([{ index: 0, delta: {}, finish_reason: reply.finishReason }]));
  if (reply.usage !== undefined) response.write(chunk([], { usage: { prompt_tokens: reply.usage.promptTokens, completion_tokens: reply.usage.completionTokens, total_tokens: reply.usage.promptTokens + reply.usage.completionTokens } }));
  response.end('data: [DONE]\n\n');
}

function sendJson(response: ServerResponse, status: number, body: unknown, headers: Readonly<Record<string, string>> = {}): void {
  // A string body with a content-type of its own goes out as is (an HTML error page); anything else as JSON.
  const raw = typeof body === 'string' && Object.entries(headers).some(([name, value]) => name.toLowerCase() === 'content-type' && !value.includes('json'));
  const text = raw ? body : JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  response.end(text);
}

function sentImages(images: readonly Uint8Array[], details: readonly (ImageDetail | undefined)[]): ModelImage[] {
  return images.map((png, index) => {
    const detail = details[index];
    return detail === undefined ? { png } : { png, detail };
  });
}

/** Each message's role and its text parts joined (images left out), as the prefix cache reads them. */
function readRoles(body: unknown): { role: string; content: string }[] {
  if (typeof body !== 'object' || body === null || !('messages' in body) || !Array.isArray(body.messages)) return [];
  const { texts } = readMessages(body);
  const roles = (body.messages as unknown[]).filter((message) => typeof message === 'object' && message !== null && 'content' in message && (typeof message.content === 'string' || Array.isArray(message.content)));
  return roles.map((message, index) => ({ role: typeof message === 'object' && message !== null && 'role' in message && typeof message.role === 'string' ? message.role : '', content: texts[index] ?? '' }));
}

function readMessages(body: unknown): { texts: string[]; images: Uint8Array[]; imageDetails: (ImageDetail | undefined)[] } {
  const texts: string[] = [];
  const images: Uint8Array[] = [];
  const imageDetails: (ImageDetail | undefined)[] = [];
  if (typeof body !== 'object' || body === null || !('messages' in body) || !Array.isArray(body.messages)) return { texts, images, imageDetails };
  for (const message of body.messages as unknown[]) {
    if (typeof message !== 'object' || message === null || !('content' in message)) continue;
    const content = message.content;
    if (typeof content === 'string') {
      texts.push(content);
      continue;
    }
    if (!Array.isArray(content)) continue;
    const parts: string[] = [];
    for (const part of content as unknown[]) {
      if (typeof part !== 'object' || part === null) continue;
      if ('text' in part && typeof part.text === 'string') parts.push(part.text);
      if ('image_url' in part && typeof part.image_url === 'object' && part.image_url !== null && 'url' in part.image_url && typeof part.image_url.url === 'string') {
        const match = /^data:[^;]+;base64,(.*)$/s.exec(part.image_url.url);
        if (match?.[1] !== undefined) {
          images.push(new Uint8Array(Buffer.from(match[1], 'base64')));
          const detail = 'detail' in part.image_url ? part.image_url.detail : undefined;
          imageDetails.push(detail === 'low' || detail === 'high' || detail === 'auto' ? detail : undefined);
        }
      }
    }
    texts.push(parts.join('\n'));
  }
  return { texts, images, imageDetails };
}
