import { z } from 'zod';
import { isSchema, type JsonSchema } from './json-schema.js';
import type { MockChatRequest } from './mock-openai-server.js';

/**
 * How a mock model writes a correct answer, after the habits of real models:
 * - `strict`: exactly the JSON; under a requested strict JSON schema, every key, with
 *   `null` for the absent ones (as OpenAI's structured output does).
 * - `chatty`: the JSON pretty-printed between a sentence before and one after.
 * - `fenced`: the JSON in a ```` ```json ```` fence.
 * - `explained`: the fence with a sentence before and one after (as models served by
 *   Ollama often answer when the schema is not enforced).
 * - `thinking`: a `<think>` block with a draft object first, then the JSON.
 * - `sloppy`: Python-style: single quotes, capitalised keys, `True`/`False`/`None`,
 *   trailing commas.
 * - `paper-format`: the planner answers `{intent, expectation}` alone (the paper's
 *   two-field format); other replies as `strict`.
 * - `broken`: the JSON cut off in the middle, every time.
 * - `refused`: well-formed JSON (as `strict`) whose every unit id is one the screen does
 *   not have (`nx…`): a model whose plans are always refused.
 */
export const mockPersonalitySchema = z.enum(['strict', 'chatty', 'fenced', 'explained', 'thinking', 'sloppy', 'paper-format', 'broken', 'refused']);
export type MockPersonality = z.infer<typeof mockPersonalitySchema>;

/** The reply text a model with `personality` gives when its answer is `answer`. Deterministic. */
export function personalityReply(personality: MockPersonality, answer: Readonly<Record<string, unknown>>, request?: MockChatRequest): string {
  const json = JSON.stringify(answer);
  switch (personality) {
    case 'strict':
      return JSON.stringify(withRequestedKeys(answer, requestedSchema(request)));
    case 'chatty':
      return `Sure! Here's what I'd do next, based on the screen:\n\n${JSON.stringify(answer, null, 2)}\n\nLet me know if you'd like me to try something else.`;
    case 'fenced':
      return `\`\`\`json\n${JSON.stringify(answer, null, 2)}\n\`\`\``;
    case 'explained':
      return `Here is the next step:\n\n\`\`\`json\n${JSON.stringify(answer, null, 2)}\n\`\`\`\n\nThis should move the task forward.`;
    case 'thinking':
      return `<think>\nThe screen lists the units. A first idea: {"draft": true}. Checking the task again, the answer below fits.\n</think>\n${json}`;
    case 'sloppy':
      return pythonStyle(answer);
    case 'paper-format':
      return 'intent' in answer ? JSON.stringify({ intent: answer['intent'], expectation: answer['expectation'] ?? '' }) : json;
    case 'broken':
      return json.slice(0, Math.max(1, Math.floor(json.length * 0.6)));
    case 'refused':
      return JSON.stringify(withRequestedKeys(withUnknownUnits(answer), requestedSchema(request)));
    default:
      throw new Error(`unknown personality ${String(personality satisfies never)}`);
  }
}

/** `answer` with every unit id of its commitment or action replaced by one no screen has; FINISH replaced by a commitment. */
function withUnknownUnits(answer: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const unknownUnit = (index: number): { unit: string } => ({ unit: `nx${index.toString(16).padStart(3, '0')}` });
  if ('action' in answer || 'thought' in answer) return { ...answer, finish: false, action: unknownUnit(0) };
  if (!('intent' in answer)) return { ...answer };
  const commitment = Array.isArray(answer['commitment']) && answer['commitment'].length > 0 ? answer['commitment'] : [{}];
  const rest = Object.fromEntries(Object.entries(answer).filter(([key]) => key !== 'answer'));
  return { ...rest, finish: false, commitment: commitment.map((item, index) => ({ ...(isSchema(item) ? item : {}), ...unknownUnit(index) })) };
}

/** The schema a request asked for with `response_format: json_schema`, if any. */
function requestedSchema(request: MockChatRequest | undefined): JsonSchema | undefined {
  const body = request?.body;
  if (!isSchema(body) || !isSchema(body['response_format'])) return undefined;
  const format = body['response_format'];
  if (format['type'] !== 'json_schema' || !isSchema(format['json_schema'])) return undefined;
  const schema = format['json_schema']['schema'];
  return isSchema(schema) ? schema : undefined;
}

/** `value` with every property the schema lists and the value lacks set to null, recursively. */
function withRequestedKeys(value: unknown, schema: JsonSchema | undefined): unknown {
  if (schema === undefined) return value;
  if (Array.isArray(value)) {
    const items = schema['items'];
    return isSchema(items) ? value.map((item) => withRequestedKeys(item, items)) : value;
  }
  if (!isSchema(value)) return value;
  const properties = objectBranch(schema)?.['properties'];
  if (!isSchema(properties)) return value;
  const result: Record<string, unknown> = {};
  for (const [key, property] of Object.entries(properties)) {
    result[key] = key in value ? withRequestedKeys(value[key], isSchema(property) ? property : undefined) : null;
  }
  return result;
}

function objectBranch(schema: JsonSchema): JsonSchema | undefined {
  if (isSchema(schema['properties'])) return schema;
  const branches = schema['anyOf'];
  return Array.isArray(branches) ? branches.find((branch): branch is JsonSchema => isSchema(branch) && isSchema(branch['properties'])) : undefined;
}

/** A Python-dict rendering: single quotes, capitalised keys, True/False/None, trailing commas. */
function pythonStyle(value: unknown): string {
  if (value === null) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'string') return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  if (typeof value === 'number') return String(value);
  if (Array.isArray(value)) return value.length === 0 ? '[]' : `[${value.map(pythonStyle).join(', ')},]`;
  if (isSchema(value)) {
    const entries = Object.entries(value).map(([key, item]) => `'${key.charAt(0).toUpperCase()}${key.slice(1)}': ${pythonStyle(item)}`);
    return entries.length === 0 ? '{}' : `{${entries.join(', ')},}`;
  }
  return JSON.stringify(value);
}
