/** One step of a state path: a key, an array index, or every element. */
type PathSegment = { readonly key: string } | { readonly index: number } | { readonly every: true };

function segmentsOf(path: string): PathSegment[] {
  const segments: PathSegment[] = [];
  for (const match of path.matchAll(/\[(-?\d+)\]|\[\*\]|\["([^"\]]+)"\]|([A-Za-z_$][\w$-]*)/g)) {
    if (match[1] !== undefined) segments.push({ index: Number(match[1]) });
    else if (match[2] !== undefined) segments.push({ key: match[2] });
    else if (match[3] !== undefined) segments.push({ key: match[3] });
    else segments.push({ every: true });
  }
  return segments;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Edit distance between two short keys (for the suggestion). */
function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    let previous = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const current = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, previous + (a[i - 1]?.toLowerCase() === b[j - 1]?.toLowerCase() ? 0 : 1));
      previous = current;
    }
  }
  return row[b.length]!;
}

/**
 * Why a state path cannot name anything in an app's state, judged on a sample of that
 * state (its default): a key the object at that point does not have, with the nearest
 * key as a suggestion, or an index into what is not a list. Undefined when the path fits
 * the sample, or leads into a list the sample has empty (nothing to judge by). Pure.
 */
export function statePathProblem(path: string, sample: unknown): string | undefined {
  let current: unknown = sample;
  let where = '';
  for (const segment of segmentsOf(path)) {
    if ('key' in segment) {
      if (!isRecord(current)) return `${where || 'the state'} is not an object, so it has no key "${segment.key}"`;
      if (!Object.hasOwn(current, segment.key)) {
        const keys = Object.keys(current);
        const nearest = [...keys].sort((a, b) => distance(segment.key, a) - distance(segment.key, b))[0];
        const close = nearest !== undefined && distance(segment.key, nearest) <= Math.max(2, Math.floor(segment.key.length / 3));
        return `${where || 'the state'} has no key "${segment.key}"${close ? `: did you mean ${where === '' ? '' : `${where}.`}${nearest}?` : ''} (keys: ${keys.join(', ')})`;
      }
      current = current[segment.key];
      where = where === '' ? segment.key : `${where}.${segment.key}`;
    } else {
      if (!Array.isArray(current)) return `${where || 'the state'} is not a list, so it has no ${'index' in segment ? `[${segment.index}]` : '[*]'}`;
      if (current.length === 0) return undefined;
      current = current[0];
      where = `${where}${'index' in segment ? `[${segment.index}]` : '[*]'}`;
    }
  }
  return undefined;
}

/** The value a path leads to in the sample (a list's first element for `[*]`), or undefined. */
function sampleAt(path: string, sample: unknown): unknown {
  let current: unknown = sample;
  for (const segment of segmentsOf(path)) {
    if ('key' in segment) current = isRecord(current) ? current[segment.key] : undefined;
    else current = Array.isArray(current) ? current[0] : undefined;
  }
  return current;
}

/**
 * The first path of a state condition (its own, then its `where` conditions, relative to an
 * element of the list the path leads to) that names nothing in the sample, as
 * `path: problem`. Undefined when every path fits. Pure.
 */
export function stateConditionProblem(condition: { readonly path: string; readonly where?: readonly { readonly path: string; readonly where?: readonly unknown[] | undefined }[] | undefined }, sample: unknown): string | undefined {
  const own = statePathProblem(condition.path, sample);
  if (own !== undefined) return `${condition.path}: ${own}`;
  const value = sampleAt(condition.path, sample);
  const element = Array.isArray(value) ? value[0] : value;
  if (element === undefined) return undefined;
  for (const inner of condition.where ?? []) {
    const problem = stateConditionProblem(inner as { path: string }, element);
    if (problem !== undefined) return `${condition.path} where ${problem}`;
  }
  return undefined;
}
