import { acceptsNull, isSchema, type JsonSchema } from './json-schema.js';
import type { ReplyRepair } from './reply-repair.js';

/**
 * The schema-guided half of the tolerant reader: renames a key written in another case or
 * separator style (`Intent`, `look_for`, `LOOK-FOR`) to the one schema key it can only
 * mean, and drops a `null` given for an optional key that does not take null. Nothing
 * else changes: a key that could mean two schema keys, or whose schema key is already
 * present, stays as it is for validation to report. Returns a copy and what was repaired.
 */
export function repairToSchema(value: unknown, schema: JsonSchema): { value: unknown; repairs: ReplyRepair[] } {
  const repairs: ReplyRepair[] = [];
  const repaired = repairNode(value, schema, '', repairs);
  return { value: repaired, repairs };
}

function repairNode(value: unknown, schema: JsonSchema | undefined, path: string, repairs: ReplyRepair[]): unknown {
  if (schema === undefined) return value;
  if (Array.isArray(value)) {
    const items = branchOf(schema, 'array')?.['items'];
    return isSchema(items) ? value.map((item, index) => repairNode(item, items, `${path}[${index}]`, repairs)) : value;
  }
  if (!isSchema(value)) return value;
  const objectSchema = branchOf(schema, 'object');
  const properties = objectSchema?.['properties'];
  if (!isSchema(properties)) return value;
  const required = new Set(Array.isArray(objectSchema?.['required']) ? objectSchema['required'] : []);
  const known = Object.keys(properties);
  const result: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    let name = key;
    if (!(key in properties)) {
      const matches = known.filter((candidate) => normalizeKey(candidate) === normalizeKey(key));
      const target = matches[0];
      if (matches.length === 1 && target !== undefined && !(target in value) && !(target in result)) {
        name = target;
        repairs.push({ kind: 'key-case', detail: `${at(path, key)} → ${at(path, target)}` });
      }
    }
    const propertySchema = properties[name];
    if (item === null && name in properties && !required.has(name) && isSchema(propertySchema) && !acceptsNull(propertySchema)) {
      repairs.push({ kind: 'null-optional', detail: at(path, name) });
      continue;
    }
    result[name] = repairNode(item, isSchema(propertySchema) ? propertySchema : undefined, at(path, name), repairs);
  }
  return result;
}

/** The part of `schema` that describes values of `type`: itself, or its first such anyOf/oneOf branch. */
function branchOf(schema: JsonSchema, type: 'object' | 'array'): JsonSchema | undefined {
  if (matchesType(schema, type)) return schema;
  for (const key of ['anyOf', 'oneOf'] as const) {
    const branches = schema[key];
    if (!Array.isArray(branches)) continue;
    for (const branch of branches) if (isSchema(branch) && matchesType(branch, type)) return branch;
  }
  return undefined;
}

function matchesType(schema: JsonSchema, type: 'object' | 'array'): boolean {
  const declared = schema['type'];
  if (declared === type || (Array.isArray(declared) && declared.includes(type))) return true;
  return type === 'object' ? isSchema(schema['properties']) : isSchema(schema['items']);
}

function at(path: string, key: string): string {
  return path === '' ? key : `${path}.${key}`;
}

/** `lookFor`, `LookFor`, `look_for` and `look-for` all read `lookfor`. */
function normalizeKey(key: string): string {
  return key.replace(/[_\-\s]/g, '').toLowerCase();
}
