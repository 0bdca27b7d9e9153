import { z } from 'zod';
import type { Result } from '../util/result.js';

/** A JSON Schema document as plain data (what `z.toJSONSchema` returns). */
export type JsonSchema = Record<string, unknown>;

const cache = new WeakMap<z.ZodType, JsonSchema | null>();

/**
 * The JSON Schema of what a model may send for `schema` (zod's input side: fields with a
 * default are optional), without `$schema`; cached per schema. Undefined when zod cannot
 * express the schema (the zod schema still validates every reply).
 */
export function jsonSchemaOf(schema: z.ZodType): JsonSchema | undefined {
  const cached = cache.get(schema);
  if (cached !== undefined) return cached ?? undefined;
  let result: JsonSchema | null;
  try {
    const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { unrepresentable: 'any', io: 'input' }) as JsonSchema;
    result = rest;
  } catch {
    result = null;
  }
  cache.set(schema, result);
  return result ?? undefined;
}

/**
 * Keywords strict structured output (OpenAI's `strict: true`) rejects or may reject.
 * Dropping them only loosens what the provider enforces: the zod schema still checks them.
 */
const unenforcedKeywords = new Set([
  'default', '$schema', 'title', 'examples',
  'minLength', 'maxLength', 'pattern', 'format',
  'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf',
  'minItems', 'maxItems', 'uniqueItems', 'minProperties', 'maxProperties',
]);

/**
 * Rewrites `schema` into the subset strict structured output accepts: every object lists
 * all its properties as required and forbids others, a property that was optional
 * becomes nullable (the model sends `null` for "absent", which the reader drops again),
 * and validation keywords the provider does not enforce are removed. Fails for objects
 * with open keys (records), which strict mode cannot express.
 */
export function strictJsonSchema(schema: JsonSchema): Result<JsonSchema, string> {
  try {
    return { success: true, value: strictNode(schema, '(root)') };
  } catch (error) {
    return { success: false, error: error instanceof Error ? error.message : String(error) };
  }
}

function strictNode(node: JsonSchema, path: string): JsonSchema {
  const result: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) {
    if (unenforcedKeywords.has(key)) continue;
    if (key === 'properties' || key === 'additionalProperties' || key === 'required') continue;
    if (key === 'items' && isSchema(value)) result[key] = strictNode(value, `${path}[]`);
    else if ((key === 'anyOf' || key === 'oneOf' || key === 'allOf') && Array.isArray(value)) result[key === 'oneOf' ? 'anyOf' : key] = value.map((branch, index) => (isSchema(branch) ? strictNode(branch, `${path}|${index}`) : branch));
    else if ((key === '$defs' || key === 'definitions') && isSchema(value)) result[key] = Object.fromEntries(Object.entries(value).map(([name, definition]) => [name, isSchema(definition) ? strictNode(definition, name) : definition]));
    else result[key] = value;
  }
  const properties = node['properties'];
  const isObject = node['type'] === 'object' || isSchema(properties);
  if (!isObject) return result;
  const extra = node['additionalProperties'];
  if (extra !== undefined && extra !== false && !(isSchema(extra) && Object.keys(extra).length === 0 && isSchema(properties))) {
    throw new Error(`${path} is an object with open keys; strict structured output needs every key named`);
  }
  const required = new Set(Array.isArray(node['required']) ? node['required'].filter((key): key is string => typeof key === 'string') : []);
  const strictProperties: Record<string, JsonSchema> = {};
  for (const [name, property] of Object.entries(isSchema(properties) ? properties : {})) {
    if (!isSchema(property)) continue;
    const converted = strictNode(property, `${path}.${name}`);
    strictProperties[name] = required.has(name) ? converted : nullable(converted);
  }
  result['properties'] = strictProperties;
  result['required'] = Object.keys(strictProperties);
  result['additionalProperties'] = false;
  return result;
}

/** `schema` that also accepts null. */
function nullable(schema: JsonSchema): JsonSchema {
  if (acceptsNull(schema)) return schema;
  const type = schema['type'];
  if (typeof type === 'string' && schema['enum'] === undefined) return { ...schema, type: [type, 'null'] };
  if (Array.isArray(type) && schema['enum'] === undefined) return { ...schema, type: [...type, 'null'] };
  if (Array.isArray(schema['anyOf'])) return { ...schema, anyOf: [...schema['anyOf'], { type: 'null' }] };
  return { anyOf: [schema, { type: 'null' }] };
}

/** True when `schema` accepts `null` (or is unknown and may). */
export function acceptsNull(schema: JsonSchema | undefined): boolean {
  if (schema === undefined || Object.keys(schema).length === 0) return true;
  const type = schema['type'];
  if (type === 'null' || (Array.isArray(type) && type.includes('null'))) return true;
  if (Array.isArray(schema['enum']) && schema['enum'].includes(null)) return true;
  for (const key of ['anyOf', 'oneOf'] as const) {
    const branches = schema[key];
    if (Array.isArray(branches) && branches.some((branch) => isSchema(branch) && acceptsNull(branch))) return true;
  }
  return false;
}

/** True for a JSON object (a schema node), false for arrays and primitives. */
export function isSchema(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
