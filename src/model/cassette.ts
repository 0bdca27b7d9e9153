import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { z } from 'zod';
import { debugLog } from '../util/debug-log.js';
import { CassetteReadError } from './cassette-read-error.js';
import type { ModelRequest, TextMessage } from './language-model.js';
import { recordMessages } from './model-call-record.js';
import { modelRoleSchema } from './model-role.js';
import type { VisionMessage } from './vision-model.js';
import { asPathKindError } from '../util/path-kind-error.js';

/** Version of the cassette line format. */
export const cassetteVersion = 1;

const recordedMessageSchema = z.object({
  role: z.enum(['system', 'user', 'assistant']),
  content: z.string(),
  images: z.array(z.object({ sha256: z.string(), bytes: z.number().int().nonnegative(), detail: z.enum(['low', 'high', 'auto']).optional(), tokens: z.number().int().nonnegative().optional() })).optional(),
});

/** One recorded call: one line of a cassette (JSONL). */
export const cassetteEntrySchema = z.object({
  v: z.literal(cassetteVersion),
  /** {@link requestHash} of the request. */
  hash: z.string().regex(/^[0-9a-f]{32}$/),
  /** Zero-based: the how-many-th call with this hash in the recorded run. */
  occurrence: z.number().int().nonnegative(),
  role: modelRoleSchema,
  /** The model requested (override or the role's configured model). */
  model: z.string(),
  /** The request as sent, secrets redacted, images as digests (for debugging misses). */
  request: z.object({
    messages: z.array(recordedMessageSchema),
    temperature: z.number().optional(),
    maxTokens: z.number().optional(),
    json: z.boolean().optional(),
  }),
  reply: z.object({
    text: z.string(),
    usage: z.object({ promptTokens: z.number(), completionTokens: z.number(), estimated: z.boolean().optional() }),
    latencyMs: z.number(),
    model: z.string(),
    finishReason: z.string().optional(),
    /** Requests the recorded call took, retries included (absent in cassettes recorded before it was counted). */
    attempts: z.number().int().positive().optional(),
  }),
});
export type CassetteEntry = z.infer<typeof cassetteEntrySchema>;

/**
 * Hash identifying a request across runs: SHA-256 (first 32 hex digits) over role,
 * requested model, messages (images by their SHA-256), temperature, max tokens and JSON
 * mode. The abort signal plays no part.
 */
export function requestHash(request: ModelRequest<TextMessage | VisionMessage>, requestedModel: string): string {
  const canonical = JSON.stringify([
    request.role,
    requestedModel,
    recordMessages(request.messages).map((message) => [message.role, message.content, (message.images ?? []).map((image) => [image.sha256, image.detail ?? null])]),
    request.temperature ?? null,
    request.maxTokens ?? null,
    request.json ?? false,
  ]);
  return createHash('sha256').update(canonical).digest('hex').slice(0, 32);
}

/** Short, single-line excerpt of a request for error messages: role and last user text. */
export function requestSnippet(request: ModelRequest<TextMessage | VisionMessage>): string {
  const lastUser = [...request.messages].reverse().find((message) => message.role === 'user');
  const text = (lastUser?.content ?? '').replace(/\s+/g, ' ').trim();
  return `${request.messages.length} message(s), last user text ${JSON.stringify(text.length > 160 ? `${text.slice(0, 160)}…` : text)}`;
}

/**
 * Reads a cassette file. A torn last line (a crash while recording) is skipped; any
 * other malformed line throws {@link CassetteReadError} with its line number.
 */
export function readCassette(path: string): CassetteEntry[] {
  if (!existsSync(path)) throw new CassetteReadError({ path, detail: 'the file does not exist' });
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw asPathKindError(error, path, 'cassette');
  }
  const lines = text.split('\n');
  const entries: CassetteEntry[] = [];
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] ?? '';
    if (line.trim() === '') continue;
    const isLast = lines.slice(index + 1).every((rest) => rest.trim() === '');
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch (error) {
      if (isLast && !text.endsWith('\n')) {
        debugLog('model', 'cassette has a torn last line; skipped', { path, line: index + 1 });
        continue;
      }
      throw new CassetteReadError({ path, line: index + 1, detail: 'the line is not JSON', cause: error });
    }
    const version = typeof json === 'object' && json !== null && 'v' in json ? json.v : undefined;
    if (version !== cassetteVersion) {
      throw new CassetteReadError({ path, line: index + 1, detail: `unsupported cassette version ${JSON.stringify(version)} (this reader supports v${cassetteVersion})` });
    }
    const parsed = cassetteEntrySchema.safeParse(json);
    if (!parsed.success) {
      throw new CassetteReadError({ path, line: index + 1, detail: z.prettifyError(parsed.error).replace(/\n/g, ' ') });
    }
    entries.push(parsed.data);
  }
  return entries;
}
