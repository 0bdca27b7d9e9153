import { assertNever } from '../util/assert-never.js';
import { resolveStatePath } from './resolve-state-path.js';
import type { StateCondition } from './state-check-schema.js';
import { linearRegex } from '../util/linear-regex.js';

/** The result of one state condition: a value, never an exception. */
export interface StateConditionResult {
  readonly outcome: 'pass' | 'fail';
  /** Why, in one line naming the path, the op and what was found. */
  readonly reason: string;
  /** The values the path resolved to (for traces). */
  readonly actual: readonly unknown[];
}

function deepEqual(left: unknown, right: unknown): boolean {
  if (Object.is(left, right)) return true;
  if (typeof left !== 'object' || typeof right !== 'object' || left === null || right === null) return false;
  if (Array.isArray(left) !== Array.isArray(right)) return false;
  if (Array.isArray(left) && Array.isArray(right)) {
    return left.length === right.length && left.every((item, index) => deepEqual(item, right[index]));
  }
  const leftRecord = left as Record<string, unknown>;
  const rightRecord = right as Record<string, unknown>;
  const leftKeys = Object.keys(leftRecord).filter((key) => leftRecord[key] !== undefined);
  const rightKeys = Object.keys(rightRecord).filter((key) => rightRecord[key] !== undefined);
  return leftKeys.length === rightKeys.length && leftKeys.every((key) => deepEqual(leftRecord[key], rightRecord[key]));
}

function fold(text: string, ignoreCase: boolean): string {
  return ignoreCase ? text.toLocaleLowerCase() : text;
}

function equalsValue(actual: unknown, expected: unknown, ignoreCase: boolean): boolean {
  if (ignoreCase && typeof actual === 'string' && typeof expected === 'string') return fold(actual, true) === fold(expected, true);
  return deepEqual(actual, expected);
}

function containsValue(actual: unknown, expected: unknown, ignoreCase: boolean): boolean {
  if (typeof actual === 'string') return typeof expected === 'string' || typeof expected === 'number' ? fold(actual, ignoreCase).includes(fold(String(expected), ignoreCase)) : false;
  if (Array.isArray(actual)) return actual.some((item) => equalsValue(item, expected, ignoreCase));
  return false;
}

function matchesValue(actual: unknown, pattern: string, ignoreCase: boolean): boolean {
  if (typeof actual !== 'string' && typeof actual !== 'number' && typeof actual !== 'boolean') return false;
  return linearRegex(pattern, ignoreCase ? 'i' : '').test(String(actual));
}

/** The elements a count or quantifier ranges over: one array's items, else the resolved values. */
function elementsOf(values: readonly unknown[]): readonly unknown[] {
  const only = values.length === 1 ? values[0] : undefined;
  return Array.isArray(only) ? only : values;
}

function show(value: unknown): string {
  const text = JSON.stringify(value);
  return text === undefined ? String(value) : text.length > 120 ? `${text.slice(0, 117)}...` : text;
}

/** An op as a reason says it: the count ops in words (`days count equals 0`, not `days count= 0`), the others as written. */
function opInWords(op: StateCondition['op']): string {
  return op === 'count>=' ? 'count at least' : op === 'count<=' ? 'count at most' : op === 'count=' ? 'count equals' : op;
}

/**
 * A `where` list in words, as a reader of a failure reason wants it: `hour equals 15 and
 * label equals "Meeting"` (a nested list in parentheses, ignoreCase said), cut at 160 characters.
 */
function whereInWords(where: readonly StateCondition[]): string {
  const words = (condition: StateCondition): string => [
    condition.path,
    opInWords(condition.op),
    ...(condition.value === undefined ? [] : [JSON.stringify(condition.value)]),
    ...(condition.ignoreCase === true ? ['(any case)'] : []),
    ...(condition.where === undefined ? [] : [`(${condition.where.map(words).join(' and ')})`]),
  ].join(' ');
  const text = where.map(words).join(' and ');
  return text.length > 160 ? `${text.slice(0, 157)}...` : text;
}

function satisfiesAll(element: unknown, where: readonly StateCondition[]): boolean {
  return where.every((condition) => evaluateStateCondition(element, condition).outcome === 'pass');
}

/**
 * Why a `some` or `every` failed, by the element that came nearest: for `some`, the one
 * meeting the most conditions; for `every`, the first that misses one. Names the element
 * (1-based) and its first unmet condition with what was found, so a failed task check
 * says which part failed (the `where` list itself, in words, is cut at 160 characters).
 */
function nearestMiss(elements: readonly unknown[], where: readonly StateCondition[], op: 'some' | 'every'): string {
  let nearest: { index: number; met: number; miss: StateConditionResult } | undefined;
  elements.forEach((element, index) => {
    const results = where.map((condition) => evaluateStateCondition(element, condition));
    const miss = results.find((candidate) => candidate.outcome === 'fail');
    if (miss === undefined) return;
    const met = results.length - results.filter((candidate) => candidate.outcome === 'fail').length;
    if (nearest === undefined || (op === 'some' && met > nearest.met)) nearest = { index, met, miss };
  });
  if (nearest === undefined) return '';
  return `; ${op === 'some' ? 'nearest' : 'first miss'}: element ${nearest.index + 1} meets ${nearest.met} of ${where.length}, not ${nearest.miss.reason}`;
}

/**
 * Evaluates one condition (state-check-schema.ts documents paths and ops) against
 * `root`. Pure; a regex or path error is a bug in the task file, which the loader has
 * already rejected, so this throws only for those.
 */
export function evaluateStateCondition(root: unknown, condition: StateCondition): StateConditionResult {
  const actual = resolveStatePath(root, condition.path);
  const ignoreCase = condition.ignoreCase === true;
  const label = `${condition.path} ${opInWords(condition.op)}${condition.value === undefined ? '' : ` ${show(condition.value)}`}`;
  const result = (pass: boolean, detail: string): StateConditionResult => ({ outcome: pass ? 'pass' : 'fail', reason: `${label}: ${detail}`, actual });
  const found = actual.length === 0 ? 'nothing at that path' : `found ${show(actual.length === 1 ? actual[0] : actual)}`;
  const op = condition.op;
  switch (op) {
    case 'equals':
    case 'not-equals':
    case 'contains':
    case 'matches': {
      if (actual.length === 0) return result(false, found);
      const test = (value: unknown): boolean => {
        if (op === 'equals') return equalsValue(value, condition.value, ignoreCase);
        if (op === 'not-equals') return !equalsValue(value, condition.value, ignoreCase);
        if (op === 'contains') return containsValue(value, condition.value, ignoreCase);
        return matchesValue(value, String(condition.value), ignoreCase);
      };
      const failing = actual.filter((value) => !test(value));
      return result(failing.length === 0, failing.length === 0 ? found : `${found}; ${failing.length} of ${actual.length} value(s) do not hold, e.g. ${show(failing[0])}`);
    }
    case 'exists':
    case 'absent': {
      const present = actual.filter((value) => value !== null);
      return result(op === 'exists' ? present.length > 0 : present.length === 0, found);
    }
    case 'count>=':
    case 'count<=':
    case 'count=': {
      const elements = elementsOf(actual);
      const counted = condition.where === undefined ? elements.length : elements.filter((element) => satisfiesAll(element, condition.where ?? [])).length;
      const bound = Number(condition.value);
      const pass = op === 'count>=' ? counted >= bound : op === 'count<=' ? counted <= bound : counted === bound;
      return result(pass, `counted ${counted}${condition.where === undefined ? '' : ' matching element(s)'} of ${elements.length}`);
    }
    case 'some':
    case 'every':
    case 'none': {
      const elements = elementsOf(actual);
      const matching = elements.filter((element) => satisfiesAll(element, condition.where ?? [])).length;
      const pass = op === 'some' ? matching > 0 : op === 'none' ? matching === 0 : elements.length > 0 && matching === elements.length;
      const why = pass || op === 'none' ? '' : nearestMiss(elements, condition.where ?? [], op);
      return result(pass, `${matching} of ${elements.length} element(s) match where ${whereInWords(condition.where ?? [])}${why}`);
    }
    default:
      return assertNever(op, 'state op');
  }
}
