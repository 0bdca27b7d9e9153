import { assertNever } from '../util/assert-never.js';
import { StatePathError } from './state-path-error.js';

/** One step of a state path: an object key, an array index, or every element. */
export type StatePathSegment = { kind: 'key'; key: string } | { kind: 'index'; index: number } | { kind: 'all' };

const segmentPattern = /\.?([A-Za-z_$][\w$-]*)|\[(-?\d+|\*|"[^"\]]+")\]/y;

/** Parses a state path such as `alarms[*].hour` into segments. Throws `StatePathError`. */
export function parseStatePath(path: string): StatePathSegment[] {
  const segments: StatePathSegment[] = [];
  let position = 0;
  while (position < path.length) {
    segmentPattern.lastIndex = position;
    const match = segmentPattern.exec(path);
    if (match === null || (position === 0 && path.startsWith('.')) || (position > 0 && match[1] !== undefined && path[position] !== '.')) {
      throw new StatePathError(path, position);
    }
    if (match[1] !== undefined) {
      segments.push({ kind: 'key', key: match[1] });
    } else {
      const inner = match[2] ?? '';
      if (inner === '*') segments.push({ kind: 'all' });
      else if (inner.startsWith('"')) segments.push({ kind: 'key', key: inner.slice(1, -1) });
      else segments.push({ kind: 'index', index: Number(inner) });
    }
    position = segmentPattern.lastIndex;
  }
  if (segments.length === 0) throw new StatePathError(path, 0);
  return segments;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Every value `path` selects in `root` (JSON-like data). Wildcards fan out; a missing key,
 * an index out of range or a step into a non-container yields nothing (not an error: the
 * check that uses the path decides what absence means).
 */
export function resolveStatePath(root: unknown, path: string | readonly StatePathSegment[]): unknown[] {
  const segments = typeof path === 'string' ? parseStatePath(path) : path;
  let current: unknown[] = [root];
  for (const segment of segments) {
    const next: unknown[] = [];
    for (const value of current) {
      switch (segment.kind) {
        case 'key':
          if (isRecord(value) && Object.hasOwn(value, segment.key) && value[segment.key] !== undefined) next.push(value[segment.key]);
          break;
        case 'index':
          if (Array.isArray(value)) {
            const index = segment.index < 0 ? value.length + segment.index : segment.index;
            if (index >= 0 && index < value.length) next.push(value[index]);
          }
          break;
        case 'all':
          if (Array.isArray(value)) next.push(...(value as unknown[]));
          else if (isRecord(value)) next.push(...Object.values(value));
          break;
        default:
          assertNever(segment, 'state path segment');
      }
    }
    current = next;
  }
  return current;
}
