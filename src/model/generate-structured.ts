import type { z } from 'zod';
import { debugLog } from '../util/debug-log.js';
import { extractJson, readJsonCandidates } from './extract-json.js';
import { InvalidModelReplyError, type ReplyIssue } from './invalid-model-reply-error.js';
import type { ModelReply, ModelRequest, ModelUsage, TextMessage } from './language-model.js';
import { jsonSchemaOf } from './json-schema.js';
import type { PromptPart } from './prompt-section.js';
import type { ModelRole } from './model-role.js';
import { repairToSchema } from './repair-to-schema.js';
import { describeRepairs, type ReplyRead, type ReplyRepair } from './reply-repair.js';

/** Default number of retries after an invalid reply (so at most 3 calls). */
export const defaultStructuredRetries = 2;

/** Anything with a `generate` over some message type: a `LanguageModel` or a `VisionModel`. */
export interface StructuredCapableModel<Message> {
  modelName(role: ModelRole): string;
  generate(request: ModelRequest<Message>): Promise<ModelReply>;
  /**
   * Told how each reply was read, valid (with the repairs it took) or not, after its
   * `generate` call: a metered model counts them per role (`UsageLedger.replyRepairs`).
   */
  recordReplyRead?(role: ModelRole, read: ReplyRead): void;
}

export interface GenerateStructuredOptions<Schema extends z.ZodType, Message> {
  readonly role: ModelRole;
  /** The zod schema that defines the reply type; the reply is validated by it. */
  readonly schema: Schema;
  /** Used in the JSON instruction and in error messages, e.g. `PlannerReply`. */
  readonly schemaName?: string;
  readonly messages: readonly Message[];
  readonly signal?: AbortSignal;
  readonly model?: string;
  readonly temperature?: number;
  readonly maxTokens?: number;
  /** Retries after an invalid reply, each with the validation error appended. Default 2. */
  readonly maxRetries?: number;
  /**
   * Ask for JSON that follows the schema (as JSON Schema) in the leading system message
   * (appended to it, or a new one in front). Default true; turn off when the prompt
   * already describes the format.
   */
  readonly instructJson?: boolean;
  /** Ask the provider for JSON mode (`json: true` on the request). Default false. */
  readonly jsonMode?: boolean;
  /**
   * Send the schema as `responseFormat`, so that adapters request structured output as
   * their mode allows (`SENSEACT_STRUCTURED`). Default true.
   */
  readonly structured?: boolean;
}

export interface GenerateStructuredResult<T> {
  readonly value: T;
  /** The reply that validated. */
  readonly reply: ModelReply;
  /** Every reply, the invalid ones first, in order. */
  readonly replies: readonly ModelReply[];
  /** Summed usage of every attempt. */
  readonly usage: ModelUsage;
  /** Summed latency of every attempt, in milliseconds. */
  readonly latencyMs: number;
  readonly attempts: number;
  /** What the tolerant reader repaired in the reply that validated (empty when it was clean JSON). */
  readonly repairs: readonly ReplyRepair[];
}

/**
 * Asks `model` for a JSON reply, extracts the JSON (also from ```json fences), validates
 * it with `schema`, and on an invalid reply retries with the reply and the validation
 * error appended as messages. Throws {@link InvalidModelReplyError} when every attempt
 * fails (an infrastructure error); errors of the model call itself propagate unchanged.
 */
export async function generateStructured<Schema extends z.ZodType, Message extends TextMessage | { role: 'user'; content: string; sections?: readonly PromptPart[] }>(
  model: StructuredCapableModel<Message>,
  options: GenerateStructuredOptions<Schema, Message>,
): Promise<GenerateStructuredResult<z.infer<Schema>>> {
  const maxRetries = options.maxRetries ?? defaultStructuredRetries;
  const messages: Message[] = [...options.messages];
  if (options.instructJson ?? true) {
    // Into the leading system message (some chat templates reject a system turn anywhere else).
    const instruction = jsonInstruction(options.schema, options.schemaName);
    const first = messages[0];
    const format: PromptPart = { section: 'format', text: instruction };
    if (first?.role === 'system') {
      const sections = 'sections' in first && first.sections !== undefined ? first.sections : [{ section: 'system' as const, text: first.content }];
      messages[0] = turn<Message>('system', `${first.content}\n\n${instruction}`, [...sections, format]);
    } else messages.unshift(turn<Message>('system', instruction, [format]));
  }
  const replies: ModelReply[] = [];
  let lastIssues: ReplyIssue[] = [];
  const jsonSchema = options.structured === false ? undefined : jsonSchemaOf(options.schema);
  const responseFormat = jsonSchema === undefined ? undefined : { name: options.schemaName ?? 'reply', schema: jsonSchema };

  for (let attempt = 0; attempt <= maxRetries; attempt++) {
    const reply = await model.generate({
      role: options.role,
      messages,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
      ...(options.model === undefined ? {} : { model: options.model }),
      ...(options.temperature === undefined ? {} : { temperature: options.temperature }),
      ...(options.maxTokens === undefined ? {} : { maxTokens: options.maxTokens }),
      ...(options.jsonMode === true ? { json: true } : {}),
      ...(responseFormat === undefined ? {} : { responseFormat }),
    });
    replies.push(reply);
    const validated = validateReply(reply.text, options.schema);
    // Under a strict json_schema request the optional keys are nullable: their nulls follow the schema, nothing was repaired.
    const checked = validated.success && reply.structured === 'json_schema' ? { ...validated, repairs: validated.repairs.filter((repair) => repair.kind !== 'null-optional') } : validated;
    model.recordReplyRead?.(options.role, checked.success ? { valid: true, repairs: checked.repairs } : { valid: false });
    if (checked.success) {
      if (checked.repairs.length > 0) debugLog('model', 'repaired a structured reply', { role: options.role, model: reply.model, repairs: describeRepairs(checked.repairs) });
      return { value: checked.value, reply, replies, usage: sumUsage(replies), latencyMs: sumLatency(replies), attempts: attempt + 1, repairs: checked.repairs };
    }
    lastIssues =
      reply.finishReason === 'length'
        ? [{ path: [], message: `The reply was cut off by the token limit${options.maxTokens === undefined ? '' : ` (maxTokens ${options.maxTokens})`}; answer more briefly.` }, ...checked.issues]
        : checked.issues;
    debugLog('model', 'invalid structured reply', { role: options.role, model: reply.model, attempt: attempt + 1, issues: lastIssues });
    const correction = correctionMessage(lastIssues);
    messages.push(turn<Message>('assistant', reply.text, [{ section: 'retry', text: reply.text }]));
    messages.push(turn<Message>('user', correction, [{ section: 'retry', text: correction }]));
  }

  const last = replies[replies.length - 1];
  throw new InvalidModelReplyError({
    rawText: last?.text ?? '',
    rawTexts: replies.map((reply) => reply.text),
    model: last?.model ?? options.model ?? model.modelName(options.role),
    role: options.role,
    usage: sumUsage(replies),
    issues: lastIssues,
    attempts: replies.length,
    ...(options.schemaName === undefined ? {} : { schemaName: options.schemaName }),
  });
}

/**
 * Extracts and validates one reply text: the first JSON candidate that validates, read
 * tolerantly (see `ReplyRepair`: fences, think blocks, surrounding prose, comments,
 * trailing commas, single quotes, Python literals, key case, nulls for optional keys),
 * with the repairs it took. The safe counterpart of the retry loop's check.
 */
export function validateReply<Schema extends z.ZodType>(
  text: string,
  schema: Schema,
): { success: true; value: z.infer<Schema>; repairs: ReplyRepair[] } | { success: false; issues: ReplyIssue[] } {
  const candidates = readJsonCandidates(text);
  if (candidates.length === 0) {
    const json = extractJson(text);
    return { success: false, issues: [{ path: [], message: json.success ? 'No JSON object found.' : json.error }] };
  }
  const jsonSchema = jsonSchemaOf(schema);
  // A reply may quote an example object before its answer: the first candidate that
  // validates wins; when none does, the most likely one's issues are reported.
  let firstIssues: ReplyIssue[] | undefined;
  for (const candidate of candidates) {
    const parsed = schema.safeParse(candidate.value);
    if (parsed.success) return { success: true, value: parsed.data, repairs: [...candidate.repairs] };
    // Only a reply that fails as written is repaired against the schema.
    const fixed = jsonSchema === undefined ? undefined : repairToSchema(candidate.value, jsonSchema);
    const retried = fixed !== undefined && fixed.repairs.length > 0 ? schema.safeParse(fixed.value) : undefined;
    if (retried?.success === true && fixed !== undefined) return { success: true, value: retried.data, repairs: [...candidate.repairs, ...fixed.repairs] };
    const failure = retried?.success === false ? retried.error : parsed.error;
    firstIssues ??= failure.issues.map((issue) => ({
      path: issue.path.map((part) => (typeof part === 'symbol' ? String(part) : part)),
      message: issue.message,
    }));
  }
  return { success: false, issues: firstIssues ?? [] };
}

function jsonInstruction(schema: z.ZodType, schemaName: string | undefined): string {
  const jsonSchema = jsonSchemaOf(schema);
  // Some zod constructs (transforms, custom checks) have no JSON Schema; the validation
  // error on a bad reply still tells the model what is wrong.
  const shown = jsonSchema === undefined ? '(see the instructions above)' : JSON.stringify(jsonSchema);
  return `Reply with a single JSON object${schemaName === undefined ? '' : ` (${schemaName})`} and nothing else. It must validate against this JSON Schema: ${shown}`;
}

/** A text turn this function adds to the caller's messages (every message type accepts one). */
function turn<Message>(role: TextMessage['role'], content: string, sections: readonly PromptPart[]): Message {
  const message: TextMessage = { role, content, sections };
  return message as unknown as Message;
}

function correctionMessage(issues: readonly ReplyIssue[]): string {
  const lines = issues.slice(0, 10).map((issue) => `- ${issue.path.length > 0 ? issue.path.join('.') : '(root)'}: ${issue.message}`);
  return `Your previous reply was invalid:\n${lines.join('\n')}\nReply again with only the corrected JSON object.`;
}

function sumUsage(replies: readonly ModelReply[]): ModelUsage {
  let promptTokens = 0;
  let completionTokens = 0;
  let estimated = false;
  for (const reply of replies) {
    promptTokens += reply.usage.promptTokens;
    completionTokens += reply.usage.completionTokens;
    estimated ||= reply.usage.estimated === true;
  }
  return estimated ? { promptTokens, completionTokens, estimated } : { promptTokens, completionTokens };
}

function sumLatency(replies: readonly ModelReply[]): number {
  return replies.reduce((total, reply) => total + reply.latencyMs, 0);
}
