import type { z } from 'zod';

interface DefLike {
  type?: string;
  shape?: Record<string, unknown>;
  innerType?: unknown;
  element?: unknown;
  options?: unknown[];
  in?: unknown;
  out?: unknown;
  valueType?: unknown;
  getter?: () => unknown;
}

function defOf(schema: unknown): DefLike | undefined {
  if (typeof schema !== 'object' || schema === null || !('_zod' in schema)) return undefined;
  const internals = (schema as { _zod: { def?: DefLike } })._zod;
  return internals.def;
}

/**
 * Every object field name reachable in a zod schema (through optionals, arrays, unions,
 * pipes, records). Used to suggest the intended name for an unknown field.
 */
export function schemaFieldNames(schema: z.ZodType): Set<string> {
  const names = new Set<string>();
  const seen = new Set<unknown>();
  const visit = (node: unknown): void => {
    if (seen.has(node)) return;
    seen.add(node);
    const def = defOf(node);
    if (def === undefined) return;
    if (def.type === 'object' && def.shape !== undefined) {
      for (const key of Object.keys(def.shape)) {
        names.add(key);
        visit(def.shape[key]);
      }
    }
    for (const child of [def.innerType, def.element, def.in, def.out, def.valueType]) if (child !== undefined) visit(child);
    for (const option of def.options ?? []) visit(option);
    if (def.type === 'lazy' && def.getter !== undefined) visit(def.getter());
  };
  visit(schema);
  return names;
}

function editDistance(left: string, right: string): number {
  const previous = Array.from({ length: right.length + 1 }, (_, index) => index);
  for (let i = 1; i <= left.length; i++) {
    let diagonal = previous[0] ?? 0;
    previous[0] = i;
    for (let j = 1; j <= right.length; j++) {
      const above = previous[j] ?? 0;
      const cost = left[i - 1]?.toLowerCase() === right[j - 1]?.toLowerCase() ? 0 : 1;
      previous[j] = Math.min(above + 1, (previous[j - 1] ?? 0) + 1, diagonal + cost);
      diagonal = above;
    }
  }
  return previous[right.length] ?? 0;
}

/** The closest known name to `name` (edit distance ≤ max(2, length/3)), or undefined. */
export function closestName(name: string, candidates: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestDistance = Math.max(2, Math.floor(name.length / 3)) + 1;
  for (const candidate of candidates) {
    const distance = editDistance(name, candidate);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}
