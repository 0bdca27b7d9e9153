/** A chat completion assembled from a streamed reply: what the client reads of a non-streamed one. */
export interface StreamedCompletion {
  readonly model: string;
  readonly choices: readonly [{ readonly message: { readonly content: string | null }; readonly finish_reason: string | null }];
  readonly usage?: unknown;
}

/**
 * Reads a body an endpoint streamed as server-sent events (`data: {chunk}` lines up to
 * `data: [DONE]`), as stream-only servers answer even a request that did not ask to
 * stream: the first choice's `delta.content` pieces joined, its last `finish_reason`, the
 * model, and the usage of the chunk that carries one. Undefined when `body` is no event
 * stream; `{ problem }` when it is one that holds no chunk of a chat completion.
 */
export function readSseCompletion(body: string): StreamedCompletion | { readonly problem: string } | undefined {
  const lines = body.split(/\r?\n/);
  if (!lines.some((line) => line.startsWith('data:'))) return undefined;
  let content: string | null = null;
  let finishReason: string | null = null;
  let model = '';
  let usage: unknown;
  let chunks = 0;
  for (const line of lines) {
    if (!line.startsWith('data:')) continue;
    const data = line.slice('data:'.length).trim();
    if (data === '' || data === '[DONE]') continue;
    let chunk: unknown;
    try {
      chunk = JSON.parse(data);
    } catch {
      return { problem: `the endpoint streamed its reply (server-sent events) and an event is not JSON: ${JSON.stringify(data.slice(0, 80))}` };
    }
    if (typeof chunk !== 'object' || chunk === null) continue;
    const record = chunk as { model?: unknown; usage?: unknown; choices?: unknown };
    if (typeof record.model === 'string' && record.model !== '') model = record.model;
    if (record.usage !== undefined && record.usage !== null) usage = record.usage;
    const choice = Array.isArray(record.choices) ? (record.choices[0] as { delta?: { content?: unknown }; finish_reason?: unknown } | undefined) : undefined;
    if (choice === undefined) continue;
    chunks += 1;
    if (typeof choice.delta?.content === 'string') content = (content ?? '') + choice.delta.content;
    if (typeof choice.finish_reason === 'string') finishReason = choice.finish_reason;
  }
  if (chunks === 0) return { problem: 'the endpoint streamed its reply (server-sent events) with no chunk of a chat completion (no `choices`)' };
  return { model, choices: [{ message: { content }, finish_reason: finishReason }], ...(usage === undefined ? {} : { usage }) };
}
